// client/plan_lookup against plan files as the core writes and reads them (core/agent/
// plan_file): which filed plan a present_plan call known only from the history presented.
#include "client/plan_lookup.hpp"
#include "core/agent/plan_file.hpp"

#include <gtest/gtest.h>

namespace rio::client {
namespace {

const WallTime t0 = std::chrono::system_clock::from_time_t(1795996800); // 2026-11-30T00:00:00Z

// plans.get's answer for a plan the core filed from `title` and `plan`, then `edited` to.
PlanFull filed(const std::string& title, const std::string& plan, const std::string& edited = {}) {
    PlanFileInfo info =
        parse_plan_file(render_plan_file(title, edited.empty() ? plan : edited, t0));
    PlanFull full;
    full.title = info.title;
    full.body = info.body;
    full.plan = info.plan;
    return full;
}

PlanInfo listed(const std::string& path, const std::string& title) {
    PlanInfo info;
    info.path = path;
    info.title = title;
    return info;
}

TEST(PlanLookup, CandidatesAreThePlansFiledUnderItsTitleNewestFirst) {
    PlansListResult plans{{listed(".rio/plans/3.md", "Add a flag"),
                           listed(".rio/plans/2.md", "Other"),
                           listed(".rio/plans/1.md", "Add a flag")}};
    PresentedPlan presented = presented_plan({{"title", "Add a flag"}, {"plan", "1. Do it\n"}});
    EXPECT_EQ(plan_candidates(plans, presented),
              (std::vector<std::string>{".rio/plans/3.md", ".rio/plans/1.md"}));
    EXPECT_TRUE(plan_candidates(plans, presented_plan({{"title", "Nothing"}})).empty());
    EXPECT_TRUE(plan_candidates(plans, presented_plan(Json::array())).empty()) << "no input";
}

TEST(PlanLookup, APlanWithItsOwnHeadingIsFiledUnderThatHeading) {
    const std::string plan = "# Shout, loudly\n\n1. Do it\n";
    PlanFull file = filed("Add a flag", plan);
    ASSERT_EQ(file.title, "Shout, loudly");
    PlansListResult plans{{listed(".rio/plans/1.md", file.title)}};
    PresentedPlan presented = presented_plan({{"title", "Add a flag"}, {"plan", plan}});
    EXPECT_EQ(plan_candidates(plans, presented), std::vector<std::string>{".rio/plans/1.md"});
    EXPECT_TRUE(holds_plan(file, presented));
}

TEST(PlanLookup, TheFiledPlanHoldsThePresentedTextUnderItsTitleAndAboveItsReview) {
    const std::string plan = "1. Give `greeting` a **shout** option\n2. Test it";
    PresentedPlan presented = presented_plan({{"title", "Add a flag"}, {"plan", plan}});
    PlanFull file = filed("Add a flag", plan);
    ASSERT_NE(file.plan, plan) << "the core puts the title above it";
    EXPECT_TRUE(holds_plan(file, presented));
    file.plan += "\n## Review\n\nRejected.\n";
    EXPECT_TRUE(holds_plan(file, presented));

    EXPECT_FALSE(holds_plan(filed("Add a flag", plan, "1. Something else\n"), presented))
        << "edited before the decision";
    EXPECT_FALSE(holds_plan(filed("Add a flag", "2. Test it\n"), presented))
        << "a part of it is not it";
    EXPECT_FALSE(holds_plan(file, presented_plan({{"title", "Add a flag"}, {"plan", " \n"}})));
}

} // namespace
} // namespace rio::client
