// An applied edit in the chat (DESIGN §14): the file, +added −removed, edited or created. It
// unfolds (a click, or Space or Enter on the file's name) to the change's coloured diff, and
// offers Compare (the whole change side by side) and Undo (this turn's changes to the file).
// It shows what it is told; the change cards send the requests.
#pragma once

#include "gui/card_parts.hpp"
#include "protocol/messages.hpp"

#include <QFrame>

class QLabel;
class QToolButton;

namespace rio::gui {

struct ThemeColours;

class EditCard : public QFrame {
    Q_OBJECT
public:
    explicit EditCard(const EditAppliedEvent& applied, QWidget* parent = nullptr);

    // What Undo can do: put the file back, nothing any more (`why` says so), or it was done.
    enum class Undo { possible, impossible, done };
    void set_undo(Undo undo, const QString& why = {});
    Undo undo() const { return undo_; }

    void set_expanded(bool expanded);
    bool expanded() const;

    const EditAppliedEvent& applied() const { return applied_; }
    // "greet.py · +2 −1 · edited": what the card says folded, as plain text.
    QString summary() const;
    // The diff's lines as shown unfolded.
    QStringList diff_lines() const;

    QPushButton* toggle() const { return toggle_; }
    QToolButton* compare_button() const { return compare_; }
    QToolButton* undo_button() const { return undo_button_; }
    QPlainTextEdit* diff_view() const { return diff_; }

signals:
    void compare_requested();
    void undo_requested();

private:
    void paint(const ThemeColours& colours); // the counts, the state and the diff's lines
    void fill_diff();
    void show_state();

    EditAppliedEvent applied_;
    CardToggle* toggle_;
    QLabel* counts_;
    QLabel* state_;
    QToolButton* compare_;
    QToolButton* undo_button_;
    CardText* diff_;
    bool filled_ = false;
    Undo undo_ = Undo::possible;
};

} // namespace rio::gui
