#include "protocol/jsonc.hpp"

#include <algorithm>
#include <cstddef>

namespace rio {
namespace {

bool space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Blanks the comma before a closing bracket at out[end]: past whitespace (comments are
// spaces by now), and only when a value comes before the comma.
void drop_trailing_comma(std::string& out, std::size_t end) {
    std::size_t at = end;
    while (at > 0 && space(out[at - 1]))
        --at;
    if (at == 0 || out[at - 1] != ',') return;
    std::size_t comma = at - 1;
    std::size_t before = comma;
    while (before > 0 && space(out[before - 1]))
        --before;
    if (before == 0 || out[before - 1] == '[' || out[before - 1] == '{' || out[before - 1] == ',')
        return;
    out[comma] = ' ';
}

} // namespace

Result<std::string> jsonc_to_json(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t line = 1;
    for (std::size_t i = 0; i < text.size();) {
        char c = text[i];
        if (c == '"') {
            std::size_t start = i++;
            while (i < text.size() && text[i] != '"' && text[i] != '\n')
                i += text[i] == '\\' ? 2 : 1;
            if (i < text.size() && text[i] == '"') ++i;
            i = std::min(i, text.size());
            out.append(text.substr(start, i - start));
            continue;
        }
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
            while (i < text.size() && text[i] != '\n') {
                out += ' ';
                ++i;
            }
            continue;
        }
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
            std::size_t end = text.find("*/", i + 2);
            if (end == std::string_view::npos)
                return make_error(ErrorCode::bad_request, "invalid JSON: a /* comment on line " +
                                                              std::to_string(line) +
                                                              " is never closed");
            for (; i < end + 2; ++i) {
                out += text[i] == '\n' ? '\n' : ' ';
                if (text[i] == '\n') ++line;
            }
            continue;
        }
        if (c == '}' || c == ']') drop_trailing_comma(out, out.size());
        if (c == '\n') ++line;
        out += c;
        ++i;
    }
    return out;
}

} // namespace rio
