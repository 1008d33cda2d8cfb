#include "core/agent/edit_match.hpp"

namespace rio {
namespace {

std::size_t count_occurrences(std::string_view text, std::string_view needle, std::size_t& first) {
    std::size_t count = 0;
    for (std::size_t at = text.find(needle); at != std::string_view::npos;
         at = text.find(needle, at + 1)) {
        if (count++ == 0) first = at;
    }
    return count;
}

std::string to_crlf(std::string_view s) {
    std::string out;
    out.reserve(s.size() + s.size() / 16);
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\n' && (i == 0 || s[i - 1] != '\r')) out.push_back('\r');
        out.push_back(s[i]);
    }
    return out;
}

} // namespace

Result<TextEdit> locate_edit(std::string_view text, std::string_view old_string,
                             std::string_view new_string, std::string_view path) {
    std::string where(path);
    if (old_string.empty())
        return make_error(ErrorCode::bad_request,
                          "old_string is empty; use create_file for a new file, or quote the "
                          "text to replace");
    std::size_t first = 0;
    std::size_t count = count_occurrences(text, old_string, first);
    std::string old_crlf, new_crlf;
    if (count == 0 && text.find("\r\n") != std::string_view::npos &&
        old_string.find('\n') != std::string_view::npos) {
        old_crlf = to_crlf(old_string);
        new_crlf = to_crlf(new_string);
        count = count_occurrences(text, old_crlf, first);
        if (count > 0) {
            old_string = old_crlf;
            new_string = new_crlf;
        }
    }
    if (count == 0)
        return make_error(ErrorCode::not_found,
                          "old_string was not found in " + where +
                              "; read the file again and copy the text exactly");
    if (count > 1)
        return make_error(ErrorCode::conflict, "old_string occurs " + std::to_string(count) +
                                                   " times in " + where +
                                                   "; include more surrounding lines so it "
                                                   "matches exactly once");
    return TextEdit{first, first + old_string.size(), std::string(new_string)};
}

} // namespace rio
