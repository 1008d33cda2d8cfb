#include "core/agent/edit_match.hpp"

#include "core/text_format.hpp"

#include <algorithm>
#include <cstring>

namespace rio {
namespace {

constexpr std::size_t npos = std::string_view::npos;

// glibc's memmem is the two-way algorithm: linear in text + needle, where string_view::find
// compares at every position and took 17 s on `a`×800k in `a`×1.6M.
std::size_t find_from(std::string_view text, std::string_view needle, std::size_t from) {
    if (from > text.size()) return npos;
    const void* hit =
        ::memmem(text.data() + from, text.size() - from, needle.data(), needle.size());
    return hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - text.data()) : npos;
}

// "Exactly once" needs the first match and whether a second exists, never a count of all
// of them: counting overlapping matches of a long repetitive needle is quadratic.
struct Matches {
    std::size_t first = npos;
    bool more = false;
};

Matches locate(std::string_view text, std::string_view needle) {
    Matches m;
    m.first = find_from(text, needle, 0);
    if (m.first != npos) m.more = find_from(text, needle, m.first + 1) != npos;
    return m;
}

// For the message only: matches that do not overlap, which is linear to count since the
// searches cover disjoint stretches of the text. Overlapping ones still make two.
std::size_t count_for_message(std::string_view text, std::string_view needle, std::size_t first) {
    std::size_t count = 0;
    for (std::size_t at = first; at != npos; at = find_from(text, needle, at + needle.size()))
        ++count;
    return std::max<std::size_t>(count, 2);
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
    Matches found = locate(text, old_string);
    std::string old_crlf;
    bool matched_as_crlf = false;
    if (found.first == npos && text.find("\r\n") != npos && old_string.find('\n') != npos) {
        old_crlf = to_crlf(old_string);
        found = locate(text, old_crlf);
        matched_as_crlf = found.first != npos;
        if (matched_as_crlf) old_string = old_crlf;
    }
    if (found.first == npos)
        return make_error(ErrorCode::not_found,
                          "old_string was not found in " + where +
                              "; read the file again and copy the text exactly");
    if (found.more)
        return make_error(ErrorCode::conflict,
                          "old_string occurs " +
                              std::to_string(count_for_message(text, old_string, found.first)) +
                              " times in " + where +
                              "; include more surrounding lines so it matches exactly once");
    // Models write '\n' whatever the file uses; a CRLF file keeps CRLF throughout.
    bool crlf = matched_as_crlf || detect_eol(text) == Eol::crlf;
    std::string replacement = crlf ? to_crlf(new_string) : std::string(new_string);
    return TextEdit{found.first, found.first + old_string.size(), std::move(replacement)};
}

} // namespace rio
