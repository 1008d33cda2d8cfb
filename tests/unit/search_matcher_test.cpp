// The search's fast paths against the plain answers: LiteralFinder and RunFinder against a
// naive scan, the prefilters against RE2 run on every line.
#include "host/search/literal_finder.hpp"
#include "host/search/required_literal.hpp"
#include "host/search/required_run.hpp"
#include "host/search/run_finder.hpp"
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

TEST(RequiredLiteral, ALiteralIgnoringCaseKeepsTheRunAsciiFoldingCovers) {
    EXPECT_EQ(required_plain_literal("a.b", false)->text, "a.b");
    EXPECT_FALSE(required_plain_literal("a.b", false)->fold_ascii);
    EXPECT_EQ(required_plain_literal("Makefile", true)->text, "efile");
    EXPECT_TRUE(required_plain_literal("Makefile", true)->fold_ascii);
    EXPECT_FALSE(required_plain_literal("sk", true));
}

// A run as text: a position of one byte as that byte, of a letter in both cases as the
// lower one, of a range of bytes as [first-last], of other bytes as {all of them}.
std::string shown(const ByteRun& run) {
    std::string out;
    for (const ByteSet& set : run.positions) {
        std::string bytes;
        for (std::size_t b = 0; b < 256; ++b)
            if (set.test(b)) bytes += static_cast<char>(b);
        const bool range =
            static_cast<std::size_t>(static_cast<unsigned char>(bytes.back()) -
                                     static_cast<unsigned char>(bytes.front())) == bytes.size() - 1;
        if (bytes.size() == 1)
            out += bytes;
        else if (bytes.size() == 2 && (bytes[0] ^ bytes[1]) == 0x20)
            out += bytes[1];
        else if (range && bytes.size() > 2)
            out += "[" + bytes.substr(0, 1) + "-" + bytes.substr(bytes.size() - 1) + "]";
        else
            out += "{" + bytes + "}";
    }
    return out;
}

std::string required(std::string_view pattern, bool ignore_case = false) {
    auto bytes = regex_bytes(pattern, ignore_case);
    return bytes.required ? shown(*bytes.required) : "<none>";
}

std::vector<std::string> alternatives(std::string_view pattern, bool ignore_case = false) {
    std::vector<std::string> out;
    for (const ByteRun& run : regex_bytes(pattern, ignore_case).alternatives)
        out.push_back(shown(run));
    return out;
}

TEST(RegexBytes, AlternationsAndClassesGiveARunOfByteClasses) {
    // The issue's patterns: no single literal, but rare bytes all the same.
    EXPECT_EQ(required("TODO|FIXME|XXX"), "{FTX}{IOX}{DX}") << "where one of them starts";
    EXPECT_EQ(required("[A-Z]{3,}_[0-9]+"), "[A-Z][A-Z][A-Z]_[0-9]");
    EXPECT_EQ(required(R"(needle_[0-9]+\([a-z]+\))"), "needle_[0-9]");
    EXPECT_EQ(required(R"(\b(TODO|FIXME):)"), "{IT}{OX}{DM}{EO}:")
        << "an alternation's ends join what follows";
    EXPECT_EQ(required("(foo|bar)baz"), "{bf}{ao}{or}baz");
    EXPECT_EQ(required("abc+d"), "abc") << "one c is required";
    EXPECT_EQ(required("xab*c"), "xa") << "b* may be absent";
    EXPECT_EQ(required("x{0,3}yz"), "yz");
    EXPECT_EQ(required("a{,2}bc"), "a{,2}bc") << "a brace that is no repetition is itself";
    EXPECT_EQ(required(R"(a\.bc\D)"), "a.bc");
    EXPECT_EQ(required(R"(\Qa.b\Ecd)"), "a.bcd");
    EXPECT_EQ(required(R"(xab\Q\E*c)"), "xa") << "a repetition after an empty quote applies to b";
    EXPECT_EQ(required("wxy(?i)?z"), "wx") << "and after a flag group too";
    EXPECT_EQ(required("[]a]bc[[:alpha:]]de"),
              "{]a}bc{ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz}de");
    EXPECT_EQ(required("(?P<name>ab)c"), "abc");
    EXPECT_EQ(required("[^a]bc"), "bc") << "a negated class may be any character";
    EXPECT_EQ(required("été"), "été") << "exact bytes while case matters";
    EXPECT_EQ(required("été", true), "t");
    EXPECT_EQ(required("(?i)ab"), "ab");
    EXPECT_EQ(regex_bytes("(?i)ab", false).required->positions[0].count(), 2u);
    EXPECT_EQ(required("task_list", true), "_li") << "k and s fold to non-ASCII characters";
    EXPECT_EQ(required("(?i:[a-j])x"), "{ABCDEFGHIJabcdefghij}x");
    EXPECT_EQ(required("(?i:[a-z])x"), "x") << "[a-z] folds to the Kelvin sign and the long s";
    for (std::string_view none : {R"(\D+)", ".*", "a|", "(a|b)*", R"([^a]\S)", "x?"})
        EXPECT_EQ(required(none), "<none>") << none;
    EXPECT_EQ(required(R"(abc\C+xyz)"), "<none>") << "\\C matches '\\n' even with never_nl";
    // `\d`, `\w` and `\s` are Unicode: one character whose first byte is an ASCII member or
    // a lead byte, and whose last byte an ASCII member or a continuation byte.
    auto digits = regex_bytes(R"(\d+x)", false).required->positions;
    ASSERT_EQ(digits.size(), 2u);
    EXPECT_TRUE(digits[0].test('7') && digits[0].test(0xA3)) << "the last byte of a digit";
    EXPECT_FALSE(digits[0].test('a') || digits[0].test(' ') || digits[0].test(0xD9));
    EXPECT_EQ(digits[1], ByteSet().set('x'));
}

TEST(RegexBytes, PatternsThatAreAFewStringsAreSpelledOutInRe2sOrder) {
    EXPECT_EQ(alternatives("TODO|FIXME|XXX"), (std::vector<std::string>{"TODO", "FIXME", "XXX"}));
    EXPECT_EQ(alternatives("(ab|cd){2}"),
              (std::vector<std::string>{"abab", "abcd", "cdab", "cdcd"}));
    EXPECT_EQ(alternatives("(a|ab)(c|bcd)"),
              (std::vector<std::string>{"ac", "abcd", "abc", "abbcd"}));
    EXPECT_EQ(alternatives("[0-9]{3}-x"), (std::vector<std::string>{"[0-9][0-9][0-9]-x"}));
    EXPECT_EQ(alternatives("(?i)Foo|bar"), (std::vector<std::string>{"foo", "bar"}));
    for (std::string_view not_spelled :
         {R"(\bfoo)", "^foo", "foo$", "a+", "a|", "[^a]", R"(\w)", ".", "(?i)task", "a{2,3}"})
        EXPECT_TRUE(alternatives(not_spelled).empty()) << not_spelled;
}

std::size_t naive_run_find(std::string_view text, const ByteRun& run, std::size_t from) {
    const auto& p = run.positions;
    for (std::size_t at = from; at + p.size() <= text.size(); ++at) {
        std::size_t k = 0;
        while (k < p.size() && p[k].test(static_cast<unsigned char>(text[at + k])))
            ++k;
        if (k == p.size()) return at;
    }
    return std::string_view::npos;
}

TEST(RunFinder, AgreesWithANaiveSearchEverywhere) {
    Rng rng(11);
    // Bytes from many rows of the table (high halves), so that some sets need more than the
    // eight patterns a probe holds exactly.
    const std::string alphabet = "abAB_\n09zZ\x80\xc3\xa9\xff\x10\x7f";
    for (int round = 0; round < 2000; ++round) {
        std::string text = random_text(rng, alphabet, rng.below(300));
        ByteRun run;
        for (std::size_t k = 0, n = 1 + rng.below(6); k < n; ++k) {
            ByteSet set;
            for (std::size_t i = 0, members = 1 + rng.below(round % 3 == 0 ? 12 : 3); i < members;
                 ++i)
                set.set(static_cast<unsigned char>(alphabet[rng.below(alphabet.size())]));
            run.positions.push_back(set);
        }
        RunFinder finder(run);
        for (std::size_t from = 0; from <= text.size(); from += 1 + rng.below(40))
            ASSERT_EQ(finder.find(text, from), naive_run_find(text, run, from))
                << "round " << round << " from " << from;
    }
}

// The issue's numbers: `TODO|FIXME|XXX` was 1.5 to 2.7 times rg, because no single literal
// was found in it and RE2 scanned every byte at a seventh of a literal scan's speed. Both
// here are timed alike (fastest of several runs), so a busy machine slows both.
// Issue 40: alternations and class patterns ran RE2 on every line (1.5-3x rg). Each now
// scans for bytes every match holds; how fast that is, bench/search_patterns_bench.py says.
TEST(Matcher, AnAlternationAndAClassPatternAreScannedForWhatEveryMatchHolds) {
    auto scan_of = [](const std::string& pattern, bool regex) {
        SearchQuery q;
        q.pattern = pattern;
        q.regex = regex;
        auto m = Matcher::make(q);
        EXPECT_TRUE(m.ok()) << pattern;
        return m->scan();
    };
    EXPECT_EQ(scan_of("TODO", false), Matcher::Scan::literal);
    EXPECT_EQ(scan_of("TODO|FIXME|XXX", true), Matcher::Scan::alternatives);
    EXPECT_EQ(scan_of("malloc|calloc|realloc", true), Matcher::Scan::alternatives);
    EXPECT_EQ(scan_of("[A-Z]{3,}_[0-9]+", true), Matcher::Scan::byte_run);
    EXPECT_EQ(scan_of(".*", true), Matcher::Scan::whole_text) << "nothing every match holds";
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
    const std::vector<std::string> text_atoms = {"a",
                                                 "b",
                                                 "A",
                                                 "B",
                                                 "k",
                                                 "K",
                                                 "\xE2\x84\xAA",
                                                 "s",
                                                 "\xC5\xBF",
                                                 "_",
                                                 ".",
                                                 "\n",
                                                 "\r\n",
                                                 " ",
                                                 "x",
                                                 "0",
                                                 "7",
                                                 "Z",
                                                 "ABC_1",
                                                 "\xC3\xA9",
                                                 "\xD9\xA3",
                                                 "\xC2\xA0",
                                                 "\xE2\x80\x83",
                                                 "\t"};
    const std::vector<std::string> pattern_atoms = {
        "a",           "b",      "A",     "k",     "K",       "s",    "_",      "ab",   "abk",
        "\\.",         ".",      "*",     "+",     "?",       "|",    "[ab]",   "(a)",  "^",
        "$",           "{2}",    "{0,1}", "\\b",   "\\w",     "(?i)", "(?i:a)", "[^a]", "\\Qa.\\E",
        "x{,1}",       "\\Q\\E", "(?s)",  "[A-Z]", "[a-b]",   "{3,}", "(a|bb)", "x",    "[ak]",
        "[[:upper:]]", "(ab|a)", "[0-9]", "\\x41", "(?:Z|_)", "é",    "[é_]",   "{1}",  "(?-i)",
        "0",           "\\d",    "\\s",   "\\d+",  "\\s*"};
    Rng rng(2024);
    int compared = 0;
    for (int round = 0; round < 5000; ++round) {
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
    EXPECT_GT(compared, 2500);
}

// Where each match of a line starts and ends, as the Matcher reports them and as RE2 alone
// finds them on that line: the spelled-out alternatives must give RE2's very match.
std::vector<std::pair<std::size_t, std::size_t>> matched_spans(const Matcher& m,
                                                               std::string_view text) {
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    for (std::size_t from = 0; from < text.size();) {
        auto hit = m.find(text, from);
        if (!hit) break;
        spans.emplace_back(hit->begin, hit->end);
        std::size_t end = text.find('\n', hit->begin);
        if (end == std::string_view::npos) break;
        from = end + 1;
    }
    return spans;
}

std::vector<std::pair<std::size_t, std::size_t>> re2_spans(const SearchQuery& q,
                                                           std::string_view text) {
    RE2::Options options;
    options.set_case_sensitive(!q.ignore_case);
    options.set_never_nl(true);
    options.set_log_errors(false);
    RE2 re("(?m)" + q.pattern, options);
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    re2::StringPiece whole(text.data(), text.size()), found;
    for (std::size_t from = 0; from < text.size();) {
        if (!re.Match(whole, from, text.size(), RE2::UNANCHORED, &found, 1)) break;
        auto at = static_cast<std::size_t>(found.data() - text.data());
        spans.emplace_back(at, at + found.size());
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) break;
        from = end + 1;
    }
    return spans;
}

TEST(Matcher, AlternationsOfLiteralsAndClassesMatchWhereRe2Does) {
    const std::vector<std::string> text_atoms = {
        "a", "b", "ab", "A", "B", "x", "_", "0", "9", "Z", "\n", "é", "k", "\xE2\x84\xAA", " "};
    const std::vector<std::string> piece_atoms = {"a", "b",   "ab",    "[ab]",  "[A-Z]",
                                                  "x", "_",   "[0-9]", "(a|b)", "(ab|a)",
                                                  "é", "{2}", "k",     "[^a]",  "a?"};
    Rng rng(40);
    for (int round = 0; round < 3000; ++round) {
        std::string text;
        for (std::size_t i = 0, n = rng.below(80); i < n; ++i)
            text += text_atoms[rng.below(text_atoms.size())];
        SearchQuery q;
        q.regex = true;
        q.ignore_case = round % 3 == 0;
        for (std::size_t b = 0, branches = 1 + rng.below(4); b < branches; ++b) {
            if (b > 0) q.pattern += '|';
            for (std::size_t i = 0, n = 1 + rng.below(3); i < n; ++i)
                q.pattern += piece_atoms[rng.below(piece_atoms.size())];
        }
        auto m = Matcher::make(q);
        if (!m) continue; // `{2}` after `|`
        ASSERT_EQ(matched_spans(*m, text), re2_spans(q, text))
            << "pattern " << q.pattern << " ignore_case " << q.ignore_case << " text '" << text
            << "'";
    }
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
