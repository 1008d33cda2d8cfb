#include "gui/proposal_summary.hpp"

#include "client/trace_words.hpp"
#include "protocol/closed_sets.hpp"
#include "text/argv_text.hpp"

#include <QCoreApplication>
#include <QRegularExpression>
#include <algorithm>

namespace rio::gui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("rio", text);
}

// "+3 −2" from a unified diff's body lines.
QString diff_size(const QString& diff) {
    int added = 0, removed = 0;
    for (const QString& line : diff.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("+++")) || line.startsWith(QLatin1String("---")))
            continue;
        if (line.startsWith(QLatin1Char('+'))) ++added;
        if (line.startsWith(QLatin1Char('-'))) ++removed;
    }
    return QStringLiteral("+%1 −%2").arg(added).arg(removed);
}

} // namespace

BarContent bar_content(const Proposal& proposal, bool by_host) {
    BarContent bar;
    if (const rio::EditProposal* edit = proposal.edit()) {
        bar.kind = BarKind::edit;
        bar.heading = tr("Edit %1").arg(QString::fromStdString(edit->path));
        bar.detail = diff_size(QString::fromStdString(edit->diff));
        // Drift (issue 43): the file changed since the plan was approved, not by the agent.
        if (edit->drift)
            bar.detail = tr("%1 changed since you approved the plan, not by the agent. %2")
                             .arg(QString::fromStdString(edit->path), bar.detail);
        bar.approve_text = tr("Approve");
        bar.compare = true;
        return bar;
    }
    if (const rio::McpProposal* mcp = proposal.mcp()) {
        bar.kind = BarKind::command;
        bar.heading =
            tr("Call a tool of the MCP server %1?").arg(QString::fromStdString(mcp->server));
        bar.detail = QString::fromStdString(client::mcp_call_text(*mcp));
        bar.approve_text = tr("Call");
        return bar;
    }
    if (const rio::CommandProposal* command = proposal.command()) {
        bar.kind = BarKind::command;
        bar.heading = tr("Run this command?");
        bar.detail = QStringLiteral("$ ") + QString::fromStdString(argv_text(command->argv));
        const QString cwd = QString::fromStdString(command->cwd);
        bar.detail +=
            tr("   (in %1)")
                .arg(cwd.isEmpty() || cwd == QLatin1String(".") ? tr("the project folder") : cwd);
        const std::string sandbox = client::proposal_sandbox(proposal);
        if (!sandbox.empty()) bar.detail += QStringLiteral("\n") + QString::fromStdString(sandbox);
        const std::string asked = client::asked_hosts_text(proposal);
        if (!asked.empty())
            bar.detail += QStringLiteral("\n") + tr("It %1").arg(QString::fromStdString(asked));
        bar.widen =
            command->sandbox && command->sandbox->profile == rio::SandboxProfile::workspace_write;
        bar.hosts = bar.widen && by_host && !command->hosts.empty();
        bar.approve_text = tr("Run");
        return bar;
    }
    const rio::PlanProposal* found = proposal.plan();
    if (!found) { // a kind this rio does not know: a newer core's
        bar.kind = BarKind::command;
        bar.heading =
            tr("Approve a %1 proposal?").arg(QString::fromStdString(proposal.kind().name()));
        bar.approve_text = tr("Approve");
        return bar;
    }
    bar.kind = BarKind::plan;
    const rio::PlanProposal& plan = *found;
    bar.heading = tr("Plan: %1").arg(QString::fromStdString(plan.title));
    const QString path = QString::fromStdString(plan.path);
    const QString not_filed = QString::fromStdString(plan.not_filed);
    bar.detail = !path.isEmpty()       ? path
                 : not_filed.isEmpty() ? tr("not filed (no project open)")
                                       : tr("not filed: %1").arg(not_filed);
    bar.approve_text = tr("Approve");
    bar.approve_menu = true;
    bar.edit_plan = !path.isEmpty();
    bar.show_plan = true;
    return bar;
}

QString plan_body_for_view(const QString& title, const QString& markdown) {
    QString text = markdown;
    const qsizetype start = text.indexOf(QRegularExpression(QStringLiteral("\\S")));
    if (start < 0) return text;
    const qsizetype end = text.indexOf(QLatin1Char('\n'), start);
    const QString first = text.mid(start, end < 0 ? -1 : end - start).trimmed();
    if (first != QStringLiteral("# ") + title.trimmed()) return text;
    return end < 0 ? QString() : text.mid(end + 1);
}

} // namespace rio::gui
