// Plan review beyond approve / reject (DESIGN §13) through the real rio-core with the script
// provider: comments on passages reach the model verbatim, revisions name their predecessor,
// approving in a fresh context, planned vs actual, and a plan edited without its front matter.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <gtest/gtest.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

const std::string plan_text = "1. Add `--shout` to greet.py\n2. Test it\n";

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

const Json two_comments = Json::array(
    {{{"quote", "1. Add `--shout` to greet.py"}, {"line", 1}, {"text", "use argparse here"}},
     {{"quote", "1. Add `--shout` to greet.py\n2. Test it"},
      {"line", 1},
      {"end_line", 2},
      {"text", "and test it with pytest"}}});

// The content of the plan's tool result as the next provider call carried it.
std::string plan_result_sent(AgentSession& s, std::size_t call) {
    Json last = s.provider_calls().at(call)["conversation"].back();
    return last["results"][0]["content"];
}

TEST(PlanReviewE2E, CommentsWithRejectReachTheModelVerbatimAndTheFileGainsAReview) {
    AgentSession s(Json::array({plan_step(), text_step("I will revise it.")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("plan a shout flag");
    std::string path = s.wait("agent.propose")["path"];
    Json r = s.request("agent.approve", {{"turn", turn},
                                         {"decision", "reject"},
                                         {"feedback", "close, but"},
                                         {"comments", two_comments}});
    ASSERT_EQ(r["ok"], true) << r.dump();
    Json decided = s.wait("agent.decided");
    EXPECT_EQ(decided["comments"], two_comments) << "other clients see the comments too";
    s.wait("agent.done");
    std::string sent = plan_result_sent(s, 1);
    EXPECT_TRUE(
        contains(sent, "The user requested changes to the plan. Their feedback: close, but"))
        << sent;
    EXPECT_TRUE(contains(sent, "on line 1 of the plan:\n> 1. Add `--shout` to greet.py\n\n"
                               "use argparse here\n"))
        << sent;
    EXPECT_TRUE(contains(sent, "on lines 1-2 of the plan:\n> 1. Add `--shout` to greet.py\n"
                               "> 2. Test it\n\nand test it with pytest\n"))
        << sent;
    std::string file = read_bytes(s.project() / path);
    EXPECT_TRUE(contains(file, "status: rejected\n")) << file;
    EXPECT_TRUE(contains(file, "comments: 2\n")) << file;
    EXPECT_TRUE(contains(
        file, "2. Test it\n\n## Review\n\nChanges requested.\n\nFeedback: close, but\n"
              "\n**Line 1 (c1)**\n\n> 1. Add `--shout` to greet.py\n\nuse argparse here\n"))
        << file;
    Json got = s.request("plans.get", {{"path", path}})["result"];
    EXPECT_EQ(got["plan"], "# Add a greeting flag\n\n" + plan_text);
    EXPECT_TRUE(contains(got["review"], "and test it with pytest")) << got.dump();
}

TEST(PlanReviewE2E, CommentsWithApproveAreNotesTheModelReadsVerbatim) {
    AgentSession s(Json::array({plan_step(), text_step("Carrying it out.")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("plan a shout flag");
    std::string path = s.wait("agent.propose")["path"];
    ASSERT_EQ(s.request("agent.approve", {{"turn", turn},
                                          {"decision", "approve"},
                                          {"policy", "review"},
                                          {"comments", two_comments}})["ok"],
              true);
    s.wait("agent.done");
    std::string sent = plan_result_sent(s, 1);
    EXPECT_TRUE(contains(sent, "The user approved the plan.")) << sent;
    EXPECT_TRUE(contains(sent, "approved the plan with comments on these passages")) << sent;
    EXPECT_TRUE(contains(sent, "> 1. Add `--shout` to greet.py\n\nuse argparse here\n")) << sent;
    EXPECT_TRUE(contains(sent, "> 2. Test it\n\nand test it with pytest\n")) << sent;
    std::string file = read_bytes(s.project() / path);
    EXPECT_TRUE(contains(file, "status: approved\n"));
    EXPECT_TRUE(contains(file, "## Review\n\nApproved with notes.\n")) << file;
}

TEST(PlanReviewE2E, BadCommentsAreRefusedByNameAndNothingChanges) {
    AgentSession s(Json::array({plan_step(), text_step("ok")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("plan a shout flag");
    std::string path = s.wait("agent.propose")["path"];
    std::string before = read_bytes(s.project() / path);
    auto refused = [&](Json comments, const std::string& decision = "reject") {
        Json r = s.request("agent.approve",
                           {{"turn", turn}, {"decision", decision}, {"comments", comments}});
        EXPECT_EQ(r["ok"], false) << comments.dump();
        EXPECT_EQ(r["error"]["code"], "bad_request");
        return r["error"]["message"].get<std::string>();
    };
    EXPECT_TRUE(contains(refused("use argparse"), "params.comments: expected an array"));
    EXPECT_TRUE(
        contains(refused(Json::array({"use argparse"})), "params.comments[0]: expected an object"));
    EXPECT_TRUE(contains(refused(Json::array({{{"quote", "2. Test it"}}})),
                         "params.comments[0].text is required"));
    EXPECT_TRUE(contains(refused(Json::array({{{"text", "why"}}}), "approve"),
                         "params.comments[0].quote is required"));
    EXPECT_TRUE(contains(refused(Json::array({{{"quote", "q"}, {"text", "t"}, {"line", "3"}}})),
                         "params.comments[0].line: expected a non-negative integer"));
    EXPECT_TRUE(contains(refused(Json::array({{{"quote", "q"}, {"text", 7}}})),
                         "params.comments[0].text: expected a string"));
    EXPECT_EQ(
        refused(Json::array({{{"quote", "q"}, {"text", "t"}}, {{"quote", " "}, {"text", "t"}}})),
        "params.comments[1].quote is empty: quote the passage the comment is on");
    Json fresh_reject =
        s.request("agent.approve", {{"turn", turn}, {"decision", "reject"}, {"fresh", true}});
    EXPECT_EQ(fresh_reject["error"]["code"], "bad_request") << fresh_reject.dump();
    Json status = s.request("agent.status")["result"];
    EXPECT_EQ(status["pending"]["kind"], "plan") << "still waiting for a decision";
    EXPECT_EQ(read_bytes(s.project() / path), before) << "the file is untouched";
    EXPECT_EQ(s.provider_calls().size(), 1u) << "the model was told nothing";
    EXPECT_EQ(s.request("agent.approve", {{"turn", turn}, {"decision", "reject"}})["ok"], true);
}

TEST(PlanReviewE2E, CommentsAndAFreshContextAreForPlansOnly) {
    AgentSession s(Json::array(
        {step({tool("edit_file",
                    {{"path", "greet.py"}, {"old_string", "Hello"}, {"new_string", "Hi"}})}),
         text_step("ok")}));
    write_bytes(s.project() / "greet.py", greet_py);
    long turn = s.send("change it");
    EXPECT_EQ(s.wait("agent.propose")["kind"], "edit");
    Json commented = s.request("agent.approve",
                               {{"turn", turn},
                                {"decision", "reject"},
                                {"comments", Json::array({{{"quote", "Hello"}, {"text", "no"}}})}});
    EXPECT_EQ(commented["error"]["message"],
              "params.comments: only a plan takes comments, not a proposed edit");
    Json fresh =
        s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"fresh", true}});
    EXPECT_EQ(fresh["error"]["code"], "bad_request");
    EXPECT_EQ(read_bytes(s.project() / "greet.py"), greet_py);
    EXPECT_EQ(s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}})["ok"], true);
    s.wait("agent.done");
}

TEST(PlanReviewE2E, ARevisionNamesThePlanItRevisesInTheEventAndItsFile) {
    AgentSession s(
        Json::array({plan_step(),
                     plan_step("Add a greeting flag, v2", "1. Add `--shout` with argparse\n"
                                                          "2. Test it\n"),
                     text_step("ok"), plan_step("After reset")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("plan a shout flag");
    Json first = s.wait("agent.propose");
    EXPECT_FALSE(first.contains("revises")) << first.dump();
    s.request("agent.approve", {{"turn", turn}, {"decision", "reject"}, {"feedback", "argparse"}});
    Json second = s.wait("agent.propose");
    EXPECT_EQ(second["revises"], first["path"]);
    std::string path = second["path"];
    EXPECT_TRUE(contains(read_bytes(s.project() / path),
                         "revises: " + first["path"].get<std::string>() + "\n"));
    EXPECT_EQ(s.request("plans.get", {{"path", path}})["result"]["revises"], first["path"]);
    Json listed = s.request("plans.list")["result"]["plans"];
    ASSERT_EQ(listed.size(), 2u);
    EXPECT_EQ(listed[0]["revises"], first["path"]);
    EXPECT_FALSE(listed[1].contains("revises"));
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    s.wait("agent.done");

    s.request("agent.reset");
    s.request("agent.mode.set", {{"mode", "plan"}});
    s.send("something else");
    Json after_reset = s.wait("agent.propose");
    EXPECT_FALSE(after_reset.contains("revises")) << "a new conversation starts afresh";
}

TEST(PlanReviewE2E, FreshApprovalContinuesWithExactlyTheRequestAndThePlan) {
    AgentSession s(Json::array({step({tool("read_file", {{"path", "greet.py"}})}, "Looking."),
                                plan_step(), text_step("Implementing it now.")}));
    write_bytes(s.project() / "greet.py", greet_py);
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("add a shout flag");
    std::string path = s.wait("agent.propose")["path"];
    ASSERT_EQ(
        s.request(
            "agent.approve",
            {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}, {"fresh", true}})["ok"],
        true);
    EXPECT_EQ(s.wait("agent.decided")["fresh"], true);
    Json fresh = s.wait("agent.fresh");
    EXPECT_EQ(fresh["turn"], turn);
    EXPECT_EQ(fresh["path"], path);
    EXPECT_EQ(s.wait("agent.done")["turn"], turn) << "the same turn goes on";

    auto calls = s.provider_calls();
    ASSERT_EQ(calls.size(), 3u);
    Json conversation = calls[2]["conversation"];
    ASSERT_EQ(conversation.size(), 1u) << conversation.dump(1);
    EXPECT_EQ(conversation[0]["role"], "user");
    EXPECT_FALSE(conversation[0].contains("results")) << "no earlier tool results";
    std::string seed = conversation[0]["text"];
    EXPECT_EQ(seed, fresh["text"]);
    EXPECT_EQ(seed.rfind("add a shout flag\n\n", 0), 0u) << seed;
    EXPECT_TRUE(contains(seed, "# Add a greeting flag\n\n" + plan_text)) << seed;
    EXPECT_TRUE(contains(seed, "Carry out the plan")) << seed;
    EXPECT_FALSE(contains(seed, "def greeting")) << "what read_file returned is gone";
    EXPECT_FALSE(contains(seed, "Looking.")) << "so is what the model said";
    EXPECT_TRUE(contains(read_bytes(s.project() / path), "status: approved\n"));
    Json history = s.request("agent.history")["result"]["messages"];
    ASSERT_EQ(history.size(), 2u) << history.dump(1);
    EXPECT_EQ(history[0]["text"], seed);
    EXPECT_EQ(history[1]["text"], "Implementing it now.");
    EXPECT_EQ(s.request("agent.status")["result"]["mode"], "build");
    EXPECT_EQ(s.tools_of_call(2).size(), 10u) << "the fresh conversation may edit";
}

TEST(PlanReviewE2E, ThePlansReportNamesUnplannedAndUntouchedFiles) {
    AgentSession s(Json::array(
        {plan_step("Shout", "1. Edit greet.py\n2. Mention it in README.md\n"),
         step({tool("edit_file",
                    {{"path", "greet.py"}, {"old_string", "Hello"}, {"new_string", "HELLO"}}),
               tool("create_file", {{"path", "notes/todo.txt"}, {"content", "later\n"}})}),
         text_step("Done.")}));
    write_bytes(s.project() / "greet.py", greet_py);
    write_bytes(s.project() / "README.md", "# greet_py\n");
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("shout");
    std::string path = s.wait("agent.propose")["path"];
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    auto events = s.client().events_until("agent.done");
    std::size_t report_at = 0, last_result = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (events[i]["event"] == "plans.report") report_at = i;
        if (events[i]["event"] == "agent.tool_result") last_result = i;
    }
    EXPECT_GT(report_at, last_result) << "reported as the turn ends, before agent.done";
    Json report = events[report_at]["params"];
    EXPECT_EQ(report["turn"], turn);
    EXPECT_EQ(report["path"], path);
    EXPECT_EQ(report["touched"], Json::array({"greet.py", "notes/todo.txt"}));
    EXPECT_EQ(report["unplanned"], Json::array({"notes/todo.txt"}));
    EXPECT_EQ(report["untouched"], Json::array({"README.md"}));
    std::string file = read_bytes(s.project() / path);
    EXPECT_TRUE(contains(file, "touched: [\"greet.py\",\"notes/todo.txt\"]\n")) << file;
    EXPECT_TRUE(contains(file, "unplanned: [\"notes/todo.txt\"]\n")) << file;
    Json got = s.request("plans.get", {{"path", path}})["result"];
    EXPECT_EQ(got["unplanned"], Json::array({"notes/todo.txt"}));

    // A turn that carried out no plan reports nothing: a request after its end is the
    // barrier (the report would have gone out with agent.done).
    s.send("thanks");
    auto next = s.client().events_until("agent.done");
    s.request("agent.status");
    for (const Json& e : s.client().drain(0ms))
        next.push_back(e);
    for (const Json& e : next)
        EXPECT_NE(e["event"], "plans.report") << e.dump();
}

TEST(PlanReviewE2E, APlanBufferHoldsTheBodyAndSavingItKeepsTheFrontMatter) {
    AgentSession s(Json::array({plan_step(), text_step("ok")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("plan a shout flag");
    std::string path = s.wait("agent.propose")["path"];
    Json opened = s.request("buffer.open", {{"path", path}})["result"];
    std::string body = "# Add a greeting flag\n\n" + plan_text;
    EXPECT_EQ(opened["text"], body) << "no front matter in the buffer";
    std::string edited = body + "3. Update the man page\n";
    ASSERT_EQ(s.request("buffer.replace", {{"path", path}, {"text", edited}})["ok"], true);
    s.client().drain(0ms); // the plans.changed of filing it
    ASSERT_EQ(s.request("buffer.save", {{"path", path}})["ok"], true);
    Json changed = s.wait("plans.changed");
    EXPECT_EQ(changed["path"], path) << "what the plan view shows is news";
    std::string file = read_bytes(s.project() / path);
    EXPECT_EQ(file.rfind("---\nstatus: presented\npresented: ", 0), 0u) << file;
    EXPECT_TRUE(contains(file, "---\n" + edited)) << file;
    EXPECT_EQ(s.request("plans.get", {{"path", path}})["result"]["body"], edited);

    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    std::string content = s.wait("agent.tool_result")["content"];
    EXPECT_TRUE(contains(content, "3. Update the man page")) << "the edit is what was approved";
    s.wait("agent.done");
    // The decision changed the front matter, not the buffer; the turn's end added the receipt.
    std::string text = s.request("buffer.text", {{"path", path}})["result"]["text"];
    EXPECT_EQ(text.substr(0, edited.size()), edited) << text;
    EXPECT_TRUE(contains(text, "\n## Receipt\n")) << text;
    EXPECT_TRUE(contains(read_bytes(s.project() / path), "status: approved\n"));
}

} // namespace
} // namespace rio::test
