#include "core/agent/plan_file.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

const WallTime t0 = std::chrono::system_clock::from_time_t(1795996800); // 2026-11-30T00:00:00Z

TEST(PlanFile, SlugLowercasesJoinsRunsAndTrims) {
    EXPECT_EQ(plan_slug("Add a --verbose flag!"), "add-a-verbose-flag");
    EXPECT_EQ(plan_slug("  Über Größe  "), "uber-grosse") << "diacritics transliterated";
    EXPECT_EQ(plan_slug("Ünïcode café"), "unicode-cafe");
    EXPECT_EQ(plan_slug("Łódź → Kraków, œuvre"), "lodz-krakow-oeuvre");
    EXPECT_EQ(plan_slug("日本語"), "plan") << "other scripts are no letters of a slug";
    EXPECT_EQ(plan_slug("x\xC1\x81y"), "x-y") << "an overlong 'A' is no letter";
    EXPECT_EQ(plan_slug("***"), "plan");
    EXPECT_EQ(plan_slug(""), "plan");
    std::string slug = plan_slug(std::string(100, 'x') + " y");
    EXPECT_EQ(slug.size(), 48u);
    EXPECT_EQ(plan_slug(std::string(47, 'a') + " b"), std::string(47, 'a')) << "no trailing -";
}

// Issue 26, break L: a title holding NUL was filed and could never be read back.
TEST(PlanFile, TitlesAreOneLineWithoutControlCharacters) {
    EXPECT_EQ(plan_title(std::string("Evil") + '\0' + "title\x1b[2J\r\nline two"),
              "Evil title [2J line two");
    EXPECT_EQ(plan_title("  \t "), "Plan");
    EXPECT_EQ(plan_title("a\xC2\x9B\x7f b\xFF"), "a b");
    EXPECT_EQ(plan_title("Ünïcode café"), "Ünïcode café");
    EXPECT_EQ(plan_title(std::string(300, 'x')).size(), max_plan_title_chars);
    EXPECT_EQ(plan_body(std::string("1. a\0b\n", 7)), "1. ab\n");
}

TEST(PlanFile, PathsUseUtcSecondsAndNumberClashes) {
    EXPECT_EQ(plan_file_path(t0, "add-flag"), ".rio/plans/20261130-000000-add-flag.md");
    EXPECT_EQ(plan_file_path(t0, "add-flag", 2), ".rio/plans/20261130-000000-add-flag-2.md");
}

TEST(PlanFile, RenderLeadsWithTheTitleUnlessThePlanHasAHeading) {
    std::string file = render_plan_file("Add flag", "1. parse it", t0);
    EXPECT_EQ(file,
              "---\nstatus: presented\npresented: 2026-11-30T00:00:00.000Z\n---\n# Add flag\n\n"
              "1. parse it\n");
    std::string own = render_plan_file("Add flag", "# My plan\n\nsteps\n", t0);
    EXPECT_NE(own.find("---\n# My plan\n"), std::string::npos);
    EXPECT_EQ(own.find("# Add flag"), std::string::npos);
    // "## Steps" is no title: the plan keeps the one it was given (it lost it before).
    std::string sub = render_plan_file("Add flag", "## Steps\n\n1. parse it\n", t0);
    EXPECT_NE(sub.find("---\n# Add flag\n\n## Steps\n"), std::string::npos) << sub;
    EXPECT_EQ(parse_plan_file(sub).title, "Add flag");
}

TEST(PlanFile, AnUneditedFilesBodyIsThePlanFileBody) {
    for (auto [title, plan] : {std::pair{"Add a flag", "1. a\n2. b"},
                               std::pair{"T", "# Own heading\n\ntext\n"}, std::pair{"T", ""}})
        EXPECT_EQ(parse_plan_file(render_plan_file(title, plan, WallTime{})).plan,
                  plan_file_body(title, plan))
            << plan;
}

TEST(PlanFile, ParseReadsFrontMatterTitleAndBody) {
    PlanFileInfo info = parse_plan_file(render_plan_file("Add flag", "1. parse it", t0));
    EXPECT_EQ(info.status, "presented");
    EXPECT_EQ(info.presented, "2026-11-30T00:00:00.000Z");
    EXPECT_EQ(info.title, "Add flag");
    EXPECT_EQ(info.body, "# Add flag\n\n1. parse it\n");
    PlanFileInfo bare = parse_plan_file("# Just markdown\n");
    EXPECT_EQ(bare.status, "");
    EXPECT_EQ(bare.body, "# Just markdown\n");
}

TEST(PlanFile, StatusUpdatesKeepTheBodyByteForByte) {
    std::string file = render_plan_file("T", "body with ---\nlines\n", t0);
    std::string decided =
        set_plan_status(file, PlanStatus::approved, t0 + std::chrono::seconds(60), "auto");
    PlanFileInfo info = parse_plan_file(decided);
    EXPECT_EQ(info.status, "approved");
    EXPECT_EQ(info.decided, "2026-11-30T00:01:00Z");
    EXPECT_EQ(info.policy, "auto");
    EXPECT_EQ(info.presented, "2026-11-30T00:00:00.000Z");
    EXPECT_EQ(info.body, parse_plan_file(file).body);
    EXPECT_EQ(parse_plan_file(set_plan_status("# no front matter\n", PlanStatus::rejected, t0, ""))
                  .status,
              "rejected");
}

TEST(PlanFile, TimesSortWithinASecond) {
    WallTime later = t0 + std::chrono::milliseconds(250);
    EXPECT_EQ(iso_time(later, true), "2026-11-30T00:00:00.250Z");
    EXPECT_EQ(parse_iso_time("2026-11-30T00:00:00.250Z"), 1795996800250LL);
    EXPECT_EQ(parse_iso_time("2026-11-30T00:00:00Z"), 1795996800000LL);
    EXPECT_FALSE(parse_iso_time("yesterday").has_value());
}

TEST(PlanFile, ARevisionNamesThePlanItRevises) {
    std::string file = render_plan_file("T", "1. x\n", t0, ".rio/plans/a.md");
    EXPECT_NE(file.find("\nrevises: .rio/plans/a.md\n---\n"), std::string::npos) << file;
    std::string decided = set_plan_status(file, PlanStatus::approved, t0, "review");
    EXPECT_EQ(parse_plan_file(decided).revises, ".rio/plans/a.md") << "other fields are kept";
    EXPECT_EQ(parse_plan_file(render_plan_file("T", "1. x\n", t0)).revises, "");
}

TEST(PlanFile, AReviewIsAppendedAndKeptApartFromThePlan) {
    std::string file = render_plan_file("T", "1. x\n\n## Review\n\nmine\n", t0);
    EXPECT_EQ(parse_plan_file(file).review, "") << "a plan's own Review heading is the plan's";
    std::string reviewed = add_plan_review(file, "## Review\n\nChanges requested.\n", 1);
    PlanFileInfo info = parse_plan_file(reviewed);
    EXPECT_EQ(info.review, "## Review\n\nChanges requested.\n");
    EXPECT_EQ(info.plan, "# T\n\n1. x\n\n## Review\n\nmine\n");
    EXPECT_EQ(info.body, info.plan + "\n" + info.review);
}

TEST(PlanFile, TheOutcomeIsRecordedAsPathLists) {
    std::string file = set_plan_outcome(render_plan_file("T", "x", t0), {"a.py", "b c.md"}, {});
    EXPECT_NE(file.find("touched: [\"a.py\",\"b c.md\"]\nunplanned: []\n"), std::string::npos)
        << file;
    PlanFileInfo info = parse_plan_file(file);
    EXPECT_EQ(info.touched, (std::vector<std::string>{"a.py", "b c.md"}));
    EXPECT_EQ(info.unplanned, std::vector<std::string>{});
    EXPECT_FALSE(parse_plan_file(render_plan_file("T", "x", t0)).touched) << "not yet reported";
}

} // namespace
} // namespace rio
