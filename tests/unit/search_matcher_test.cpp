// The search's fast paths against the plain answers: LiteralFinder against std::string's
// find, the required-literal prefilter against RE2 run on every line.
#include "host/search/literal_finder.hpp"
#include "host/search/required_literal.hpp"
#include "host/search/search_matcher.hpp"
#include "host/search/unicode_regex.hpp"
#include "tests/support/rng.hpp"

#include <gtest/gtest.h>
#include <re2/re2.h>
#include <string>
#include <vector>

namespace rio {
namespace {

using test::Rng;

std::size_t naive_find(std::string_view text, std::string_view needle, std::size_t from,
                       bool fold) {
    auto lower = [fold](char c) {
        return fold && c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
    };
    for (std::size_t at = from; at + needle.size() <= text.size(); ++at) {
        std::size_t i = 0;
        while (i < needle.size() && lower(text[at + i]) == lower(needle[i]))
            ++i;
        if (i == needle.size()) return at;
    }
    return std::string_view::npos;
}

std::string random_text(Rng& rng, std::string_view alphabet, std::size_t size) {
    std::string s;
    for (std::size_t i = 0; i < size; ++i)
        s += alphabet[rng.below(alphabet.size())];
    return s;
}

TEST(LiteralFinder, AgreesWithANaiveSearchEverywhere) {
    Rng rng(7);
    for (int round = 0; round < 3000; ++round) {
        bool fold = round % 2 == 1;
        std::string text = random_text(rng, "abAB_\n@`", rng.below(200));
        std::string needle = random_text(rng, "abAB_@`", 1 + rng.below(5));
        LiteralFinder finder(needle, fold);
        for (std::size_t from = 0; from <= text.size(); ++from)
            ASSERT_EQ(finder.find(text, from), naive_find(text, needle, from, fold))
                << "needle '" << needle << "' fold " << fold << " from " << from << " in '" << text
                << "'";
    }
}

TEST(LiteralFinder, FoldingTouchesOnlyAsciiLetters) {
    LiteralFinder finder("a@[", true);
    EXPECT_EQ(finder.find("xA@[", 0), 1u);
    EXPECT_EQ(finder.find("a`{", 0), std::string_view::npos) << "'@'|0x20 is '`', not a case";
    EXPECT_EQ(LiteralFinder("needle", false).find("NEEDLE needle", 0), 7u);
}

TEST(RequiredLiteral, ReadsOnlyWhatEveryMatchMustContain) {
    auto literal = [](std::string_view p, bool ignore_case = false) {
        auto r = required_regex_literal(p, ignore_case);
        return r ? r->text : std::string("<none>");
    };
    EXPECT_EQ(literal(R"(needle_[0-9]+\([a-z]+\))"), "needle_");
    EXPECT_EQ(literal("foo|bar"), "<none>");
    EXPECT_EQ(literal("abc+d"), "ab") << "one c is required, but RE2 can still make c+ optional";
    EXPECT_EQ(literal("xab*c"), "xa") << "b* may be absent";
    EXPECT_EQ(literal("x{0,3}yz"), "yz");
    EXPECT_EQ(literal("uvwx{2}yz"), "uvw");
    EXPECT_EQ(literal("a{,2}bc"), ",2}bc") << "a brace that is not a repetition ends the run";
    EXPECT_EQ(literal(R"(a\.bc\d)"), "a.bc");
    EXPECT_EQ(literal(R"(\x41bcd)"), "bcd");
    EXPECT_EQ(literal(R"(\Qa.b\Ecd)"), "a.bcd");
    EXPECT_EQ(literal(R"(xab\Q\E*c)"), "xa") << "a repetition after an empty quote applies to b";
    EXPECT_EQ(literal("wxy(?i)?z"), "wx") << "and after a flag group too";
    EXPECT_EQ(literal("[]a]bc[[:alpha:]]de"), "bc");
    EXPECT_EQ(literal("(foo|bar)baz"), "baz");
    EXPECT_EQ(literal("été"), "été") << "exact bytes while case matters";
    EXPECT_EQ(literal("été", true), "t");
    EXPECT_EQ(literal("task_list", true), "_li") << "k and s fold to non-ASCII characters";
    EXPECT_EQ(literal("(?i)task_list"), "_li");
    EXPECT_TRUE(required_regex_literal("(?i)ab", false)->fold_ascii);
    EXPECT_FALSE(required_regex_literal("ab", false)->fold_ascii);

    EXPECT_EQ(required_plain_literal("a.b", false)->text, "a.b");
    EXPECT_EQ(required_plain_literal("Makefile", true)->text, "efile");
    EXPECT_FALSE(required_plain_literal("sk", true));
}

// Every line a Matcher reports, from the first line on.
std::vector<std::size_t> matched_lines(const Matcher& m, std::string_view text) {
    std::vector<std::size_t> lines;
    std::size_t from = 0;
    while (from < text.size()) {
        auto hit = m.find(text, from);
        if (!hit) break;
        std::size_t line_begin = 0;
        if (hit->begin > 0)
            if (std::size_t nl = text.rfind('\n', hit->begin - 1); nl != std::string_view::npos)
                line_begin = nl + 1;
        EXPECT_GE(line_begin, from);
        std::size_t end = text.find('\n', hit->begin);
        lines.push_back(line_begin);
        if (end == std::string_view::npos) break;
        from = end + 1;
    }
    return lines;
}

// RE2 alone over the whole text, as the search ran before it had a prefilter: what the
// prefilter must never change. The pattern is read as the matcher reads it (decision 0052):
// Unicode classes, and a `\b` or `\B` group that does not hold sends the search on from the
// next character.
std::vector<std::size_t> reference_lines(const SearchQuery& q, std::string_view text) {
    RE2::Options options;
    options.set_case_sensitive(!q.ignore_case);
    options.set_never_nl(true);
    options.set_literal(!q.regex);
    options.set_log_errors(false);
    UnicodeRegex u = q.regex ? unicode_regex(q.pattern) : UnicodeRegex{q.pattern, {}, {}};
    RE2 re(q.regex ? "(?m)" + u.pattern : u.pattern, options);
    const int groups = 1 + re.NumberOfCapturingGroups();
    std::vector<re2::StringPiece> found(static_cast<std::size_t>(groups));
    auto holds = [&] {
        for (const auto& [names, wanted] :
             {std::pair{&u.word_boundaries, true}, std::pair{&u.not_word_boundaries, false}})
            for (const std::string& name : *names) {
                const re2::StringPiece& g = found[re.NamedCapturingGroups().at(name)];
                if (g.data() && is_word_boundary(text, g.data() - text.data()) != wanted)
                    return false;
            }
        return true;
    };
    std::vector<std::size_t> lines;
    re2::StringPiece whole(text.data(), text.size());
    for (std::size_t from = 0; from < text.size();) {
        if (!re.Match(whole, from, text.size(), RE2::UNANCHORED, found.data(), groups)) break;
        auto at = static_cast<std::size_t>(found[0].data() - text.data());
        if (!holds()) {
            from = at + 1;
            while (from < text.size() && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80)
                ++from;
            continue;
        }
        if (at == text.size() && text.ends_with('\n')) break; // past the last line
        std::size_t begin = at == 0 ? 0 : text.rfind('\n', at - 1);
        lines.push_back(at == 0 || begin == std::string_view::npos ? 0 : begin + 1);
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) break;
        from = end + 1;
    }
    return lines;
}

TEST(Matcher, PrefilteredSearchesFindWhatRe2AloneFinds) {
    // Kelvin sign and long s: the case variants of k and s that are not ASCII.
    const std::vector<std::string> text_atoms = {
        "a", "b", "A", "B", "k", "K", "\xE2\x84\xAA", "s", "\xC5\xBF", "_", ".", "\n", "\r\n", " "};
    const std::vector<std::string> pattern_atoms = {
        "a",     "b",   "A",   "k",    "K",      "s",    "_",        "ab",    "abk",    "\\.",
        ".",     "*",   "+",   "?",    "|",      "[ab]", "(a)",      "^",     "$",      "{2}",
        "{0,1}", "\\b", "\\w", "(?i)", "(?i:a)", "[^a]", "\\Qa.\\E", "x{,1}", "\\Q\\E", "(?s)"};
    Rng rng(2024);
    int compared = 0;
    for (int round = 0; round < 4000; ++round) {
        std::string text;
        for (std::size_t i = 0, n = rng.below(60); i < n; ++i)
            text += text_atoms[rng.below(text_atoms.size())];
        SearchQuery q;
        for (std::size_t i = 0, n = 1 + rng.below(6); i < n; ++i)
            q.pattern += pattern_atoms[rng.below(pattern_atoms.size())];
        q.regex = round % 3 != 0;
        q.ignore_case = round % 2 == 0;
        auto m = Matcher::make(q);
        if (!m) continue; // an invalid random regex
        ++compared;
        ASSERT_EQ(matched_lines(*m, text), reference_lines(q, text))
            << "pattern " << q.pattern << " regex " << q.regex << " ignore_case " << q.ignore_case
            << " text '" << text << "'";
    }
    EXPECT_GT(compared, 2000);
}

} // namespace
} // namespace rio

namespace rio {
namespace {

TEST(UnicodeRegex, PerlClassesBecomeUnicodeClassesAndBoundariesBecomeGroups) {
    UnicodeRegex u = unicode_regex(R"(\bfoo\w+\d[\w.-]\s\S\B\Q\w\E[^\]\d]\\w)");
    EXPECT_EQ(u.pattern,
              R"((?P<rio_b0>)foo[\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\x{200C}\x{200D}]+[\p{Nd}])"
              R"([\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\x{200C}\x{200D}.-][\t\n\x{0B}\f\r\x{85}\p{Z}])"
              R"([^\t\n\x{0B}\f\r\x{85}\p{Z}](?P<rio_B0>)\Q\w\E[^\]\p{Nd}]\\w)");
    EXPECT_EQ(u.word_boundaries, (std::vector<std::string>{"rio_b0"}));
    EXPECT_EQ(u.not_word_boundaries, (std::vector<std::string>{"rio_B0"}));
    EXPECT_EQ(unicode_regex("[]a]\\w[[:alpha:]\\w]").pattern,
              R"([]a][\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\x{200C}\x{200D}])"
              R"([[:alpha:]\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\x{200C}\x{200D}])");
    EXPECT_TRUE(RE2(u.pattern).ok()) << RE2(u.pattern).error();
}

TEST(UnicodeRegex, AWordBoundaryLiesBetweenAWordCharacterAndAnythingElse) {
    const std::string text = "«Über» x_Ä 9€";
    auto at = [&](std::string_view piece) { return text.find(piece); };
    EXPECT_TRUE(is_word_boundary(text, at("Über")));      // after «
    EXPECT_TRUE(is_word_boundary(text, at("»")));         // after r
    EXPECT_FALSE(is_word_boundary(text, at("ber")));      // inside
    EXPECT_FALSE(is_word_boundary(text, at("Ä")));        // after _
    EXPECT_TRUE(is_word_boundary(text, at("€")));         // after 9
    EXPECT_FALSE(is_word_boundary(text, 0));              // before «
    EXPECT_TRUE(is_word_boundary(text, text.size() - 4)); // before €, after 9 (3 bytes)
    EXPECT_FALSE(is_word_boundary("", 0));
    EXPECT_TRUE(is_word_boundary("é", 0));
    EXPECT_TRUE(is_word_boundary("é", 2));
}

} // namespace
} // namespace rio
