// Finds where a search pattern matches in a file's text. A literal, or a literal that
// every match must contain, is found by LiteralFinder, and for a regex the run of byte
// classes every match contains by RunFinder (decision 0075); RE2 (linear time on any
// pattern; std::regex recurses per character and crashes on long lines) then runs only on
// the lines that hold it, or on the whole text when nothing rare enough is known.
#pragma once

#include "host/search/literal_finder.hpp"
#include "host/search/run_finder.hpp"
#include "host/search/search.hpp"
#include "protocol/error.hpp"

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

    // What the matcher looks for before (or instead of) RE2: how fast it scans, said as a
    // value, so a test can pin it (the speed itself is bench/search_patterns_bench.py's).
    enum class Scan { literal, alternatives, byte_run, whole_text };
    Scan scan() const {
        if (!alternatives_.empty()) return Scan::alternatives;
        if (literal_) return Scan::literal;
        if (run_) return Scan::byte_run;
        return Scan::whole_text;
    }

    Matcher(Matcher&&) noexcept;
    Matcher& operator=(Matcher&&) noexcept;
    ~Matcher();

private:
    Matcher();
    std::optional<Span> find_regex(std::string_view text, std::size_t from, std::size_t end) const;
    std::optional<Span> alternative_at(std::string_view text, std::size_t at) const;

    std::optional<LiteralFinder> literal_; // the pattern itself, or text every match contains
    std::optional<RunFinder> run_;         // a regex: bytes every match contains
    // A regex that is only these (RegexBytes::alternatives): its lines need no RE2.
    std::vector<ByteRun> alternatives_;
    std::unique_ptr<re2::RE2> re_; // null when the literal's hits are the matches
    // The groups standing for `\b` and `\B` (host/search/unicode_regex), checked after RE2
    // matched; RE2 runs without submatches when there are none.
    std::vector<int> boundaries_, not_boundaries_;
};

} // namespace rio
