// A command the agent ran, in the chat (issue 32 item 2, decision 0057): the command line,
// how it ended ("✗ exit code 1 · 0.2 s", in the error colour when it failed) and Copy; it
// unfolds (a click, or Space or Enter on the command) to the folder it ran in and all it
// printed — escape sequences taken out, the end in view, long output scrolled in a view
// that lays out only what it shows.
#pragma once

#include "gui/card_parts.hpp"
#include "protocol/messages.hpp"

#include <QFrame>

class QLabel;
class QToolButton;

namespace rio::gui {

class CommandCard : public QFrame {
    Q_OBJECT
public:
    // `call`: the agent.tool event (argv, cwd); `result`: its agent.tool_result.
    CommandCard(const ToolEvent& call, const ToolResultEvent& result, QWidget* parent = nullptr);

    void set_expanded(bool expanded);
    bool expanded() const;

    // "$ python3 -m unittest · ✗ exit code 1 · 0.2 s": what the card says folded.
    QString summary() const;
    // All it printed, as shown (and copied).
    QString output() const { return output_; }

    QPushButton* toggle() const { return toggle_; }
    QToolButton* copy_button() const { return copy_; }
    QPlainTextEdit* output_view() const { return view_; }

signals:
    void unfolded(); // shown open by the person: the chat keeps it in view

private:
    void paint();
    void fill();

    QString line_;    // "$ python3 -m unittest"
    QString cwd_;     // "" for the project's root
    QString outcome_; // "✗ exit code 1 · 0.2 s"
    bool failed_ = false;
    QString output_;
    CardToggle* toggle_;
    QLabel* outcome_label_;
    QToolButton* copy_;
    QLabel* where_;
    CardText* view_;
    bool filled_ = false;
};

} // namespace rio::gui
