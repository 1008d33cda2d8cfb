#include "cli/trace.hpp"

#include "cli/ansi_painter.hpp"
#include "cli/line_fill.hpp"
#include "cli/terminal.hpp"
#include "cli/terminal_safe.hpp"
#include "cli/word_stream.hpp"
#include "client/trace_words.hpp"
#include "text/argv_text.hpp"
#include "text/command_output.hpp"

#include <algorithm>

namespace rio {

std::string tool_line(const ToolEvent& tool, bool color) {
    std::string detail = shown(client::tool_detail(tool));
    std::string sandbox = shown(client::tool_sandbox(tool));
    return styled("• " + shown(tool.name), sgr::dim, color) + (detail.empty() ? "" : " " + detail) +
           (sandbox.empty() ? "" : styled("   (" + sandbox + ")", sgr::dim, color));
}

std::string tool_result_line(const ToolResultEvent& result, const client::ToolOutcome& outcome,
                             bool color) {
    std::string text = shown(outcome.text);
    if (text.empty()) return {};
    if (outcome.rejected) return styled("  ✗ " + text, sgr::dim, color);
    if (result.exit)
        return styled((outcome.failed ? "  ✗ [" : "  ✓ [") + text + "]",
                      outcome.failed ? sgr::red : sgr::dim, color);
    return styled("  ✗ " + text, sgr::red, color);
}

std::string markdown_text(std::string_view markdown, int width, bool color) {
    md::AnsiStyle style;
    style.color = color;
    style.width = width;
    // Made safe before it is parsed: nothing of it reaches the terminal raw, whichever part
    // of the painter it would end up in.
    return md::paint_ansi(md::parse(md::terminal_safe(markdown, md::Whitespace::block)), style);
}

std::string tool_progress_line(const ToolProgressEvent& progress, bool color) {
    return styled("  … " + md::terminal_safe(client::progress_text(progress), md::Whitespace::code),
                  sgr::dim, color);
}

std::string subagent_line(const SubagentEvent& event, bool color) {
    std::string text = client::subagent_text(event);
    if (text.empty()) return {};
    std::string who = event.task.empty() ? event.agent : event.task;
    const bool failed =
        event.state == SubagentState::failed || (event.state == SubagentState::result && !event.ok);
    return styled("    ↳ " + md::terminal_safe(who + ": " + text, md::Whitespace::code),
                  failed ? sgr::red : sgr::dim, color);
}

std::string command_output_text(const std::string& output, std::optional<std::size_t> max_lines,
                                std::optional<std::size_t> index, bool color) {
    std::string plain = plain_output(output);
    OutputTail tail = last_lines(plain, max_lines.value_or(static_cast<std::size_t>(-1)));
    std::string out;
    if (tail.hidden > 0)
        out += styled("  ⋮ " + std::to_string(tail.hidden) +
                          (tail.hidden == 1 ? " earlier line" : " earlier lines") +
                          (index ? ": /output " + std::to_string(*index) : std::string()),
                      sgr::dim, color) +
               "\n";
    for (std::string_view line : tail.lines)
        out +=
            styled("  │ ", sgr::dim, color) + md::terminal_safe(line, md::Whitespace::code) + "\n";
    if (!out.empty()) out.pop_back();
    return out;
}

std::string plan_text(const PlanProposal& plan, int width, bool color) {
    std::string header =
        "Plan — " + shown(plan.title) + (plan.path.empty() ? "" : " · " + shown(plan.path));
    if (!plan.not_filed.empty()) header += " (not filed: " + shown(plan.not_filed) + ")";
    std::string out =
        styled(header, sgr::bold, color) + "\n\n" + markdown_text(plan.plan, width, color);
    // The declared steps and their checks are approved with the plan, so they are shown too.
    if (std::string steps = client::declared_steps_text(plan.steps); !steps.empty())
        out += "\n\n" + markdown_text(steps, width, color);
    return out;
}

std::string diff_text(const EditProposal& edit, int width, bool color) {
    return diff_text(edit.diff, width, color);
}

std::string diff_text(std::string_view diff, int width, bool color) {
    std::string out;
    std::size_t at = 0;
    while (at < diff.size()) {
        std::size_t nl = diff.find('\n', at);
        std::string line(diff.substr(at, nl == std::string::npos ? nl : nl - at));
        at = nl == std::string::npos ? diff.size() : nl + 1;
        std::string_view style = line.rfind("+++", 0) == 0 || line.rfind("---", 0) == 0 ? sgr::bold
                                 : line.rfind("@@", 0) == 0                             ? sgr::cyan
                                 : line.rfind('+', 0) == 0                              ? sgr::green
                                 : line.rfind('-', 0) == 0                              ? sgr::red
                                                           : std::string_view();
        line = md::terminal_safe(line, md::Whitespace::code);
        std::vector<std::string> pieces = md::code_pieces(line, width);
        for (std::size_t i = 0; i < pieces.size(); ++i) {
            if (i > 0) out += styled(md::code_continuation, sgr::dim, color);
            out += (style.empty() ? pieces[i] : styled(pieces[i], style, color)) + "\n";
        }
    }
    return out;
}

std::string command_text(const CommandProposal& command, bool color) {
    std::string cwd = command.cwd.empty() ? "." : command.cwd;
    std::string sandbox = command.sandbox ? shown(sandbox_text(*command.sandbox)) : "";
    std::string where = (cwd == "." ? "" : "   (in " + shown(cwd) + ")") +
                        (sandbox.empty() ? "" : styled("   (" + sandbox + ")", sgr::dim, color));
    const std::vector<std::string>& argv = command.argv;
    bool hidden = false;
    for (const std::string& word : argv)
        hidden = hidden || has_controls(word);
    if (!hidden) return styled("$ " + shown(argv_text(argv)), sgr::bold, color) + where;
    // A word that holds a control character could pass for another command on one line: each
    // is shown on a line of its own, every control visible.
    std::string out = styled("the command below: its arguments hold control characters (shown "
                             "as \\e, ^M, …), so each is on a line of its own",
                             sgr::yellow, color) +
                      where;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        out += "\n" + styled("  argv[" + std::to_string(i) + "] ", sgr::dim, color) +
               styled(shown(argv[i]), sgr::bold, color);
    }
    return out;
}

std::string plan_steps_lines(std::vector<PlanStep> steps, int width) {
    for (PlanStep& step : steps) {
        step.text = shown(step.text);
        if (step.note) step.note = shown(*step.note);
    }
    const std::string text = client::plan_steps_text(steps);
    std::string out;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        WordStream line(width);
        out += line.feed(std::string_view(text).substr(at, end - at));
        out += line.finish() + "\n";
        at = end + 1;
    }
    return out;
}

std::string proposal_words(const Proposal& proposal) {
    if (const EditProposal* edit = proposal.edit()) return "the edit of " + shown(edit->path);
    if (const CommandProposal* command = proposal.command())
        return "the command `" + shown(argv_text(command->argv)) + "`";
    if (const McpProposal* mcp = proposal.mcp())
        return "the MCP call " + shown(mcp->server) + " · " + shown(mcp->tool);
    if (const PlanProposal* plan = proposal.plan())
        return "the plan \"" + shown(plan->title) + "\"";
    return "the " + shown(proposal.kind().name()) + " proposal";
}

std::string mcp_servers_text(const McpListResult& list, bool color) {
    std::string out;
    for (const std::string& problem : list.problems)
        out += styled(shown(problem), sgr::red, color) + "\n";
    if (list.servers.empty())
        return out + "No MCP servers are configured (see ~/.config/rio/mcp.json, or .mcp.json in "
                     "the project; F1 in the desktop, \"MCP servers\").";
    for (const McpServerInfo& server : list.servers) {
        std::string_view state_style = server.state == ServerState::ready    ? sgr::green
                                       : server.state == ServerState::failed ? sgr::red
                                                                             : sgr::dim;
        out += styled(shown(server.name), sgr::bold, color) + "  " +
               styled(shown(server.state.name()), state_style, color) + "  (" +
               shown(server.source) +
               (server.plan
                    ? ", read-only tools in plan mode, run outside the sandbox with the network"
                    : "") +
               ")\n";
        if (server.error) out += "  " + shown(*server.error) + "\n";
        std::string tools;
        for (const McpToolInfo& tool : server.tools) {
            std::string name =
                tool.name.substr(std::min(tool.name.size(), tool.name.find("__", 5) + 2));
            tools += (tools.empty() ? "" : ", ") + shown(name) +
                     (tool.is(ToolKind::read) ? "" : " (asks)");
        }
        if (!tools.empty()) out += "  " + tools + "\n";
    }
    return out + "Restart one with /mcp restart NAME.";
}

} // namespace rio
