// Ctrl+G: a one-field bar under the centre that takes "line" or "line:column" (both from 1)
// and asks for the code editor's cursor to go there. Enter goes, Esc puts it away.
#pragma once

#include <QWidget>
#include <optional>

class QLabel;
class QLineEdit;

namespace rio::gui {

struct LineColumn {
    int line = 1;
    int column = 1;
};

// "12" or "12:5", spaces allowed around the numbers; nothing when it is neither.
std::optional<LineColumn> parse_line_column(const QString& text);

class GoToLineBar : public QWidget {
    Q_OBJECT
public:
    explicit GoToLineBar(QWidget* parent = nullptr);

    // Shows the bar for a file of `lines` lines; `back` gets the focus when it closes.
    void open(int lines, QWidget* back);
    void close_bar();
    QLineEdit* field() const { return field_; }
    QString status() const;

signals:
    void go_to(int line, int column); // both from 1; line within the file

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void go();

    QLineEdit* field_;
    QLabel* status_;
    QWidget* back_ = nullptr;
    int lines_ = 1;
};

} // namespace rio::gui
