// What the editor area shows while no file is open (issue 32 item 4): what rio is, Open
// Folder, the folders opened lately, "Connect a model" while echo stands in for one, the
// three modes in a sentence each, and the manual. It says what it is told; the window
// acts on its signals.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace rio::gui {

class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);

    // The folders opened lately, most recent first; at most five are offered.
    void set_recent(const QStringList& roots);
    // Whether a model is connected: without one, "Connect a model" leads to the providers.
    void set_model_connected(bool connected);

    QPushButton* open_folder_button() const { return open_folder_; }
    QPushButton* connect_button() const { return connect_; }
    QPushButton* manual_button() const { return manual_; }
    QList<QPushButton*> recent_buttons() const;

signals:
    void open_folder_requested();
    void recent_requested(const QString& root);
    void connect_requested();
    void manual_requested();

private:
    QPushButton* open_folder_;
    QPushButton* connect_;
    QLabel* connect_note_;
    QPushButton* manual_;
    QLabel* recent_heading_;
    QVBoxLayout* recent_list_;
};

} // namespace rio::gui
