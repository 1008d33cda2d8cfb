// Planned vs actual (core/agent/plan_report) and what a review says (core/agent/plan_review):
// which words of a plan are project paths, how touched files compare with them, comments
// checked field by field and quoted verbatim.
#include "core/agent/plan_lifecycle.hpp"
#include "core/agent/plan_report.hpp"
#include "core/agent/plan_review.hpp"

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

TEST(PlanReview, TheModelReadsEachPassageAndCommentVerbatim) {
    std::vector<PlanComment> comments{{"1. Parse flags\n2. By hand", 3, 4, "use argparse here"},
                                      {"Test it", {}, {}, "with pytest,\nnot unittest"}};
    std::string rejected = plan_rejection_note(PlanReview{false, "", comments});
    EXPECT_NE(rejected.find("requested changes"), std::string::npos);
    EXPECT_NE(rejected.find("Comment 1, on lines 3-4 of the plan:\n> 1. Parse flags\n"
                            "> 2. By hand\n\nuse argparse here\n"),
              std::string::npos)
        << rejected;
    EXPECT_NE(rejected.find("Comment 2, on this passage:\n> Test it\n\nwith pytest,\nnot "
                            "unittest\n"),
              std::string::npos)
        << rejected;
    std::string approved = approved_plan_result("Approved.", false, "", {true, "", comments});
    EXPECT_NE(approved.find("approved the plan with comments"), std::string::npos);
    EXPECT_NE(approved.find("> 2. By hand\n\nuse argparse here"), std::string::npos);
    std::string section = review_section({false, "tighter", comments});
    EXPECT_EQ(section.rfind("## Review\n\nChanges requested.\n\nFeedback: tighter\n", 0), 0u)
        << section;
    EXPECT_NE(section.find("**Lines 3-4**\n\n> 1. Parse flags\n> 2. By hand\n\nuse argparse"),
              std::string::npos)
        << section;
}

} // namespace
} // namespace rio
