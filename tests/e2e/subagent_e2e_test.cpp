// Subagents (issue 48 item 1, DESIGN §23) through the real rio-core: a task call starts a
// child agent in the same core that only investigates — its edits refused, its commands in
// the read-only sandbox — whose last message is the call's result; several at once against a
// fake Anthropic server that holds each request until all three have arrived (a barrier, not
// a timer), their usage under the parent's turn; Stop stops them; a definition's tools are a
// subset, its model and provider ignored; a subagent cannot start another.
#include "tests/support/agent_session.hpp"
#include "tests/support/fake_llm.hpp"
#include "tests/support/script_steps.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

Json task(const std::string& description, const std::string& prompt,
          const std::string& agent = "") {
    Json input{{"description", description}, {"prompt", prompt}};
    if (!agent.empty()) input["agent"] = agent;
    return tool("task", std::move(input));
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The agent.subagent events up to the one in `last` state.
std::vector<Json> subagent_events(AgentSession& s, const std::string& last) {
    std::vector<Json> seen;
    for (;;) {
        seen.push_back(s.wait("agent.subagent"));
        if (seen.back()["state"] == last) return seen;
    }
}

TEST(SubagentE2E, APlanModeSubagentThatTriesToWriteChangesNothingAndTheParentGoesOn) {
    AgentSession s(Json::array(
        {step({task("Look at greet", "Find the greeting and try to change it.")}),
         step({tool("edit_file",
                    {{"path", "greet.py"}, {"old_string", "Hello"}, {"new_string", "Bye"}}),
               tool("run_command", {{"argv", {"sh", "-c", "echo x > greet.py; touch marker"}}}),
               tool("create_file", {{"path", "new.txt"}, {"content", "x"}})}),
         text_step("The greeting is in greet.py line 2; I could not change it."),
         text_step("Done: the subagent found it.")}));
    write_bytes(s.project() / "greet.py", greet_py);
    s.trust_project();
    s.request("agent.mode.set", {{"mode", "plan"}});
    s.request("agent.autoaccept.set", {{"on", true}}); // not even with auto-accept
    const bool sandboxed = s.sandboxed();
    long turn = s.send("investigate");

    std::vector<Json> events = subagent_events(s, "done");
    ASSERT_GE(events.size(), 8u);
    EXPECT_EQ(events[0]["state"], "started");
    EXPECT_EQ(events[0]["task"], "Look at greet");
    EXPECT_EQ(events[0]["turn"], turn);
    std::vector<Json> results;
    for (const Json& e : events)
        if (e["state"] == "result") results.push_back(e);
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0]["tool"], "edit_file");
    EXPECT_FALSE(results[0]["ok"].get<bool>());
    EXPECT_TRUE(has(results[0]["text"], "not available to a subagent")) << results[0].dump();
    EXPECT_EQ(results[1]["tool"], "run_command");
    EXPECT_FALSE(results[1]["ok"].get<bool>()) << results[1].dump();
    if (sandboxed) { // it ran, read-only: the kernel refused its writes
        EXPECT_TRUE(has(results[1]["text"], "Permission denied")) << results[1].dump();
    }
    EXPECT_TRUE(has(results[2]["text"], "not available to a subagent"));
    EXPECT_EQ(events.back()["text"], "The greeting is in greet.py line 2; I could not change it.");

    Json answer = s.wait("agent.tool_result");
    EXPECT_EQ(answer["name"], "task");
    EXPECT_TRUE(answer["ok"].get<bool>());
    EXPECT_TRUE(has(answer["content"], "greet.py line 2"));
    s.wait("agent.done");
    EXPECT_EQ(read_bytes(s.project() / "greet.py"), greet_py);
    EXPECT_FALSE(fs::exists(s.project() / "marker"));
    EXPECT_FALSE(fs::exists(s.project() / "new.txt"));

    // The child's requests began from the task's prompt alone, with the parent's tool list
    // (the cached prefix); the parent's next request carries the child's answer.
    std::vector<Json> calls = s.provider_calls();
    ASSERT_EQ(calls.size(), 4u);
    EXPECT_EQ(calls[1]["conversation"].size(), 1u);
    EXPECT_TRUE(has(calls[1]["conversation"][0].dump(), "Find the greeting and try to change it."));
    EXPECT_EQ(calls[1]["tools"], calls[0]["tools"]);
    EXPECT_TRUE(has(calls[3]["conversation"].back().dump(), "greet.py line 2"));
    EXPECT_EQ(s.request("agent.status")["result"]["mode"], "plan");
}

TEST(SubagentE2E, ASubagentCannotStartAnotherAndADefinitionGrantsNothing) {
    auto s = AgentSession::prepared([](const AgentSession& s) {
        write_bytes(s.project() / ".rio/agents/finder.md",
                    "---\ndescription: finds things\ntools: read_file, edit_file, task\n"
                    "model: opus\n---\nAlways answer in one line.\n");
        write_bytes(s.project() / "greet.py", greet_py);
        return Json::array(
            {step({task("Find", "Find the greeting.", "finder")}),
             step({task("Deeper", "Go deeper."), tool("search", {{"pattern", "Hello"}})}),
             text_step("greet.py"), text_step("Done.")});
    });
    s->send("find it");
    std::vector<Json> events = subagent_events(*s, "done");
    EXPECT_EQ(events[0]["agent"], "finder");
    EXPECT_TRUE(has(events[0]["text"], "dropped: edit_file, task")) << events[0].dump();
    EXPECT_TRUE(has(events[0]["text"], "model not used")) << events[0].dump();
    std::vector<Json> results;
    for (const Json& e : events)
        if (e["state"] == "result") results.push_back(e);
    ASSERT_EQ(results.size(), 2u);
    EXPECT_TRUE(has(results[0]["text"], "cannot start another subagent")) << results[0].dump();
    // search is a read tool, but the definition named only read_file.
    EXPECT_TRUE(has(results[1]["text"], "not available to a subagent")) << results[1].dump();
    s->wait("agent.done");
    // The definition's text rode with the child's prompt.
    std::vector<Json> calls = s->provider_calls();
    ASSERT_GE(calls.size(), 2u);

    EXPECT_TRUE(has(calls[1].value("notes", ""), "Always answer in one line.")) << calls[1].dump();
    EXPECT_TRUE(has(calls[1].value("notes", ""), "You are a subagent")) << calls[1].dump();
}

TEST(SubagentE2E, StopStopsTheSubagentsAndLeavesTheConversationValid) {
    AgentSession s(Json::array({step({task("Slow", "Take your time.")}),
                                {{"text", "slow"}, {"delay_ms", 30000}},
                                text_step("after")}));
    long turn = s.send("go");
    EXPECT_EQ(s.wait("agent.subagent")["state"], "started");
    // The child's request is under way once the script logged it: a round trip shows it.
    for (int i = 0; i < 500 && s.provider_calls().size() < 2; ++i)
        s.request("agent.status");
    ASSERT_EQ(s.provider_calls().size(), 2u);
    EXPECT_EQ(s.request("agent.stop")["result"]["stopped"], Json::array({turn}));
    Json stopped = s.wait("agent.subagent");
    EXPECT_EQ(stopped["state"], "stopped");
    s.wait("agent.stopped");
    Json history = s.request("agent.history")["result"]["messages"];
    ASSERT_EQ(history.size(), 3u) << history.dump();
    EXPECT_EQ(history[2]["results"][0]["ok"], false);
    long next = s.send("again");
    EXPECT_EQ(s.wait("agent.done")["turn"], next);
}

TEST(SubagentE2E, ThreeSubagentsRunAtOnceAndTheirUsageCountsUnderTheParentsTurn) {
    Json barrier{{"name", "three"}, {"count", 3}, {"timeout_s", 30}};
    Json usage{{"input_tokens", 100}, {"output_tokens", 10}};
    auto child = [&](const std::string& text) {
        return Json{{"text", text}, {"barrier", barrier}, {"usage", usage}};
    };
    FakeLlm fake(Json::array(
        {{{"tools",
           {{{"name", "task"}, {"id", "t1"}, {"input", {{"description", "a"}, {"prompt", "A?"}}}},
            {{"name", "task"}, {"id", "t2"}, {"input", {{"description", "b"}, {"prompt", "B?"}}}},
            {{"name", "task"}, {"id", "t3"}, {"input", {{"description", "c"}, {"prompt", "C?"}}}}}},
          {"usage", usage}},
         child("found one"),
         child("found two"),
         child("found three"),
         {{"text", "All three answered."}, {"usage", usage}}}));
    auto s = AgentSession::with_provider(
        {"--provider", "anthropic"},
        {"ANTHROPIC_BASE_URL=" + fake.url(), "ANTHROPIC_API_KEY=sk-ant-test-subagents"});
    write_bytes(s->project() / ".claude/agents/finder.md",
                "---\ndescription: finds things\n---\nFind it.\n");
    // Only the user's config.json names who answers subagents: read as they start.
    write_bytes(s->config() / "config.json",
                R"({"subagents": {"at_once": 3, "provider": "anthropic", "model": "sub-model"}})");
    long turn = s->send("ask three");
    std::uint64_t input = 0;
    std::vector<Json> answers;
    for (const Json& e : s->client().events_until("agent.done")) {
        const std::string name = e["event"];
        ASSERT_NE(name, "agent.error") << e.dump();
        if (name == "agent.usage" && e["params"]["turn"] == turn)
            input += e["params"].value("input_tokens", 0);
        if (name == "agent.tool_result") answers.push_back(e["params"]);
    }
    ASSERT_EQ(answers.size(), 3u);
    std::set<std::string> texts;
    for (const Json& a : answers) {
        EXPECT_TRUE(a["ok"].get<bool>()) << a.dump(); // a barrier missed is a 500
        texts.insert(a["content"].get<std::string>());
    }
    EXPECT_EQ(texts, (std::set<std::string>{"found one", "found two", "found three"}));
    EXPECT_EQ(input, 500u) << "two parent requests and three subagents, 100 each";
    int met = 0;
    for (const Json& record : fake.log())
        if (record.value("event", "") == "barrier" && record["met"] == 3) ++met;
    EXPECT_EQ(met, 3);
    std::vector<std::string> models;
    for (const Json& request : fake.requests())
        models.push_back(request["body"].value("model", ""));
    ASSERT_EQ(models.size(), 5u);
    EXPECT_EQ(std::count(models.begin(), models.end(), "sub-model"), 3)
        << "the subagents' requests go to the model the user named for them";
    EXPECT_NE(models.front(), "sub-model");
    // The task tool names the definitions there are, for the model to pick one.
    std::set<std::string> task_descriptions;
    for (const Json& request : fake.requests())
        for (const Json& t : request["body"]["tools"])
            if (t["name"] == "task") task_descriptions.insert(t["description"]);
    ASSERT_EQ(task_descriptions.size(), 1u) << "one prefix for the parent and its subagents";
    const std::string task_description = *task_descriptions.begin();
    EXPECT_TRUE(has(task_description, "Subagent definitions to name in `agent`:\n- finder: finds "
                                      "things"))
        << task_description;
}

} // namespace
} // namespace rio::test
