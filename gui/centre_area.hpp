// The middle of the window: the editor tabs by default, or another "centre view" that takes
// their place for a while (the plan view, the compare view, the manual, added by later
// steps), with a notice strip above for what the person must not miss (the core went away),
// and the find and go-to-line bars below, for whichever view is shown.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QStackedWidget;

namespace rio::gui {

class EditorArea;
class FindBar;
class GoToLineBar;

class CentreArea : public QWidget {
    Q_OBJECT
public:
    explicit CentreArea(EditorArea* editors, QWidget* parent = nullptr);

    // Views are added once and shown when needed; the editors stay underneath.
    void add_view(QWidget* view);
    void show_view(QWidget* view);
    void show_editors();
    QWidget* current_view() const;

    // `action`: the text of a button beside it (notice_action() when pressed); none if empty.
    void show_notice(const QString& text, const QString& action = {});
    void hide_notice();
    QString notice() const; // empty when hidden
    QPushButton* notice_button() const { return notice_button_; }

    FindBar* find_bar() const { return find_bar_; }
    GoToLineBar* go_to_line_bar() const { return go_to_line_; }

signals:
    void view_changed(); // another view took the centre
    void notice_action();

private:
    QWidget* notice_strip_;
    QLabel* notice_;
    QPushButton* notice_button_;
    QStackedWidget* stack_;
    EditorArea* editors_;
    FindBar* find_bar_;
    GoToLineBar* go_to_line_;
};

} // namespace rio::gui
