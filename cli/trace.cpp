#include "cli/trace.hpp"

#include "cli/ansi_painter.hpp"
#include "cli/line_fill.hpp"
#include "cli/terminal.hpp"
#include "cli/terminal_safe.hpp"
#include "client/trace_words.hpp"

namespace rio {

std::string tool_line(const ToolEvent& tool, bool color) {
    std::string detail = client::tool_detail(tool);
    std::string sandbox = client::tool_sandbox(tool);
    return styled("• " + tool.name, sgr::dim, color) + (detail.empty() ? "" : " " + detail) +
           (sandbox.empty() ? "" : styled("   (" + sandbox + ")", sgr::dim, color));
}

std::string tool_result_line(const ToolResultEvent& result, const client::ToolOutcome& outcome,
                             bool color) {
    if (outcome.text.empty()) return {};
    if (outcome.rejected) return styled("  ✗ " + outcome.text, sgr::dim, color);
    if (result.exit)
        return styled((outcome.failed ? "  ✗ [" : "  ✓ [") + outcome.text + "]",
                      outcome.failed ? sgr::red : sgr::dim, color);
    return styled("  ✗ " + outcome.text, sgr::red, color);
}

std::string plan_text(const Proposal& plan, int width, bool color) {
    std::string path = plan.text("path");
    std::string header = "Plan — " + plan.text("title") + (path.empty() ? "" : " · " + path);
    md::AnsiStyle style;
    style.color = color;
    style.width = width;
    return styled(header, sgr::bold, color) + "\n\n" +
           md::paint_ansi(md::parse(plan.text("plan")), style);
}

std::string diff_text(const Proposal& edit, int width, bool color) {
    std::string out;
    std::string diff = edit.text("diff");
    std::size_t at = 0;
    while (at < diff.size()) {
        std::size_t nl = diff.find('\n', at);
        std::string line = diff.substr(at, nl == std::string::npos ? nl : nl - at);
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

std::string command_text(const Proposal& command, bool color) {
    std::string cwd = command.text("cwd");
    if (cwd.empty()) cwd = ".";
    std::string sandbox = client::proposal_sandbox(command);
    return styled("$ " + client::argv_text(command.fields.value("argv", Json::array())), sgr::bold,
                  color) +
           (cwd == "." ? "" : "   (in " + cwd + ")") +
           (sandbox.empty() ? "" : styled("   (" + sandbox + ")", sgr::dim, color));
}

std::string proposal_words(const Proposal& proposal) {
    if (proposal.kind == "edit") return "the edit of " + proposal.text("path");
    if (proposal.kind == "command")
        return "the command `" + client::argv_text(proposal.fields.value("argv", Json::array())) +
               "`";
    if (proposal.kind == "mcp")
        return "the MCP call " + proposal.text("server") + " · " + proposal.text("tool");
    return "the plan \"" + proposal.text("title") + "\"";
}

std::string mcp_servers_text(const McpListResult& list, bool color) {
    std::string out;
    for (const std::string& problem : list.problems)
        out += styled(problem, sgr::red, color) + "\n";
    if (list.servers.empty())
        return out + "No MCP servers are configured (see ~/.config/rio/mcp.json, or .mcp.json in "
                     "the project; F1 in the desktop, \"MCP servers\").";
    for (const McpServerInfo& server : list.servers) {
        std::string_view state_style = server.state == "ready"    ? sgr::green
                                       : server.state == "failed" ? sgr::red
                                                                  : sgr::dim;
        out += styled(server.name, sgr::bold, color) + "  " +
               styled(server.state, state_style, color) + "  (" + server.source +
               (server.plan ? ", read-only tools in plan mode" : "") + ")\n";
        if (server.error) out += "  " + *server.error + "\n";
        std::string tools;
        for (const McpToolInfo& tool : server.tools) {
            std::string name = tool.name.substr(tool.name.find("__", 5) + 2);
            tools += (tools.empty() ? "" : ", ") + name + (tool.kind == "read" ? "" : " (asks)");
        }
        if (!tools.empty()) out += "  " + tools + "\n";
    }
    return out + "Restart one with /mcp restart NAME.";
}

} // namespace rio
