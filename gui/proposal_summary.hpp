// What the approval bar shows for a pending proposal (agent.propose, DESIGN §6, §9). Pure: a
// proposal in, a description of the bar out.
#pragma once

#include "protocol/messages.hpp"

#include <QString>

namespace rio::gui {

// The bar's three looks; an MCP server's tool call is shown as a command is.
enum class BarKind { plan, edit, command };

struct BarContent {
    BarKind kind = BarKind::plan;
    QString heading;           // "Plan: Add a flag", "Edit greet.py", "Run this command?"
    QString detail;            // ".rio/plans/….md", "+3 −2 lines", "$ make test  (in src)"
    QString approve_text;      // "Approve" (a plan's opens a menu), "Run"
    bool approve_menu = false; // a plan: review each edit / auto-accept edits
    bool edit_plan = false;    // a filed plan (path not empty)
    bool show_plan = false;    // a plan: reopen the plan view
    bool compare = false;      // an edit: open the compare view
    bool widen = false; // a sandboxed command: may run with the network or without the sandbox
    // A sandboxed command that asks for hosts where they can be told apart (issue 45): "with
    // the network to those hosts", once or always.
    bool hosts = false;
};

// `by_host`: the core can limit a command's network to some hosts (agent.status).
BarContent bar_content(const Proposal& proposal, bool by_host = false);

// A filed plan starts with "# <title>" (DESIGN §7), which the plan view's header already
// says; the body to paint drops that first heading when it is exactly the title.
QString plan_body_for_view(const QString& title, const QString& markdown);

} // namespace rio::gui
