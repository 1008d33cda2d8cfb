// The find bar under the centre (Ctrl+F, Ctrl+H): finds as the words are typed, with
// Regex, Match case and Whole word toggles; Enter and F3 go to the next match, Shift+Enter
// and Shift+F3 to the previous one, wrapping; Esc closes it and gives the focus back to the
// view it searched (Esc typed in the editor closes it too). With a replace field (Ctrl+H) when its
// view can be edited: Replace does the selected match and goes to the next, Replace all does every
// one as one undo step. It searches one FindTarget at a time, whichever view the window gives it.
#pragma once

#include "gui/find_target.hpp"

#include <QPointer>
#include <QWidget>
#include <memory>

class QAbstractButton;
class QLabel;
class QLineEdit;
class QPushButton;

namespace rio::gui {

class FindBar : public QWidget {
    Q_OBJECT
public:
    explicit FindBar(QWidget* parent = nullptr);
    ~FindBar() override;

    // Shows the bar on `target` with the field focused (holding the target's selection when
    // it is one line); `replace` adds the replace field if the target can be edited.
    void open(std::unique_ptr<FindTarget> target, bool replace);
    // The window's view changed while the bar is open: search that one (null closes the bar).
    void retarget(std::unique_ptr<FindTarget> target);
    void close_bar();

    void find_next();
    void find_previous();
    void replace();
    void replace_all();

    FindTarget* target() const { return target_.get(); }
    FindOptions options() const;
    QString status() const; // "No match", "2 of 5", …
    QLineEdit* find_field() const { return find_field_; }
    QLineEdit* replace_field() const { return replace_field_; }
    QAbstractButton* regex_toggle() const;
    QAbstractButton* case_toggle() const;
    QAbstractButton* word_toggle() const;
    QPushButton* replace_button() const { return replace_button_; }
    QPushButton* replace_all_button() const { return replace_all_button_; }

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void run(FindTarget::Step step);
    void show_result(Found found);
    void show_replace_row(bool replace);
    void watch(QWidget* view); // the searched editor, for its Esc

    std::unique_ptr<FindTarget> target_;
    QPointer<QWidget> watched_;
    QLineEdit* find_field_;
    QLineEdit* replace_field_;
    QAbstractButton* regex_;
    QAbstractButton* case_;
    QAbstractButton* word_;
    QLabel* status_;
    QWidget* replace_row_;
    QPushButton* replace_button_;
    QPushButton* replace_all_button_;
};

} // namespace rio::gui
