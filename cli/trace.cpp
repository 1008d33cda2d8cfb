#include "cli/trace.hpp"

#include "cli/terminal.hpp"
#include "cli/ansi_painter.hpp"

namespace rio {
namespace {

std::string first_line(const std::string& text) {
    return text.substr(0, text.find('\n'));
}

std::string argv_text(const Json& argv) {
    std::string out;
    for (const Json& word : argv) {
        std::string w = word.is_string() ? word.get<std::string>() : word.dump();
        bool plain = !w.empty() && w.find_first_of(" \t\"'\\$") == std::string::npos;
        out += (out.empty() ? "" : " ") + (plain ? w : "'" + w + "'");
    }
    return out;
}

} // namespace

std::string tool_line(const Json& tool, bool color) {
    const Json& input = tool.value("input", Json::object());
    std::string name = tool.value("name", "?");
    std::string detail;
    if (input.contains("argv"))
        detail = argv_text(input["argv"]);
    else if (input.contains("pattern"))
        detail = "\"" + input.value("pattern", "") + "\"" +
                 (input.contains("path") ? " in " + input.value("path", "") : "");
    else if (input.contains("title"))
        detail = input.value("title", "");
    else if (input.contains("path"))
        detail = input.value("path", "");
    return styled("• " + name, sgr::dim, color) + (detail.empty() ? "" : " " + detail);
}

std::string tool_failure_line(const Json& result, bool color) {
    std::string content = result.value("content", "");
    if (result.value("ok", true)) {
        // A command's last line is its verdict: "[exit code 0 · 1.2 s]".
        if (result.value("name", "") != "run_command") return {};
        std::size_t end = content.find_last_not_of('\n');
        std::size_t start = end == std::string::npos ? 0 : content.rfind('\n', end);
        return styled("  ✓ " + content.substr(start == std::string::npos ? 0 : start + 1), sgr::dim,
                      color);
    }
    return styled("  ✗ " + first_line(content), sgr::red, color);
}

std::string plan_text(const Json& proposal, int width, bool color) {
    std::string path = proposal.value("path", "");
    std::string header =
        "Plan — " + proposal.value("title", "") + (path.empty() ? "" : " · " + path);
    md::AnsiStyle style;
    style.color = color;
    style.width = width;
    return styled(header, sgr::bold, color) + "\n\n" +
           md::paint_ansi(md::parse(proposal.value("plan", "")), style);
}

std::string diff_text(const Json& proposal, bool color) {
    std::string out;
    std::string diff = proposal.value("diff", "");
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
        out += (style.empty() ? line : styled(line, style, color)) + "\n";
    }
    return out;
}

std::string command_text(const Json& proposal, bool color) {
    std::string cwd = proposal.value("cwd", ".");
    return styled("$ " + argv_text(proposal.value("argv", Json::array())), sgr::bold, color) +
           (cwd == "." ? "" : "   (in " + cwd + ")");
}

} // namespace rio
