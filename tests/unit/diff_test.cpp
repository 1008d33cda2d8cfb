#include "core/diff.hpp"
#include "tests/support/rng.hpp"
#include "tests/support/temp_dir.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <numeric>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace rio {
namespace {

using Lines = std::vector<std::string_view>;

using test::Rng;

std::string join(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines)
        text += line + '\n';
    return text;
}

// Applies the hunks to a, checking on the way that they are ordered, non-overlapping,
// merged, non-empty and in bounds, and that the totals add up.
std::vector<std::string> apply(const Lines& a, const Lines& b, const LineDiff& diff) {
    std::vector<std::string> out;
    std::size_t i = 0, j = 0, removed = 0, added = 0;
    for (std::size_t h = 0; h < diff.hunks.size(); ++h) {
        const DiffHunk& hunk = diff.hunks[h];
        EXPECT_GT(hunk.a_count + hunk.b_count, 0u) << "empty hunk " << h;
        EXPECT_GE(hunk.a_start, i) << "hunk " << h << " overlaps or is out of order";
        EXPECT_GE(hunk.b_start, j) << "hunk " << h << " overlaps or is out of order";
        if (h > 0) {
            EXPECT_GT(hunk.a_start, i) << "hunk " << h << " is adjacent to the previous one";
            EXPECT_GT(hunk.b_start, j) << "hunk " << h << " is adjacent to the previous one";
        }
        EXPECT_EQ(hunk.a_start - i, hunk.b_start - j) << "unequal context before hunk " << h;
        if (hunk.a_start + hunk.a_count > a.size() || hunk.b_start + hunk.b_count > b.size()) {
            ADD_FAILURE() << "hunk " << h << " out of bounds";
            return out;
        }
        while (i < hunk.a_start)
            out.emplace_back(a[i++]);
        for (std::size_t k = 0; k < hunk.b_count; ++k)
            out.emplace_back(b[hunk.b_start + k]);
        i = hunk.a_start + hunk.a_count;
        j = hunk.b_start + hunk.b_count;
        removed += hunk.a_count;
        added += hunk.b_count;
    }
    while (i < a.size())
        out.emplace_back(a[i++]);
    EXPECT_EQ(removed, diff.removed);
    EXPECT_EQ(added, diff.added);
    return out;
}

void expect_applies(const Lines& a, const Lines& b, const LineDiff& diff) {
    std::vector<std::string> got = apply(a, b, diff);
    std::vector<std::string> want(b.begin(), b.end());
    EXPECT_EQ(got, want);
}

// The minimal number of inserted plus deleted lines, by the textbook LCS table.
std::size_t edit_distance(const Lines& a, const Lines& b) {
    std::vector<std::size_t> prev(b.size() + 1, 0), row(b.size() + 1, 0);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j)
            row[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], row[j - 1]);
        std::swap(prev, row);
    }
    return a.size() + b.size() - 2 * prev[b.size()];
}

std::vector<std::string> random_lines(Rng& rng, std::size_t count, std::size_t alphabet) {
    std::vector<std::string> lines;
    for (std::size_t k = 0; k < count; ++k)
        lines.push_back("l" + std::to_string(rng.below(alphabet)));
    return lines;
}

// Lines that look like source code: lots of near-duplicates ("}", blank lines, similar
// statements), which is what makes real diffs ambiguous.
std::string code_line(Rng& rng) {
    static const char* const kStatic[] = {
        "}",           "", "    }", "    return 0;", "{", "        break;", "#include <vector>",
        "    } else {"};
    static const char* const kWords[] = {"value", "count", "index", "buffer", "result",
                                         "node",  "size",  "total", "line",   "offset"};
    if (rng.below(4) == 0) return kStatic[rng.below(std::size(kStatic))];
    std::string line(4 * (1 + rng.below(3)), ' ');
    line += kWords[rng.below(std::size(kWords))];
    line += " = ";
    line += kWords[rng.below(std::size(kWords))];
    line += " + " + std::to_string(rng.below(100)) + ";";
    return line;
}

std::vector<std::string> code_file(Rng& rng, std::size_t count) {
    std::vector<std::string> lines;
    for (std::size_t k = 0; k < count; ++k)
        lines.push_back(code_line(rng));
    return lines;
}

// Changes, inserts or deletes `edits` lines at random places.
std::vector<std::string> edit_file(Rng& rng, std::vector<std::string> lines, std::size_t edits) {
    for (std::size_t e = 0; e < edits; ++e) {
        std::size_t at = rng.below(lines.size() + 1);
        switch (rng.below(3)) {
        case 0:
            if (at < lines.size()) lines[at] = code_line(rng);
            break;
        case 1:
            lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), code_line(rng));
            break;
        default:
            if (at < lines.size()) lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(at));
        }
    }
    return lines;
}

TEST(SplitLines, EmptyTextHasNoLines) {
    EXPECT_TRUE(split_lines("").empty());
}

TEST(SplitLines, LastLineNeedsNoTerminator) {
    EXPECT_EQ(split_lines("a"), (Lines{"a"}));
    EXPECT_EQ(split_lines("a\nb"), (Lines{"a", "b"}));
}

TEST(SplitLines, TrailingNewlineDoesNotStartAnEmptyLine) {
    EXPECT_EQ(split_lines("a\nb\n"), (Lines{"a", "b"}));
    EXPECT_EQ(split_lines("a\n\n"), (Lines{"a", ""}));
}

TEST(SplitLines, LoneNewlineIsOneEmptyLine) {
    EXPECT_EQ(split_lines("\n"), (Lines{""}));
    EXPECT_EQ(split_lines("\n\n"), (Lines{"", ""}));
    EXPECT_EQ(split_lines("a\n\nb"), (Lines{"a", "", "b"}));
}

TEST(SplitLines, CarriageReturnStaysInTheLine) {
    EXPECT_EQ(split_lines("a\r\nb\r\n"), (Lines{"a\r", "b\r"}));
    EXPECT_EQ(split_lines("a\rb"), (Lines{"a\rb"}));
}

TEST(LineDiff, IdenticalInputsHaveNoHunks) {
    for (const char* text : {"", "a", "a\nb\nc\n", "x\nx\nx\n"}) {
        LineDiff diff = diff_lines(text, text);
        EXPECT_TRUE(diff.hunks.empty()) << text;
        EXPECT_EQ(diff.removed, 0u);
        EXPECT_EQ(diff.added, 0u);
        EXPECT_TRUE(diff.exact);
    }
}

TEST(LineDiff, PureInsert) {
    LineDiff diff = diff_lines("a\nb\nc\n", "a\nb\nnew1\nnew2\nc\n");
    EXPECT_EQ(diff.hunks, (std::vector<DiffHunk>{{2, 0, 2, 2}}));
    EXPECT_EQ(diff.removed, 0u);
    EXPECT_EQ(diff.added, 2u);
    EXPECT_EQ(diff_lines("", "a\nb\n").hunks, (std::vector<DiffHunk>{{0, 0, 0, 2}}));
    EXPECT_EQ(diff_lines("b\n", "a\nb\n").hunks, (std::vector<DiffHunk>{{0, 0, 0, 1}}));
    EXPECT_EQ(diff_lines("a\n", "a\nb\n").hunks, (std::vector<DiffHunk>{{1, 0, 1, 1}}));
}

TEST(LineDiff, PureDelete) {
    LineDiff diff = diff_lines("a\nb\nold\nc\n", "a\nb\nc\n");
    EXPECT_EQ(diff.hunks, (std::vector<DiffHunk>{{2, 1, 2, 0}}));
    EXPECT_EQ(diff.removed, 1u);
    EXPECT_EQ(diff.added, 0u);
    EXPECT_EQ(diff_lines("a\nb\n", "").hunks, (std::vector<DiffHunk>{{0, 2, 0, 0}}));
}

TEST(LineDiff, ChangeInTheMiddle) {
    LineDiff diff = diff_lines("1\n2\n3\n4\n5\n", "1\n2\nthree\n4\n5\n");
    EXPECT_EQ(diff.hunks, (std::vector<DiffHunk>{{2, 1, 2, 1}}));
    EXPECT_EQ(diff.removed, 1u);
    EXPECT_EQ(diff.added, 1u);
    EXPECT_TRUE(diff.exact);
}

TEST(LineDiff, LineEndingChangeIsAChange) {
    LineDiff diff = diff_lines("a\nb\nc\n", "a\nb\r\nc\n");
    EXPECT_EQ(diff.hunks, (std::vector<DiffHunk>{{1, 1, 1, 1}}));
}

TEST(LineDiff, HunksAreMergedAndInOrder) {
    // A deletion right next to a change becomes one hunk; separated edits stay apart.
    std::string a = "1\n2\n3\n4\n5\n6\n7\n8\n";
    std::string b = "1\nTWO\n4\n5\n6\nseven\nextra\n8\n";
    LineDiff diff = diff_lines(a, b);
    EXPECT_EQ(diff.hunks, (std::vector<DiffHunk>{{1, 2, 1, 1}, {6, 1, 5, 2}}));
    EXPECT_EQ(diff.removed, 3u);
    EXPECT_EQ(diff.added, 3u);
    expect_applies(split_lines(a), split_lines(b), diff);
}

TEST(LineDiff, RandomPairsApplyAndAreMinimal) {
    for (std::uint64_t seed = 0; seed < 3000; ++seed) {
        Rng rng(seed);
        std::size_t alphabet = 1 + rng.below(6);
        std::vector<std::string> a_text = random_lines(rng, rng.below(40), alphabet);
        std::vector<std::string> b_text = rng.below(3) == 0
                                              ? edit_file(rng, a_text, rng.below(6))
                                              : random_lines(rng, rng.below(40), alphabet);
        std::string a_joined = join(a_text), b_joined = join(b_text);
        Lines a = split_lines(a_joined), b = split_lines(b_joined);
        LineDiff diff = diff_lines(a, b);
        SCOPED_TRACE("seed " + std::to_string(seed));
        expect_applies(a, b, diff);
        EXPECT_TRUE(diff.exact);
        EXPECT_EQ(diff.removed + diff.added, edit_distance(a, b));
        if (HasFailure()) break;
    }
}

TEST(LineDiff, TinyCostCapStaysCorrectButInexact) {
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
        Rng rng(seed);
        std::vector<std::string> a_text = random_lines(rng, 50 + rng.below(150), 8);
        std::vector<std::string> b_text = random_lines(rng, 50 + rng.below(150), 8);
        std::string a_joined = join(a_text), b_joined = join(b_text);
        Lines a = split_lines(a_joined), b = split_lines(b_joined);
        LineDiff diff = diff_lines(a, b, DiffOptions{1});
        SCOPED_TRACE("seed " + std::to_string(seed));
        expect_applies(a, b, diff);
        EXPECT_FALSE(diff.exact);
        EXPECT_GE(diff.removed + diff.added, edit_distance(a, b));
        if (HasFailure()) break;
    }
}

TEST(LineDiff, CostCapBoundsPathologicalInputs) {
    // A shuffle: every line matches exactly one line on the other side, but the longest
    // common subsequence is tiny, so an uncapped search would cost about N * 2N steps.
    const std::size_t n = 100'000;
    std::vector<std::string> a_text(n);
    for (std::size_t k = 0; k < n; ++k)
        a_text[k] = "line " + std::to_string(k);
    std::vector<std::string> b_text = a_text;
    Rng rng(42);
    for (std::size_t k = n - 1; k > 0; --k)
        std::swap(b_text[k], b_text[rng.below(k + 1)]);
    std::string a_joined = join(a_text), b_joined = join(b_text);
    Lines a = split_lines(a_joined), b = split_lines(b_joined);

    LineDiff diff = diff_lines(a, b);
    expect_applies(a, b, diff);
    EXPECT_FALSE(diff.exact);
    EXPECT_EQ(diff.removed, diff.added); // same lines on both sides: each unpaired one moved

    // Unrelated files, interleaved with shared lines: the unmatched lines are dropped
    // before the search, so this is both fast and exact.
    std::vector<std::string> c_text, d_text;
    for (std::size_t k = 0; k < n; ++k) {
        c_text.push_back(k % 2 ? "common " + std::to_string(k) : "a-only " + std::to_string(k));
        d_text.push_back(k % 2 ? "common " + std::to_string(k) : "b-only " + std::to_string(k));
    }
    std::string c_joined = join(c_text), d_joined = join(d_text);
    Lines c = split_lines(c_joined), d = split_lines(d_joined);
    LineDiff unrelated = diff_lines(c, d);
    expect_applies(c, d, unrelated);
    EXPECT_TRUE(unrelated.exact);
    EXPECT_EQ(unrelated.removed, n / 2);
    EXPECT_EQ(unrelated.hunks.size(), n / 2);
}

TEST(LineDiff, LopsidedSplitsDoNotExhaustTheStack) {
    // With max_cost 1 every split lands next to a corner, so a recursive implementation
    // would nest once per line here.
    const std::size_t n = 100'000;
    std::vector<std::string> a_text, b_text;
    for (std::size_t k = 0; k < n; ++k) {
        a_text.push_back(k % 3 ? "x" : "y");
        b_text.push_back(k % 2 ? "x" : "y");
    }
    std::string a_joined = join(a_text), b_joined = join(b_text);
    Lines a = split_lines(a_joined), b = split_lines(b_joined);
    LineDiff diff = diff_lines(a, b, DiffOptions{1});
    expect_applies(a, b, diff);
}

TEST(LineDiff, AutomaticCostCapScalesWithInput) {
    EXPECT_EQ(auto_max_cost(0, 0), 4096u);
    EXPECT_EQ(auto_max_cost(100'000, 100'000), 4096u);
    EXPECT_EQ(auto_max_cost(2'000'000, 2'000'000), 4u * 2000u);
}

// ---- Against GNU diff ----------------------------------------------------------------------

constexpr const char* kGnuDiff = "/usr/bin/diff";

struct Counts {
    std::size_t removed = 0, added = 0;
};

// Counts "< " and "> " lines of GNU diff's normal output format.
Counts gnu_diff_counts(const std::string& a_text, const std::string& b_text) {
    test::TempDir dir;
    std::filesystem::path a_path = dir / "a.txt", b_path = dir / "b.txt";
    test::write_bytes(a_path, a_text);
    test::write_bytes(b_path, b_text);
    std::string command =
        std::string(kGnuDiff) + " --minimal '" + a_path.string() + "' '" + b_path.string() + "'";
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) {
        ADD_FAILURE() << "popen failed for " << command;
        return {};
    }
    Counts counts;
    std::string line;
    char chunk[4096];
    while (std::fgets(chunk, sizeof chunk, pipe)) {
        line += chunk;
        if (line.back() != '\n' && !std::feof(pipe)) continue;
        if (line.rfind("< ", 0) == 0) ++counts.removed;
        if (line.rfind("> ", 0) == 0) ++counts.added;
        line.clear();
    }
    int status = pclose(pipe);
    EXPECT_TRUE(WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1))
        << command << " failed with status " << status;
    return counts;
}

class AgainstGnuDiff : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(access(kGnuDiff, X_OK), 0)
            << kGnuDiff << " is not installed; this test needs GNU diffutils to compare against";
    }

    void compare(const std::vector<std::string>& a_text, const std::vector<std::string>& b_text) {
        std::string a_joined = join(a_text), b_joined = join(b_text);
        Lines a = split_lines(a_joined), b = split_lines(b_joined);
        LineDiff diff = diff_lines(a, b);
        expect_applies(a, b, diff);
        EXPECT_TRUE(diff.exact);
        Counts gnu = gnu_diff_counts(a_joined, b_joined);
        EXPECT_EQ(diff.removed, gnu.removed);
        EXPECT_EQ(diff.added, gnu.added);
        EXPECT_EQ(diff.removed + diff.added, edit_distance(a, b));
    }
};

TEST_F(AgainstGnuDiff, SmallScatteredEdits) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        Rng rng(seed);
        std::vector<std::string> a = code_file(rng, 2000);
        compare(a, edit_file(rng, a, 5 + rng.below(10)));
    }
}

TEST_F(AgainstGnuDiff, HeavyEdits) {
    for (std::uint64_t seed = 11; seed <= 15; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        Rng rng(seed);
        std::vector<std::string> a = code_file(rng, 2000);
        compare(a, edit_file(rng, a, 600));
    }
}

TEST_F(AgainstGnuDiff, AllLinesDifferent) {
    std::vector<std::string> a, b;
    for (std::size_t k = 0; k < 2000; ++k) {
        a.push_back("old " + std::to_string(k));
        b.push_back("new " + std::to_string(k));
    }
    compare(a, b);
    // Different, but drawn from the same small pool, so most lines do match something.
    Rng rng(7);
    compare(code_file(rng, 2000), code_file(rng, 2000));
}

} // namespace
} // namespace rio
