// Planned vs actual (core/agent/plan_report) and what a review says (core/agent/plan_review):
// which words of a plan are project paths, how touched files compare with them, comments
// checked field by field and quoted verbatim.
#include "core/agent/plan_lifecycle.hpp"
#include "core/agent/plan_report.hpp"
#include "core/agent/plan_review.hpp"
#include "core/agent/plan_track.hpp"

#include <gtest/gtest.h>
#include <set>

namespace rio {
namespace {

using Paths = std::vector<std::string>;

TEST(PlanReport, PathWordsAreFoundInProseCodeAndLinks) {
    EXPECT_EQ(path_words("Edit `greet.py`, then src/app/main.cpp. See [docs](./docs/x.md) and "
                         "https://example.com/a.py; also e.g. this, and .rio/plans/p.md"),
              (Paths{"greet.py", "src/app/main.cpp", "docs/x.md", "e.g"}));
    EXPECT_EQ(path_words("greet.py and greet.py again, /etc/passwd, ../up.txt"),
              (Paths{"greet.py"}));
}

TEST(PlanReport, TouchedFilesNamedByPathNameOrFolderArePlanned) {
    std::set<std::string> project{"greet.py", "README.md", "src", "src/util.py"};
    auto exists = [&](const std::string& p) { return project.count(p) > 0; };
    std::string plan = "1. Change greet.py\n2. Add tests/test_shout.py\n3. Tidy util.py in src/\n"
                       "4. Mention it in README.md\nUse os.path, e.g. like v1.2 did.\n";
    PlanOutcome o = compare_with_plan(plan, {"greet.py", "src/util.py", "setup.cfg"}, exists);
    EXPECT_EQ(o.touched, (Paths{"greet.py", "src/util.py", "setup.cfg"}));
    EXPECT_EQ(o.unplanned, (Paths{"setup.cfg"}));
    EXPECT_EQ(o.untouched, (Paths{"tests/test_shout.py", "README.md"}))
        << "named and untouched: a file to create, an existing file; not os.path, e.g, v1.2";
}

TEST(PlanReport, NothingTouchedLeavesEveryNamedPathUntouched) {
    PlanOutcome o = compare_with_plan("Edit greet.py", {}, [](const std::string&) { return true; });
    EXPECT_TRUE(o.unplanned.empty());
    EXPECT_EQ(o.untouched, (Paths{"greet.py"}));
}

TEST(PlanReview, BadCommentsAreNamedByFieldAndIndex) {
    PlanComment good{"1. Edit it", 3, 4, "use argparse"};
    EXPECT_FALSE(comments_problem({good}));
    auto problem = [&](PlanComment c) { return comments_problem({good, c}).value_or(""); };
    EXPECT_EQ(problem({" ", 1, {}, "x"}),
              "params.comments[1].quote is empty: quote the passage the comment is on");
    EXPECT_EQ(problem({"q", 1, {}, "\n"}), "params.comments[1].text is empty");
    EXPECT_EQ(problem({"q", 0, {}, "x"}), "params.comments[1].line counts from 1");
    EXPECT_EQ(problem({"q", {}, 2, "x"}), "params.comments[1].end_line needs line");
    EXPECT_EQ(problem({"q", 5, 4, "x"}), "params.comments[1].end_line is before line");
}

ReviewComment filed(std::string id, PlanComment c) {
    return {std::move(id),      c.quote,     c.line, c.end_line, c.text, CommentAuthor::person, {},
            CommentState::open, std::nullopt};
}

TEST(PlanReview, TheModelReadsEachPassageAndCommentVerbatimByItsId) {
    std::vector<ReviewComment> comments{
        filed("c1", {"1. Parse flags\n2. By hand", 3, 4, "use argparse here"}),
        filed("c2", {"Test it", {}, {}, "with pytest,\nnot unittest"})};
    std::string rejected = plan_rejection_note(PlanReview{false, "", comments});
    EXPECT_NE(rejected.find("requested changes"), std::string::npos);
    EXPECT_NE(rejected.find("Comment c1, on lines 3-4 of the plan:\n> 1. Parse flags\n"
                            "> 2. By hand\n\nuse argparse here\n"),
              std::string::npos)
        << rejected;
    EXPECT_NE(rejected.find("Comment c2, on this passage:\n> Test it\n\nwith pytest,\nnot "
                            "unittest\n"),
              std::string::npos)
        << rejected;
    EXPECT_NE(rejected.find("`addresses`"), std::string::npos) << rejected;
    std::string approved = approved_plan_result("Approved.", false, "", {true, "", comments});
    EXPECT_NE(approved.find("approved the plan with comments"), std::string::npos);
    EXPECT_NE(approved.find("> 2. By hand\n\nuse argparse here"), std::string::npos);
    std::string section = review_section({false, "tighter", comments});
    EXPECT_EQ(section.rfind("## Review\n\nChanges requested.\n\nFeedback: tighter\n", 0), 0u)
        << section;
    EXPECT_NE(section.find("**Lines 3-4 (c1)**\n\n> 1. Parse flags\n> 2. By hand\n\nuse argparse"),
              std::string::npos)
        << section;
}

TEST(PlanReview, ARejectionWithoutNewCommentsStillNamesTheOpenOnesAndUnknownAddresses) {
    PlanReview review{false, "", {}, {filed("c3", {"Step 2", {}, {}, "why?"})}, {"c9"}};
    std::string note = plan_rejection_note(review);
    EXPECT_NE(note.find("Comments still open from before:\n\nComment c3, on this passage"),
              std::string::npos)
        << note;
    EXPECT_NE(note.find("named comments it does not have: c9."), std::string::npos) << note;
    review.approved = true;
    std::string approved = approved_plan_result("Approved.", false, "", review);
    EXPECT_NE(approved.find("with 1 comment still open"), std::string::npos) << approved;
    EXPECT_NE(approved.find("c9"), std::string::npos) << approved;
}

std::vector<std::string> step_texts(std::string_view plan) {
    std::vector<std::string> out;
    for (const PlanStep& s : plan_steps(plan)) {
        EXPECT_EQ(s.n, out.size() + 1);
        EXPECT_EQ(s.status, "pending");
        out.push_back(s.text);
    }
    return out;
}

// DESIGN §20: a plan's steps are its top-level list items.
TEST(PlanSteps, NumberedAndBulletedItemsAreSteps) {
    EXPECT_EQ(step_texts("1. One\n2. Two\n3. Three\n"), (Paths{"One", "Two", "Three"}));
    EXPECT_EQ(step_texts("- One\n* Two\n+ Three\n"), (Paths{"One", "Two", "Three"}));
    EXPECT_EQ(step_texts("1) Add `shout` to **greet.py**\n   over two lines\n"),
              (Paths{"Add shout to greet.py over two lines"}));
}

TEST(PlanSteps, NestedItemsBelongToTheirParent) {
    EXPECT_EQ(step_texts("1. Parser\n   - tokens\n   - tree\n2. Printer\n   1. lines\n"),
              (Paths{"Parser", "Printer"}));
    EXPECT_EQ(step_texts("- Loose item\n\n  With a second paragraph.\n\n- Next\n"),
              (Paths{"Loose item", "Next"}));
}

TEST(PlanSteps, ItemsInCodeBlocksAreNotSteps) {
    EXPECT_EQ(step_texts("1. Write it\n\n```\n1. not a step\n- nor this\n```\n\n2. Test it\n"),
              (Paths{"Write it", "Test it"}));
    EXPECT_EQ(step_texts("    - indented code\n\n- A step\n"), (Paths{"A step"}));
}

TEST(PlanSteps, HeadingsBetweenListsDoNotMatter) {
    EXPECT_EQ(step_texts("# Plan\n\nContext.\n\n## Code\n\n1. a.cpp\n2. b.cpp\n\n## Tests\n\n"
                         "1. test_a\n- check\n"),
              (Paths{"a.cpp", "b.cpp", "test_a", "check"}));
}

TEST(PlanSteps, APlanWithoutAListIsOneStep) {
    EXPECT_EQ(step_texts("# Rename the flag\n\nRename --loud to --shout everywhere.\n"),
              (Paths{"Rename the flag"}));
    EXPECT_EQ(step_texts("Just rename it."), (Paths{"Just rename it."}));
    EXPECT_EQ(step_texts(""), (Paths{"Carry out the plan"}));
    EXPECT_EQ(step_texts("> - quoted\n"), (Paths{"quoted"})) << "a quote's list is not the plan's";
}

TEST(PlanSteps, ALongItemIsClippedAndEmptyOnesLeftOut) {
    auto steps = plan_steps("- " + std::string(1000, 'x') + "\n-\n- b\n");
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_LE(steps[0].text.size(), max_step_text_bytes + 3);
    EXPECT_EQ(steps[1].text, "b");
    EXPECT_EQ(steps[1].n, 2u);
}

TEST(PlanSteps, TheFrontMattersProgressFitsOrIsRefused) {
    std::vector<PlanStep> steps = plan_steps("1. a\n2. b\n3. c\n");
    steps[1].status = "done";
    EXPECT_EQ(progress_field(steps), "pending done pending");
    std::vector<PlanStep> read = plan_steps("1. a\n2. b\n3. c\n");
    EXPECT_TRUE(read_progress_field("done  skipped in_progress", read));
    EXPECT_EQ(read[2].status, "in_progress");
    for (std::string_view garbage :
         {"done done", "done done done done", "done ok done", "", "[x] [ ] [x]"}) {
        std::vector<PlanStep> kept = plan_steps("1. a\n2. b\n3. c\n");
        EXPECT_FALSE(read_progress_field(garbage, kept)) << garbage;
        EXPECT_EQ(kept[0].status, "pending") << "unchanged";
    }
}

TEST(PlanSteps, ATrackSurvivesItsJsonAndRefusesAForgedOne) {
    PlanTrack t = track_plan(4, ".rio/plans/p.md", "1. a\n2. b\n");
    ASSERT_FALSE(set_step(t, 2, "done", std::string("ok")));
    touch(t, "other.txt");
    auto back = track_from_json(track_json(t));
    ASSERT_TRUE(back);
    EXPECT_EQ(back->steps[1].note, "ok");
    EXPECT_EQ(back->unplanned, (Paths{"other.txt"}));
    EXPECT_EQ(back->turn, 4u);
    nlohmann::json forged = track_json(t);
    forged["steps"][0]["status"] = "approved";
    EXPECT_FALSE(track_from_json(forged));
    EXPECT_FALSE(track_from_json(nlohmann::json::object()));
}

TEST(PlanSteps, DriftUsesTheReportsRule) {
    std::string plan = "1. Edit greet.py\n2. Tests under tests/\n";
    EXPECT_TRUE(plan_names(plan, "src/greet.py"));
    EXPECT_TRUE(plan_names(plan, "tests/test_greet.py"));
    EXPECT_FALSE(plan_names(plan, "setup.cfg"));
    PlanOutcome outcome = compare_with_plan(plan, {"src/greet.py", "setup.cfg"},
                                            [](const std::string&) { return false; });
    EXPECT_EQ(outcome.unplanned, (Paths{"setup.cfg"})) << "the same answer at the end";
}

// Issue 40: "`mod1.py` .. `mod5.py`" named five files; the report flagged three as unplanned.
TEST(PlanReport, ARangeOfNumberedFilesNamesEveryFileInIt) {
    Paths touched{"mod1.py", "mod2.py", "mod3.py", "mod4.py", "mod5.py"};
    auto none = [](const std::string&) { return false; };
    for (std::string plan : {"1. Rename the helper in `mod1.py` .. `mod5.py`.",
                             "1. Rename the helper in mod1.py..mod5.py", "1. mod1.py to mod5.py",
                             "1. Edit `mod1.py`\u2013`mod5.py`", "1. mod1.py through mod5.py"}) {
        PlanOutcome outcome = compare_with_plan(plan, touched, none);
        EXPECT_TRUE(outcome.unplanned.empty()) << plan << ": " << outcome.unplanned.size();
        EXPECT_TRUE(outcome.untouched.empty()) << plan;
    }
    EXPECT_EQ(path_words("f08.c .. f10.c"), (Paths{"f08.c", "f09.c", "f10.c"}))
        << "the width is kept";
    // Not a range: other words between, or ends that differ in more than a number.
    EXPECT_EQ(compare_with_plan("mod1.py and mod5.py", touched, none).unplanned,
              (Paths{"mod2.py", "mod3.py", "mod4.py"}));
    EXPECT_EQ(compare_with_plan("a1.py .. b5.py", {"a3.py"}, none).unplanned, (Paths{"a3.py"}));
    EXPECT_EQ(path_words("x1.py .. x999999999.py").size(), 2u) << "a huge range is not expanded";
}

} // namespace
} // namespace rio
