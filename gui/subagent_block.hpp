// A subagent's card in the chat (DESIGN §23): one line under its task call — "▸ Subagent
// "find the greeting" · 3 steps · working" — that unfolds to the subagent's own trace, each
// of its tool calls and failures, and its answer's first line when it ends.
#pragma once

#include "protocol/messages.hpp"

#include <QFrame>

class QLabel;
class QToolButton;

namespace rio::gui {

class SubagentBlock : public QFrame {
public:
    explicit SubagentBlock(const SubagentEvent& first);
    void add(const SubagentEvent& event);
    // Its plain text, header and trace, for the transcript's entry_text.
    QString text() const;
    bool open() const;

private:
    void update_header();

    QToolButton* toggle_;
    QLabel* trace_;
    QString task_;
    QStringList lines_;
    int steps_ = 0;
    QString state_;
};

} // namespace rio::gui
