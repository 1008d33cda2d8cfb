// Finds where a search pattern matches in a file's text. A literal, or a literal that
// every match must contain, is found by LiteralFinder; RE2 (linear time on any pattern;
// std::regex recurses per character and crashes on long lines) then runs only on the
// lines that contain it, or on the whole text when no such literal is known.
#pragma once

#include "protocol/error.hpp"
#include "host/search/literal_finder.hpp"
#include "host/search/search.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace rio {

struct Span {
    std::size_t begin, end;
};

class Matcher {
public:
    static Result<Matcher> make(const SearchQuery& query);

    // The first match that starts at or after `from`, which is 0 or just past a '\n'. A
    // match never spans lines.
    std::optional<Span> find(std::string_view text, std::size_t from) const;

    Matcher(Matcher&&) noexcept;
    Matcher& operator=(Matcher&&) noexcept;
    ~Matcher();

private:
    Matcher();
    std::optional<Span> find_regex(std::string_view text, std::size_t from, std::size_t end) const;

    std::optional<LiteralFinder> literal_; // the pattern itself, or text every match contains
    std::unique_ptr<re2::RE2> re_;         // null when the literal's hits are the matches
    // The groups standing for `\b` and `\B` (host/search/unicode_regex), checked after RE2
    // matched; RE2 runs without submatches when there are none.
    std::vector<int> boundaries_, not_boundaries_;
};

} // namespace rio
