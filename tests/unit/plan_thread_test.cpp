// A plan's review threads (issue 44): ids, answers carried to a revision, replies, resolves.
#include "agent_tools/plan_addresses.hpp"
#include "core/agent/plan_thread.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

CommentThreads two_comments() {
    CommentThreads threads;
    add_comment(threads, {"Parse flags by hand", 3, {}, "use argparse"}, CommentAuthor::person);
    add_comment(threads, {"Test it", {}, {}, "with pytest"}, CommentAuthor::person);
    return threads;
}

TEST(PlanThread, IdsFollowTheHighestSoARemovedOneIsNeverReused) {
    CommentThreads threads = two_comments();
    EXPECT_EQ(threads[0].id, "c1");
    EXPECT_EQ(threads[1].id, "c2");
    EXPECT_TRUE(threads[1].is(CommentState::open));
    threads.erase(threads.begin());
    EXPECT_EQ(add_comment(threads, {"q", {}, {}, "t"}, CommentAuthor::person).id, "c3");
    threads.push_back(ReviewComment{
        "c41", "q", {}, {}, "t", CommentAuthor::model, {}, CommentState::open, std::nullopt});
    EXPECT_EQ(add_comment(threads, {"q", {}, {}, "t"}, CommentAuthor::person).id, "c42");
}

TEST(PlanThread, ARevisionAnswersWhatItAddressesAndDetachesWhatItNoLongerQuotes) {
    CommentThreads threads = two_comments();
    ASSERT_TRUE(resolve_comment(threads, "c2"));
    add_comment(threads, {"Deploy\n  on Friday", {}, {}, "not Friday"}, CommentAuthor::person);
    CarriedComments carried =
        carry_comments(threads, {{"c1", "Uses argparse now"}, {"c2", "ok"}, {"c7", "?"}},
                       "# Plan\n\n1. Parse flags with argparse\n2. Test it\n3. Deploy on Friday\n");
    ASSERT_EQ(carried.threads.size(), 3u);
    const ReviewComment& c1 = carried.threads[0];
    EXPECT_TRUE(c1.is(CommentState::answered));
    ASSERT_EQ(c1.replies.size(), 1u);
    EXPECT_EQ(c1.replies[0].author, CommentAuthor::model);
    EXPECT_EQ(c1.replies[0].text, "Uses argparse now");
    EXPECT_EQ(c1.detached, true) << "\"Parse flags by hand\" is gone from the revision";
    EXPECT_TRUE(carried.threads[1].is(CommentState::resolved)) << "a resolved one stays so";
    EXPECT_FALSE(carried.threads[1].detached);
    EXPECT_TRUE(carried.threads[2].is(CommentState::open));
    EXPECT_FALSE(carried.threads[2].detached) << "re-wrapped, the passage is the same";
    EXPECT_EQ(carried.unknown, std::vector<std::string>{"c7"});
    CommentThreads painted;
    add_comment(painted, {"greet.py says Hello, world.", {}, {}, "?"}, CommentAuthor::person);
    EXPECT_FALSE(
        carry_comments(painted, {}, "`greet.py` says **Hello**,\nworld.\n").threads[0].detached)
        << "a passage quoted from the painted plan is found in its Markdown";
    EXPECT_EQ(open_comments(carried.threads).size(), 1u);
}

TEST(PlanThread, AReplyReopensAnAnsweredCommentAndAnUnknownIdIsNotFound) {
    CommentThreads threads = carry_comments(two_comments(), {{"c1", "done"}}, "").threads;
    auto replied = reply_to_comment(threads, "c1", "not quite: keep -v");
    ASSERT_TRUE(replied);
    EXPECT_TRUE(replied->is(CommentState::open));
    EXPECT_EQ(replied->replies.back().author, CommentAuthor::person);
    auto missing = reply_to_comment(threads, "c9", "x");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, ErrorCode::not_found);
    EXPECT_EQ(missing.error().message, "the plan has no comment c9 (plans.get lists them)");
    EXPECT_EQ(resolve_comment(threads, "nope").error().code, ErrorCode::not_found);
    EXPECT_EQ(comment_text_problem(" \n"), "text is empty");
    EXPECT_EQ(comment_text_problem("fine"), "");
}

TEST(PlanAddresses, ReadStrictlyWithThePlaceNamedAndTheReplyKeptToItsFirstLine) {
    using Json = nlohmann::json;
    EXPECT_TRUE(read_addresses(Json{{"title", "t"}})->empty());
    EXPECT_TRUE(read_addresses(Json{{"addresses", nullptr}})->empty());
    auto read = read_addresses(Json{
        {"addresses", {{{"id", "c1"}, {"reply", "  uses argparse\nand more"}}, {{"id", "c2"}}}}});
    ASSERT_TRUE(read) << read.error().message;
    ASSERT_EQ(read->size(), 2u);
    EXPECT_EQ((*read)[0].reply, "uses argparse");
    EXPECT_EQ((*read)[1].reply, "");
    auto problem = [](Json addresses) {
        auto r = read_addresses(Json{{"addresses", addresses}});
        return r ? std::string() : r.error().message;
    };
    EXPECT_EQ(problem("c1"), "addresses must be a list of {id, reply}");
    EXPECT_EQ(problem(Json::array({"c1"})), "addresses[0] must be an object {id, reply}");
    EXPECT_EQ(problem(Json::array({{{"id", 1}}})),
              "addresses[0].id must be a comment's id, like \"c1\"");
    EXPECT_EQ(problem(Json::array({{{"id", "c1"}, {"reply", 3}}})),
              "addresses[0].reply must be a string: one line saying how the plan answers it");
}

} // namespace
} // namespace rio
