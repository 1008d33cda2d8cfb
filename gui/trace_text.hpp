// The words of the chat's compact tool trace: one short line per tool call ("read
// src/app.cpp"), what became of it, and how a decision reads. Pure formatting, so the tests
// can check it without a window.
#pragma once

#include "protocol/wire.hpp"

#include <QString>

namespace rio::gui {

// From agent.tool: "read src/app.cpp", "search "TODO" in src", "run make test".
QString tool_trace_text(const Json& tool);

// From agent.tool_result: what to add to the call's line. A failure: its first line
// (failed = true). A command that ran: its exit line ("exit code 0 · 0.4 s"). Else "".
struct ToolOutcome {
    QString text;
    bool failed = false;
};
ToolOutcome tool_outcome(const Json& result);

// A command line as a person would type it: words with spaces or quotes are quoted.
QString argv_text(const Json& argv);

// From agent.decided: "Plan approved — review each edit", "Edit rejected: too broad".
QString decision_text(const Json& decided);

// The first line of `text`, cut to `max_chars` with "…".
QString first_line(const QString& text, int max_chars = 200);

} // namespace rio::gui
