#include "host/search/search_matcher.hpp"

#include "host/search/required_literal.hpp"
#include "host/search/required_run.hpp"
#include "host/search/unicode_regex.hpp"

#include <algorithm>
#include <cstring>
#include <re2/re2.h>
#include <string>

namespace rio {
namespace {

// A shorter literal hits so many lines that running RE2 on each costs more than one RE2
// scan of the whole text.
constexpr std::size_t min_prefilter_bytes = 3;
// The same for a regex's run of byte classes, by the chance that it lies at a place of source
// text (run_chance). Measured on git's sources: `\s+$` (0.18) took twice as long through its
// run as RE2 alone, `\s\s` (0.033) and `[0-9]+` (0.018) a sixth and a third less. Alternatives
// spelled out need no RE2 and no bound: `[a-z]` (0.57) took a third of RE2's time.
constexpr double max_run_chance = 0.05;

} // namespace

Matcher::Matcher() = default;
Matcher::Matcher(Matcher&&) noexcept = default;
Matcher& Matcher::operator=(Matcher&&) noexcept = default;
Matcher::~Matcher() = default;

Result<Matcher> Matcher::make(const SearchQuery& query) {
    Matcher m;
    if (query.regex) {
        RegexBytes bytes = regex_bytes(query.pattern, query.ignore_case);
        if (bytes.required &&
            (!bytes.alternatives.empty() || run_chance(*bytes.required) <= max_run_chance)) {
            m.run_.emplace(*bytes.required);
            m.alternatives_ = std::move(bytes.alternatives);
        }
    } else if (auto literal = required_plain_literal(query.pattern, query.ignore_case)) {
        if (literal->text.size() == query.pattern.size()) {
            m.literal_.emplace(literal->text, literal->fold_ascii);
            return m;
        }
        if (literal->text.size() >= min_prefilter_bytes)
            m.literal_.emplace(literal->text, literal->fold_ascii);
    }

    RE2::Options options;
    options.set_log_errors(false);
    options.set_case_sensitive(!query.ignore_case);
    // Results are lines, so a match must not run into the next one; this also keeps the
    // scan linear, since no match can overlap the lines searched after it.
    options.set_never_nl(true);
    options.set_literal(!query.regex);
    // (?m): `^` and `$` match at line boundaries, which is what a line search means. `\w`,
    // `\d`, `\s` and `\b` mean what they mean to rg: Unicode (decision 0052).
    UnicodeRegex unicode = query.regex ? unicode_regex(query.pattern) : UnicodeRegex{};
    std::string pattern = query.regex ? "(?m)" + unicode.pattern : query.pattern;
    m.re_ = std::make_unique<RE2>(pattern, options);
    if (!m.re_->ok()) {
        std::string arg = m.re_->error_arg();
        const std::string& full = m.re_->error();
        std::string what = full.substr(0, full.size() - std::min(full.size(), arg.size()));
        if (arg.starts_with("(?m)")) arg.erase(0, 4);
        return make_error(
            ErrorCode::bad_request,
            std::string(query.regex ? "invalid regular expression: " : "invalid search pattern: ") +
                what + arg);
    }
    const auto& groups = m.re_->NamedCapturingGroups();
    for (const std::string& name : unicode.word_boundaries)
        m.boundaries_.push_back(groups.at(name));
    for (const std::string& name : unicode.not_word_boundaries)
        m.not_boundaries_.push_back(groups.at(name));
    return m;
}

// A match whose `\b` and `\B` groups sit where those hold in Unicode; when one does not, the
// search goes on from the next character (so `\b(a|ab)\b` misses "ab", which only another
// path through the pattern from the same start would find).
std::optional<Span> Matcher::find_regex(std::string_view text, std::size_t from,
                                        std::size_t end) const {
    const int groups =
        boundaries_.empty() && not_boundaries_.empty() ? 1 : 1 + re_->NumberOfCapturingGroups();
    re2::StringPiece few[8];
    std::vector<re2::StringPiece> many(groups > 8 ? static_cast<std::size_t>(groups) : 0);
    re2::StringPiece* found = groups > 8 ? many.data() : few;
    auto at = [&](int group) -> std::optional<std::size_t> {
        const re2::StringPiece& g = found[static_cast<std::size_t>(group)];
        if (!g.data()) return std::nullopt; // in a branch the match did not take
        return static_cast<std::size_t>(g.data() - text.data());
    };
    std::size_t begin = 0;
    for (std::size_t start = from;; ++start) {
        if (!re_->Match(re2::StringPiece(text.data(), text.size()), start, end, RE2::UNANCHORED,
                        found, groups))
            return std::nullopt;
        begin = static_cast<std::size_t>(found[0].data() - text.data());
        bool holds = true;
        for (int g : boundaries_)
            if (auto pos = at(g); pos && !is_word_boundary(text, *pos)) holds = false;
        for (int g : not_boundaries_)
            if (auto pos = at(g); pos && is_word_boundary(text, *pos)) holds = false;
        if (holds) break;
        start = begin;
        while (start + 1 < end && (static_cast<unsigned char>(text[start + 1]) & 0xC0) == 0x80)
            ++start;
        if (start >= end) return std::nullopt;
    }
    const re2::StringPiece& match = found[0];
    // An empty match after the final '\n' (`^$`, `x*`) is on no line: a file's last line
    // break ends its last line, it does not start another.
    if (begin == text.size() && text.ends_with('\n')) return std::nullopt;
    return Span{begin, begin + match.size()};
}

// The first alternative that matches at `at`, as RE2 prefers them.
std::optional<Span> Matcher::alternative_at(std::string_view text, std::size_t at) const {
    for (const ByteRun& alternative : alternatives_) {
        const auto& positions = alternative.positions;
        if (positions.size() > text.size() - at) continue;
        std::size_t k = 0;
        while (k < positions.size() && positions[k].test(static_cast<unsigned char>(text[at + k])))
            ++k;
        if (k == positions.size()) return Span{at, at + k};
    }
    return std::nullopt;
}

std::optional<Span> Matcher::find(std::string_view text, std::size_t from) const {
    if (!literal_ && !run_) return find_regex(text, from, text.size());
    if (!alternatives_.empty()) {
        // The run starts every alternative: the first place where it lies and one matches
        // is the leftmost match, no RE2 needed. None holds a '\n', so none spans lines.
        for (std::size_t at = from;; ++at) {
            at = run_->find(text, at);
            if (at == std::string_view::npos) return std::nullopt;
            if (auto span = alternative_at(text, at)) return span;
        }
    }
    while (from < text.size()) {
        std::size_t hit = literal_ ? literal_->find(text, from) : run_->find(text, from);
        if (hit == std::string_view::npos) return std::nullopt;
        if (!re_) return Span{hit, hit + literal_->size()};
        // Only this line can hold the next match: the lines before it lack the literal.
        std::size_t line_begin = from;
        if (const void* nl = ::memrchr(text.data() + from, '\n', hit - from))
            line_begin = static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) + 1;
        const void* nl = std::memchr(text.data() + hit, '\n', text.size() - hit);
        std::size_t line_end =
            nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
        if (auto span = find_regex(text, line_begin, line_end)) return span;
        from = line_end + 1;
    }
    return std::nullopt;
}

} // namespace rio
