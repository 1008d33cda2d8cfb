// client/plan_revision over the core's real diff (core/diff_result, what diff.lines answers):
// a revised plan's lines marked inserted, removed and changed, with the words that changed,
// and the compact rows rio-cli prints.
#include "client/plan_revision.hpp"
#include "core/diff_result.hpp"
#include "core/word_diff.hpp"

#include <gtest/gtest.h>

namespace rio::client {
namespace {

std::vector<MarkedLine> marks(const std::string& a, const std::string& b) {
    DiffLinesParams request = revision_diff_request(a, b);
    EXPECT_EQ(request.words, true);
    return mark_revision(
        a, b,
        diff_result(request.a.get<std::string>(), request.b.get<std::string>(), 0, *request.words));
}

std::string cut(const std::string& text, const DiffSpan& span) {
    return text.substr(span.start, span.end - span.start);
}

TEST(PlanRevision, InsertedRemovedAndChangedLinesAreMarkedInOrder) {
    std::string old_plan = "# Shout\n\n1. Parse flags by hand\n2. Test it\n3. Update docs\n";
    std::string new_plan = "# Shout\n\n1. Parse flags with argparse\n2. Test it\n4. Ship it\n"
                           "5. Tell the team\n";
    auto m = marks(old_plan, new_plan);
    ASSERT_EQ(m.size(), 6u);
    EXPECT_EQ(m[0].mark, LineMark::same);
    EXPECT_EQ(m[1].mark, LineMark::same);
    EXPECT_EQ(m[2].mark, LineMark::changed);
    EXPECT_EQ(m[2].text, "1. Parse flags with argparse");
    EXPECT_EQ(m[2].old_text, "1. Parse flags by hand");
    EXPECT_EQ(m[2].old_line, 2u);
    EXPECT_EQ(m[2].new_line, 2u);
    EXPECT_EQ(m[3].mark, LineMark::same);
    EXPECT_EQ(m[4].mark, LineMark::changed) << "3. Update docs became 4. Ship it";
    EXPECT_EQ(m[5].mark, LineMark::inserted);
    EXPECT_EQ(m[5].text, "5. Tell the team");
    EXPECT_FALSE(m[5].old_line);
    EXPECT_EQ(m[5].new_line, 5u);
}

TEST(PlanRevision, AChangedLineCarriesTheWordsThatChangedOnBothSides) {
    auto m = marks("Use the os module to parse flags\n", "Use argparse to parse flags\n");
    ASSERT_EQ(m.size(), 1u);
    ASSERT_EQ(m[0].mark, LineMark::changed);
    ASSERT_EQ(m[0].added.size(), 1u);
    EXPECT_EQ(cut(m[0].text, m[0].added[0]), "argparse");
    ASSERT_EQ(m[0].removed.size(), 1u);
    EXPECT_EQ(cut(m[0].old_text, m[0].removed[0]), "the os module");
}

TEST(PlanRevision, RemovedLinesStayWhereTheyWere) {
    auto m = marks("a\nb\nc\nd\n", "a\nd\n");
    ASSERT_EQ(m.size(), 4u);
    EXPECT_EQ(m[1].mark, LineMark::removed);
    EXPECT_EQ(m[1].text, "b");
    EXPECT_EQ(m[1].old_line, 1u);
    EXPECT_FALSE(m[1].new_line);
    EXPECT_EQ(m[2].mark, LineMark::removed);
    EXPECT_EQ(m[3].text, "d");
    EXPECT_EQ(m[3].new_line, 1u);
}

TEST(PlanRevision, AnUnchangedPlanHasNoChangeAndNoCompactRows) {
    auto m = marks("same\nplan\n", "same\nplan\n");
    EXPECT_FALSE(any_change(m));
    EXPECT_TRUE(compact_rows(m).empty());
    EXPECT_TRUE(any_change(marks("", "new\n")));
}

TEST(PlanRevision, WordSpansNeverSplitAUtf8Character) {
    WordChanges w = diff_words("Grüße an alle", "Grüße an Jürgen");
    ASSERT_EQ(w.added.size(), 1u);
    EXPECT_EQ(std::string("Grüße an Jürgen").substr(w.added[0].start), "Jürgen");
    EXPECT_EQ(w.removed.size(), 1u);
}

TEST(PlanRevision, CompactRowsKeepContextAndMarkTheGaps) {
    std::string a, b;
    for (int i = 1; i <= 20; ++i) {
        a += "line " + std::to_string(i) + "\n";
        b += (i == 10 ? std::string("line ten") : "line " + std::to_string(i)) + "\n";
    }
    auto m = marks(a, b);
    auto rows = compact_rows(m, 1);
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_FALSE(rows[0]) << "lines 1-8 left out";
    EXPECT_EQ(rows[1], 8u);
    EXPECT_EQ(m[*rows[2]].mark, LineMark::changed);
    EXPECT_EQ(rows[3], 10u);
    EXPECT_FALSE(rows[4]) << "lines 12-20 left out";
}

TEST(PlanRevision, HunksThatDoNotFitTheTextsAreClamped) {
    DiffLinesResult bogus;
    bogus.hunks.push_back({5, 9, 7, 3, std::nullopt});
    bogus.hunks.push_back({0, 1, 0, 1, std::nullopt}); // out of order
    auto m = mark_revision("a\nb\n", "a\nc\n", bogus);
    EXPECT_EQ(m.size(), 2u);
    for (const MarkedLine& line : m)
        EXPECT_EQ(line.mark, LineMark::same);
}

// Issue 26, break I: the word diff of two 7 MB one-line plans took 16.9 s and 1.7 GB. Lines
// too long to compare word by word are changed as wholes; the answer says it is not exact.
TEST(DiffResult, WordsAreComparedWithinCaps) {
    std::string a(max_word_line_bytes, 'a'), b(max_word_line_bytes, 'b');
    DiffLinesResult r = diff_result(a + "\nsame\nx y\n", b + "\nsame\nx z\n", 0, true);
    ASSERT_EQ(r.hunks.size(), 2u);
    ASSERT_TRUE(r.hunks[0].words);
    EXPECT_EQ((*r.hunks[0].words)[0].removed.size(), 1u);
    EXPECT_EQ((*r.hunks[0].words)[0].removed[0].end, a.size()) << "the whole line";
    EXPECT_EQ((*r.hunks[1].words)[0].added[0].start, 2u) << "a short line still word by word";
    EXPECT_FALSE(r.exact);
    EXPECT_TRUE(diff_result("x y\n", "x z\n", 0, true).exact);
}

// The answer's size is bounded too: past max_diff_hunks the rest is one hunk, still a script
// that turns a into b.
TEST(DiffResult, HunksAreCappedIntoAValidScript) {
    std::string a, b;
    for (std::size_t i = 0; i < max_diff_hunks + 50; ++i) {
        a += "keep\nold " + std::to_string(i) + "\n";
        b += "keep\nnew " + std::to_string(i) + "\n";
    }
    DiffLinesResult r = diff_result(a, b);
    ASSERT_EQ(r.hunks.size(), max_diff_hunks);
    EXPECT_FALSE(r.exact);
    const DiffHunkInfo& last = r.hunks.back();
    EXPECT_EQ(last.a_start + last.a_count, r.a_lines);
    EXPECT_EQ(last.b_start + last.b_count, r.b_lines);
    std::uint64_t removed = 0;
    for (const DiffHunkInfo& h : r.hunks)
        removed += h.a_count;
    EXPECT_EQ(r.removed, removed);
}

} // namespace
} // namespace rio::client
