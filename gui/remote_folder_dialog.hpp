// File ▸ Open Remote Folder… (DESIGN §22): asks for `ssh://[user@]host[:port]/path`, offering
// the remotes opened lately, and checks the address as it is typed with the parser every
// frontend uses, so a bad one is explained before any ssh runs.
#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QPushButton;

namespace rio::gui {

class RemoteFolderDialog : public QDialog {
    Q_OBJECT
public:
    explicit RemoteFolderDialog(const QStringList& recent, QWidget* parent = nullptr);

    QString address() const; // as typed, trimmed
    QComboBox* field() const { return field_; }
    QLabel* problem() const { return problem_; } // why the address cannot be used, or empty
    QPushButton* open_button() const { return open_; }

private:
    void check();

    QComboBox* field_;
    QLabel* problem_;
    QPushButton* open_;
};

} // namespace rio::gui
