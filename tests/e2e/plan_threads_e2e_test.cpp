// Threaded plan review (issue 44) through the real rio-core with the script provider and a
// second client on the core's socket: a rejection's comment gets an id, a revision answers it
// with a reply, a person replies and resolves through plans.comment.*, every client hears of
// it, and an approval with a comment still open records how many.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <gtest/gtest.h>

namespace rio::test {
namespace plan_threads { // one unity file with plan_review_e2e_test's helpers

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string plan_result_sent(AgentSession& s, std::size_t call) {
    Json last = s.provider_calls().at(call)["conversation"].back();
    return last["results"][0]["content"];
}

const std::string revised_plan = "1. Add a --shout flag with argparse\n2. Test it\n";

Json revision_step() {
    return step({tool("present_plan",
                      {{"title", "Add a greeting flag"},
                       {"plan", revised_plan},
                       {"addresses", Json::array({{{"id", "c1"}, {"reply", "Uses argparse now"}},
                                                  {{"id", "c7"}, {"reply", "?"}}})}})});
}

TEST(PlanThreadsE2E, ACommentIsAnsweredByARevisionRepliedToResolvedAndCountedAtApproval) {
    auto s = AgentSession::listening(Json::array({plan_step(), text_step("I will revise it."),
                                                  revision_step(), text_step("Carrying it out.")}));
    LineClient other = s->connect();
    ASSERT_EQ(other.request("session.hello", {{"client", "second"}})["ok"], true);
    s->request("agent.mode.set", {{"mode", "plan"}});

    // A rejection with a comment: the comment is filed as c1, open, and the model reads its id.
    long turn = s->send("plan a shout flag");
    std::string first = s->wait("agent.propose")["path"];
    Json comment = {{"quote", "1. Add `--shout` to greet.py"}, {"line", 3}, {"text", "argparse?"}};
    ASSERT_EQ(s->request("agent.approve", {{"turn", turn},
                                           {"decision", "reject"},
                                           {"comments", Json::array({comment})}})["ok"],
              true);
    EXPECT_EQ(s->wait("agent.decided")["open_comments"], 0);
    s->wait("agent.done");
    std::string sent = plan_result_sent(*s, 1);
    EXPECT_TRUE(contains(sent, "Comment c1, on line 3 of the plan:\n> 1. Add `--shout` to "
                               "greet.py\n\nargparse?\n"))
        << sent;
    EXPECT_TRUE(contains(sent, "`addresses`")) << sent;
    Json filed = s->request("plans.get", {{"path", first}})["result"]["comments"];
    ASSERT_EQ(filed.size(), 1u) << filed.dump();
    EXPECT_EQ(filed[0]["id"], "c1");
    EXPECT_EQ(filed[0]["state"], "open");
    EXPECT_EQ(filed[0]["author"], "person");
    EXPECT_TRUE(std::filesystem::exists(s->project() /
                                        (first.substr(0, first.size() - 3) + ".comments.json")));
    Json heard = other.next_event("plans.comments")["params"];
    EXPECT_EQ(heard["path"], first) << "the second client hears of the filed comment";
    EXPECT_EQ(heard["comments"], filed);

    // The revision addresses c1 (answered, with the reply) and an id no comment has.
    turn = s->send("revise it");
    Json proposed = s->wait("agent.propose");
    std::string second = proposed["path"];
    EXPECT_EQ(proposed["revises"], first);
    ASSERT_EQ(proposed["comments"].size(), 1u) << proposed.dump();
    EXPECT_EQ(proposed["comments"][0]["state"], "answered");
    EXPECT_EQ(proposed["comments"][0]["replies"],
              Json::array({{{"author", "model"}, {"text", "Uses argparse now"}}}));
    EXPECT_EQ(proposed["comments"][0]["detached"], true) << "its passage is gone from the revision";
    EXPECT_EQ(proposed["unknown_addresses"], Json::array({"c7"}));
    std::string revision_file = read_bytes(s->project() / second);
    EXPECT_TRUE(contains(revision_file, "\n# Add a greeting flag\n\n" + revised_plan))
        << "the plan body is the model's, byte for byte: " << revision_file;
    EXPECT_EQ(s->request("plans.get", {{"path", second}})["result"]["comments"],
              proposed["comments"]);
    heard = other.next_event("plans.comments")["params"];
    EXPECT_EQ(heard["path"], second) << "carried to the revision";
    EXPECT_EQ(heard["comments"], proposed["comments"]);

    // The person comments, replies and resolves; the second client hears each change.
    Json added = s->request("plans.comment.add",
                            {{"path", second}, {"quote", "2. Test it"}, {"text", "with pytest"}});
    ASSERT_EQ(added["ok"], true) << added.dump();
    EXPECT_EQ(added["result"]["id"], "c2");
    heard = other.next_event("plans.comments")["params"];
    EXPECT_EQ(heard["path"], second);
    EXPECT_EQ(heard["comments"].size(), 2u);
    Json replied = s->request("plans.comment.reply",
                              {{"path", second}, {"id", "c1"}, {"text", "thanks \x1b[31mred\x07"}});
    ASSERT_EQ(replied["ok"], true) << replied.dump();
    EXPECT_EQ(replied["result"]["replies"][1]["text"], "thanks \x1b[31mred\x07")
        << "control characters are kept as text";
    EXPECT_EQ(other.next_event("plans.comments")["params"]["comments"][0]["replies"].size(), 2u);
    ASSERT_EQ(s->request("plans.comment.resolve", {{"path", second}, {"id", "c1"}})["ok"], true);
    EXPECT_EQ(other.next_event("plans.comments")["params"]["comments"][0]["state"], "resolved");

    // Unknown ids and paths: a clear error, nothing changed.
    std::string before =
        read_bytes(s->project() / (second.substr(0, second.size() - 3) + ".comments.json"));
    Json unknown =
        s->request("plans.comment.reply", {{"path", second}, {"id", "c9"}, {"text", "?"}});
    EXPECT_EQ(unknown["error"]["code"], "not_found");
    EXPECT_EQ(unknown["error"]["message"], "the plan has no comment c9 (plans.get lists them)");
    EXPECT_EQ(
        s->request("plans.comment.resolve", {{"path", second}, {"id", "c9"}})["error"]["code"],
        "not_found");
    Json nowhere = s->request("plans.comment.add",
                              {{"path", ".rio/plans/nope.md"}, {"quote", "q"}, {"text", "t"}});
    EXPECT_EQ(nowhere["error"]["code"], "not_found") << nowhere.dump();
    Json blank = s->request("plans.comment.add", {{"path", second}, {"quote", "q"}, {"text", " "}});
    EXPECT_EQ(blank["error"]["message"], "params.text is empty");
    EXPECT_EQ(read_bytes(s->project() / (second.substr(0, second.size() - 3) + ".comments.json")),
              before);

    // Approving with c2 still open records it, in the event and the file, and tells the model.
    ASSERT_EQ(s->request("agent.approve",
                         {{"turn", turn}, {"decision", "approve"}, {"policy", "review"}})["ok"],
              true);
    EXPECT_EQ(s->wait("agent.decided")["open_comments"], 1);
    s->wait("agent.done");
    EXPECT_TRUE(contains(read_bytes(s->project() / second), "open_comments: 1\n"));
    sent = plan_result_sent(*s, 3);
    EXPECT_TRUE(contains(sent, "with 1 comment still open")) << sent;
    EXPECT_TRUE(contains(sent, "Comment c2, on this passage:\n> 2. Test it\n\nwith pytest"))
        << sent;
    EXPECT_TRUE(contains(sent, "named comments it does not have: c7.")) << sent;
}

} // namespace plan_threads
} // namespace rio::test
