#include "cli/trace.hpp"

#include "cli/ansi_painter.hpp"
#include "cli/line_fill.hpp"
#include "cli/terminal.hpp"
#include "cli/terminal_safe.hpp"
#include "client/trace_words.hpp"

namespace rio {

std::string tool_line(const ToolEvent& tool, bool color) {
    std::string detail = client::tool_detail(tool);
    return styled("• " + tool.name_, sgr::dim, color) + (detail.empty() ? "" : " " + detail);
}

std::string tool_result_line(const ToolResultEvent& result, bool color) {
    client::ToolOutcome outcome = client::tool_outcome(result);
    if (outcome.text.empty()) return {};
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
    return styled("$ " + client::argv_text(command.fields.value("argv", Json::array())), sgr::bold,
                  color) +
           (cwd == "." ? "" : "   (in " + cwd + ")");
}

std::string proposal_words(const Proposal& proposal) {
    if (proposal.kind == "edit") return "the edit of " + proposal.text("path");
    if (proposal.kind == "command")
        return "the command `" + client::argv_text(proposal.fields.value("argv", Json::array())) +
               "`";
    return "the plan \"" + proposal.text("title") + "\"";
}

} // namespace rio
