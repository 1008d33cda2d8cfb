// The network providers through the real rio-core against the fake LLM server on loopback:
// a whole plan-mode session per wire format, what went over the wire, and one test per
// fault (issue 4).
#include "tests/support/agent_session.hpp"
#include "tests/support/fake_llm.hpp"
#include "tests/support/replies.hpp"
#include "tests/support/script_steps.hpp"

#include <algorithm>
#include <csignal>
#include <gtest/gtest.h>
#include <iostream>
#include <sys/stat.h>
#include <thread>

namespace rio::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const std::string key = "sk-test-0123456789";

Json call_with_id(const std::string& id, const std::string& name, Json input) {
    return {{"id", id}, {"name", name}, {"input", std::move(input)}};
}

// A plan-mode session's four answers: read greet.py, present a plan, edit as planned, done.
Json read_plan_edit_done() {
    return Json::array(
        {{{"text", "Let me read it."},
          {"tools", {call_with_id("t1", "read_file", {{"path", "greet.py"}})}}},
         {{"tools",
           {call_with_id("t2", "present_plan", {{"title", "Say hi"}, {"plan", "1. Hello → Hi"}})}}},
         {{"tools",
           {call_with_id("t3", "edit_file",
                         {{"path", "greet.py"}, {"old_string", "Hello"}, {"new_string", "Hi"}})}}},
         {{"text", "Done."}}});
}

class ProviderE2E : public ::testing::TestWithParam<std::string> {
protected:
    std::string provider() const { return GetParam(); }
    bool anthropic() const { return provider() == "anthropic"; }

    // rio-core on this provider, pointed at the fake server, with a key.
    std::unique_ptr<AgentSession> session(const FakeLlm& fake, bool with_key = true) {
        std::string prefix = anthropic() ? "ANTHROPIC" : "OPENAI";
        std::string base = anthropic() ? fake.url() : fake.url() + "/v1";
        std::vector<std::string> env{prefix + "_BASE_URL=" + base};
        if (with_key) env.push_back(prefix + "_API_KEY=" + key);
        auto s = AgentSession::with_provider({"--provider", provider()}, env);
        write_bytes(s->project() / "greet.py", greet_py);
        return s;
    }

    // The names of the tools a request offered, in the provider's own shape.
    std::vector<std::string> offered(const Json& request) {
        std::vector<std::string> names;
        for (const Json& t : request["body"]["tools"])
            names.push_back(anthropic() ? t["name"] : t["function"]["name"]);
        return names;
    }

    std::string system_of(const Json& request) {
        if (anthropic()) {
            const Json& system = request["body"]["system"];
            return system.is_array() ? system[0]["text"].get<std::string>() : "";
        }
        const Json& first = request["body"]["messages"][0];
        return first["role"] == "system" ? first["content"].get<std::string>() : "";
    }

    // The tool results the request carries back, as (call id, content) pairs.
    std::vector<std::pair<std::string, std::string>> results(const Json& request) {
        std::vector<std::pair<std::string, std::string>> out;
        for (const Json& m : request["body"]["messages"]) {
            if (anthropic() && m["role"] == "user" && m["content"].is_array())
                for (const Json& block : m["content"])
                    if (block["type"] == "tool_result") {
                        const Json& c = block["content"];
                        out.emplace_back(block["tool_use_id"],
                                         c.is_string() ? c.get<std::string>()
                                                       : c[0]["text"].get<std::string>());
                    }
            if (!anthropic() && m["role"] == "tool")
                out.emplace_back(m["tool_call_id"], m["content"]);
        }
        return out;
    }

    void expect_next_turn_works(AgentSession& s) {
        s.send("are you there?");
        Json message = s.wait("agent.message");
        EXPECT_FALSE(message["text"].get<std::string>().empty());
        EXPECT_EQ(s.wait("agent.done")["stop_reason"], "end_turn");
    }

    // A fault turn: its agent.error code, after which the next turn must work.
    std::string error_code_of_turn(AgentSession& s) {
        s.send("go");
        Json error = s.wait("agent.error");
        EXPECT_EQ(s.wait("agent.done")["stop_reason"], "error");
        return error["code"];
    }
};

INSTANTIATE_TEST_SUITE_P(Wire, ProviderE2E, ::testing::Values("anthropic", "openai"),
                         [](const auto& info) { return info.param; });

TEST_P(ProviderE2E, APlanModeSessionOverTheWire) {
    FakeLlm fake(read_plan_edit_done());
    auto s = session(fake);
    s->request("agent.mode.set", {{"mode", "plan"}});
    long turn = s->send("make it friendlier");
    Json plan = s->wait("agent.propose");
    EXPECT_EQ(plan["kind"], "plan");
    EXPECT_EQ(plan["title"], "Say hi");
    s->request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    EXPECT_EQ(s->wait("agent.done")["stop_reason"], "end_turn");
    EXPECT_EQ(read_bytes(s->project() / "greet.py"),
              "def greeting(name):\n    return f\"Hi, {name}!\"\n");

    auto requests = fake.requests();
    ASSERT_EQ(requests.size(), 4u);
    // Decision 0053: the same tools and system prompt in both modes, so approving the plan
    // keeps the cached prefix; plan mode is said in the message that began it.
    EXPECT_EQ(offered(requests[0]).size(), 10u);
    EXPECT_EQ(offered(requests[0]), offered(requests[2]));
    EXPECT_EQ(system_of(requests[0]), system_of(requests[2]));
    EXPECT_EQ(system_of(requests[0]).find("# Plan mode"), std::string::npos);
    EXPECT_NE(requests[0]["body"]["messages"].dump().find("# Plan mode"), std::string::npos)
        << "the plan layer rides in the first user message";
    auto first_results = results(requests[1]);
    ASSERT_EQ(first_results.size(), 1u);
    EXPECT_EQ(first_results[0].first, "t1") << "the result answers the provider's own call id";
    EXPECT_NE(first_results[0].second.find("return f\"Hello, {name}!\""), std::string::npos);
    auto approval = results(requests[2]);
    ASSERT_EQ(approval.size(), 2u);
    EXPECT_EQ(approval[1].first, "t2");
    EXPECT_NE(approval[1].second.find("approved"), std::string::npos);
    for (const Json& r : requests) {
        EXPECT_EQ(r["body"]["stream"], true);
        if (anthropic()) {
            EXPECT_EQ(r["headers"]["x-api-key"], key);
            EXPECT_TRUE(r["headers"].contains("anthropic-version"));
            EXPECT_EQ(r["path"], "/v1/messages");
        } else {
            EXPECT_EQ(r["headers"]["authorization"], "Bearer " + key);
            EXPECT_EQ(r["path"], "/v1/chat/completions");
        }
    }
}

// DESIGN §20: a plan model answers while planning; at approval the builder takes over. The
// wire shows two models, and agent.status, agent.usage, agent.history and the session file
// say which answered.
TEST_P(ProviderE2E, APlanModelPlansAndTheBuilderTakesOverAtApproval) {
    FakeLlm fake(read_plan_edit_done());
    auto s = session(fake);
    s->request("agent.options.set", {{"name", "model"}, {"value", "builder-1"}});
    Json set =
        s->request("agent.plan_model.set", {{"provider", provider()}, {"model", "planner-1"}});
    ASSERT_EQ(set["ok"], true) << set.dump();
    EXPECT_EQ(set["result"]["plan_model"],
              Json({{"provider", provider()}, {"model", "planner-1"}}));
    Json status = s->request("agent.status")["result"];
    EXPECT_EQ(status["model"], "builder-1");
    EXPECT_EQ(status["plan_model"]["model"], "planner-1");

    s->request("agent.mode.set", {{"mode", "plan"}});
    long turn = s->send("make it friendlier");
    auto events = s->client().events_until("agent.propose");
    s->request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    for (Json& e : s->client().events_until("agent.done"))
        events.push_back(std::move(e));

    std::vector<std::string> wire;
    for (const Json& r : fake.requests())
        wire.push_back(r["body"]["model"]);
    EXPECT_EQ(wire, (std::vector<std::string>{"planner-1", "planner-1", "builder-1", "builder-1"}));
    std::vector<std::string> usage;
    for (const Json& e : events)
        if (e["event"] == "agent.usage") usage.push_back(e["params"]["model"]);
    EXPECT_EQ(usage,
              (std::vector<std::string>{"planner-1", "planner-1", "builder-1", "builder-1"}));
    std::vector<std::string> answered;
    Json history = s->request("agent.history");
    for (const Json& m : history["result"]["messages"])
        if (m["role"] == "assistant") answered.push_back(m.value("model", ""));
    EXPECT_EQ(answered,
              (std::vector<std::string>{"planner-1", "planner-1", "builder-1", "builder-1"}))
        << history.dump().substr(0, 2000);
    std::string recorded;
    for (const auto& entry : fs::recursive_directory_iterator(s->home() / "state/rio/sessions"))
        if (entry.path().extension() == ".jsonl") recorded += read_bytes(entry.path());
    EXPECT_NE(recorded.find("\"model\":\"planner-1\""), std::string::npos);
    EXPECT_NE(recorded.find("\"model\":\"builder-1\""), std::string::npos);

    // Cleared, the builder plans too; a local provider cannot plan.
    EXPECT_FALSE(s->request("agent.plan_model.set")["result"].contains("plan_model"));
    Json echo = s->request("agent.plan_model.set", {{"provider", "echo"}});
    EXPECT_EQ(code_of(echo), "bad_request");
    EXPECT_NE(echo["error"]["message"].get<std::string>().find("network provider"),
              std::string::npos);
    EXPECT_FALSE(s->request("agent.status")["result"].contains("plan_model"));
}

TEST_P(ProviderE2E, ThinkingAndSeveralToolCallsInOneReply) {
    FakeLlm fake(Json::array({{{"thinking", "I should list and read."},
                               {"tools",
                                {call_with_id("a", "list_dir", {{"path", "."}}),
                                 call_with_id("b", "read_file", {{"path", "greet.py"}})}}},
                              {{"text", "Seen both."}}}));
    auto s = session(fake);
    s->send("look");
    EXPECT_EQ(s->wait("agent.thinking")["text"].get<std::string>().substr(0, 1), "I");
    Json first = s->wait("agent.tool_result"), second = s->wait("agent.tool_result");
    EXPECT_EQ(first["name"], "list_dir");
    EXPECT_EQ(second["name"], "read_file");
    EXPECT_EQ(s->wait("agent.done")["stop_reason"], "end_turn");
    auto requests = fake.requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(results(requests[1]).size(), 2u);
    if (anthropic()) { // the signed thinking block goes back unchanged before the tool_use
        const Json& assistant = requests[1]["body"]["messages"][1];
        EXPECT_EQ(assistant["content"][0]["type"], "thinking");
        EXPECT_FALSE(assistant["content"][0]["signature"].get<std::string>().empty());
    }
}

TEST_P(ProviderE2E, ARateLimitIsRetriedAfterRetryAfter) {
    FakeLlm fake(Json::array({{{"status", 429}, {"error", "slow down"}, {"retry_after", 1}},
                              {{"text", "Hello after waiting."}}}));
    auto s = session(fake);
    auto start = Clock::now();
    s->send("hi");
    EXPECT_EQ(s->wait("agent.message")["text"], "Hello after waiting.");
    EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(900)) << "retry-after was honoured";
    EXPECT_EQ(fake.requests().size(), 2u);
}

TEST_P(ProviderE2E, RateLimitedThriceEndsWithRateLimit) {
    Json limited{{"status", 429}, {"error", "slow down"}, {"retry_after", 0}};
    FakeLlm fake(Json::array({limited, limited, limited, {{"text", "ok"}}}));
    auto s = session(fake);
    EXPECT_EQ(error_code_of_turn(*s), "rate_limit");
    EXPECT_EQ(fake.requests().size(), 3u);
    expect_next_turn_works(*s);
}

TEST_P(ProviderE2E, AServerErrorIsRetriedThenReported) {
    Json failing{{"status", 500}, {"error", "internal trouble"}};
    FakeLlm fake(Json::array({failing, failing, failing, {{"text", "ok"}}}));
    auto s = session(fake);
    EXPECT_EQ(error_code_of_turn(*s), "server");
    EXPECT_EQ(fake.requests().size(), 3u);
    expect_next_turn_works(*s);
}

TEST_P(ProviderE2E, AnAuthFailureIsReportedWithoutRetry) {
    FakeLlm fake(
        Json::array({{{"status", 401}, {"error", "invalid x-api-key"}}, {{"text", "ok"}}}));
    auto s = session(fake);
    s->send("hi");
    Json error = s->wait("agent.error");
    EXPECT_EQ(error["code"], "auth");
    EXPECT_NE(error["message"].get<std::string>().find("invalid x-api-key"), std::string::npos);
    s->wait("agent.done");
    EXPECT_EQ(fake.requests().size(), 1u);
    expect_next_turn_works(*s);
}

TEST_P(ProviderE2E, ACloseMidStreamIsANetworkErrorAndNotRetried) {
    FakeLlm fake(Json::array(
        {{{"text", "This reply will be cut short by the server"}, {"fault", "close_mid_stream"}},
         {{"text", "ok"}}}));
    auto s = session(fake);
    std::string code = error_code_of_turn(*s);
    EXPECT_TRUE(code == "network" || code == "bad_response") << code;
    EXPECT_EQ(fake.requests().size(), 1u) << "output had started: no retry";
    expect_next_turn_works(*s);
}

TEST_P(ProviderE2E, GarbageInTheStreamIsABadResponse) {
    FakeLlm fake(
        Json::array({{{"text", "some text first"}, {"fault", "garbage"}}, {{"text", "ok"}}}));
    auto s = session(fake);
    EXPECT_EQ(error_code_of_turn(*s), "bad_response");
    expect_next_turn_works(*s);
}

TEST_P(ProviderE2E, AnEventSplitAtEveryByteArrivesWhole) {
    FakeLlm fake(Json::array({{{"text", "Grüße aus dem Netz — every byte alone."},
                               {"tools", {call_with_id("c1", "list_dir", {{"path", "."}})}},
                               {"fault", "split_bytes"}},
                              {{"text", "ok"}}}));
    auto s = session(fake);
    s->send("hi");
    EXPECT_EQ(s->wait("agent.message")["text"], "Grüße aus dem Netz — every byte alone.");
    EXPECT_EQ(s->wait("agent.tool_result")["name"], "list_dir");
    EXPECT_EQ(s->wait("agent.done")["stop_reason"], "end_turn");
}

TEST_P(ProviderE2E, AStallLongerThanTheIdleTimeoutIsANetworkError) {
    FakeLlm fake(
        Json::array({{{"text", "slow"}, {"fault", "stall"}, {"stall_s", 30}}, {{"text", "ok"}}}));
    auto s = session(fake);
    s->request("agent.options.set", {{"name", "idle_timeout_s"}, {"value", "0.5"}});
    auto start = Clock::now();
    s->send("hi");
    Json error = s->wait("agent.error");
    EXPECT_EQ(error["code"], "network");
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
    s->wait("agent.done");
    expect_next_turn_works(*s);
}

TEST_P(ProviderE2E, AnErrorEventMidStreamEndsTheTurn) {
    FakeLlm fake(Json::array({{{"text", "partial"}, {"fault", "error_event"}}, {{"text", "ok"}}}));
    auto s = session(fake);
    std::string code = error_code_of_turn(*s);
    EXPECT_TRUE(code == "server" || code == "bad_response") << code;
    expect_next_turn_works(*s);
}

TEST_P(ProviderE2E, StopDuringAStreamClosesTheConnectionPromptly) {
    FakeLlm fake(Json::array(
        {{{"text", "warm"}},
         {{"text", "a long answer"}, {"fault", "stall"}, {"stall_s", 30}, {"trace", true}},
         {{"text", "ok"}}}));
    auto s = session(fake);
    std::string tasks = "/proc/" + std::to_string(s->core().pid()) + "/task";
    auto threads = [&] { return std::distance(fs::directory_iterator(tasks), {}); };
    s->send("warm up"); // the HTTP thread starts with the core's first request
    s->wait("agent.done");
    long before = threads();
    long turn = s->send("hi");
    // The stall holds the stream open after its first event. The server's trace says when that
    // event has gone out: the stream is open and the server is in its stall. (rio-core shows
    // nothing for it, message_start and the role chunk carry no text.)
    auto stalling = [&] {
        for (const Json& e : fake.log())
            if (e.value("event", "") == "sent" && e.value("response_index", -1) == 1) return true;
        return false;
    };
    for (int i = 0; i < 500 && !stalling(); ++i)
        std::this_thread::sleep_for(10ms);
    ASSERT_TRUE(stalling()) << "the second reply's first event went out";
    Json stopped = s->request("agent.stop");
    s->wait("agent.stopped");
    EXPECT_EQ(stopped["result"]["stopped"], Json::array({turn}));
    // Promptly, without a clock: the server saw the connection close while it was still in
    // its 30 s stall, before it sent the reply's second event. (How long a stop takes is
    // measured in bench/provider_bench.)
    bool closed = false;
    for (int i = 0; i < 500 && !closed; ++i) {
        for (const Json& e : fake.log())
            closed |= e.value("event", "") == "client_closed";
        if (!closed) std::this_thread::sleep_for(10ms);
    }
    EXPECT_TRUE(closed) << "the server saw the connection close";
    int sent_of_stalled = 0;
    for (const Json& e : fake.log())
        sent_of_stalled += e.value("event", "") == "sent" && e.value("response_index", -1) == 1;
    EXPECT_EQ(sent_of_stalled, 1) << "the connection closed during the stall, not after it";
    EXPECT_EQ(threads(), before) << "no thread is left behind";
    expect_next_turn_works(*s);
}

TEST_P(ProviderE2E, ModelFlagChoosesTheModelForThisRunOnly) {
    FakeLlm fake(Json::array({{{"text", "ok"}}}));
    std::string prefix = anthropic() ? "ANTHROPIC" : "OPENAI";
    std::string base = anthropic() ? fake.url() : fake.url() + "/v1";
    auto s =
        AgentSession::with_provider({"--provider", provider(), "--model", "model-for-run"},
                                    {prefix + "_BASE_URL=" + base, prefix + "_API_KEY=" + key});
    EXPECT_EQ(s->request("agent.status")["result"]["model"], "model-for-run");
    s->send("hi");
    s->wait("agent.done");
    EXPECT_EQ(fake.requests().at(0)["body"]["model"], "model-for-run");
    EXPECT_FALSE(fs::exists(s->config() / "providers" / (provider() + ".json")))
        << "a run's model is not saved as the choice";
}

TEST_P(ProviderE2E, WithoutAKeyTheHostedEndpointIsNotConfigured) {
    FakeLlm fake(Json::array());
    std::string prefix = anthropic() ? "ANTHROPIC" : "OPENAI";
    auto s = AgentSession::with_provider({"--provider", provider()}, {});
    s->send("hi");
    Json error = s->wait("agent.error");
    EXPECT_EQ(error["code"], "not_configured");
    EXPECT_NE(error["message"].get<std::string>().find(prefix + "_API_KEY"), std::string::npos);
}

TEST_P(ProviderE2E, AStoredKeyIsUsedButNeverShown) {
    FakeLlm fake(Json::array({{{"text", "ok"}}}));
    auto s = session(fake, /*with_key=*/false);
    Json stored = s->request("agent.key.set", {{"provider", provider()}, {"key", key}});
    ASSERT_EQ(stored["ok"], true) << stored.dump();
    fs::path file = s->home() / "data/rio/secrets" / provider();
    struct stat st {};
    ASSERT_EQ(::stat(file.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    ASSERT_EQ(::stat(file.parent_path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    s->send("hi");
    s->wait("agent.done");
    auto sent = fake.requests().at(0)["headers"];
    EXPECT_TRUE(sent.dump().find(key) != std::string::npos) << "the stored key authenticates";
    Json providers = s->request("agent.providers")["result"];
    std::string everything = providers.dump() + s->request("agent.options.list")["result"].dump() +
                             s->request("agent.status")["result"].dump();
    for (const Json& e : s->client().drain(100ms))
        everything += e.dump();
    EXPECT_EQ(everything.find(key), std::string::npos) << "a key never reaches a frontend";
    EXPECT_EQ(s->core().stderr_text().find(key), std::string::npos) << "nor a log";
    ASSERT_EQ(s->request("agent.key.clear", {{"provider", provider()}})["ok"], true);
    EXPECT_FALSE(fs::exists(file));
}

TEST_P(ProviderE2E, OptionsPersistPerProviderAndReachTheRequest) {
    FakeLlm fake(Json::array({{{"text", "ok"}}}));
    auto s = session(fake);
    Json set = s->request("agent.options.set", {{"name", "model"}, {"value", "my-model-7"}});
    ASSERT_EQ(set["ok"], true) << set.dump();
    EXPECT_EQ(s->request("agent.status")["result"]["model"], "my-model-7");
    s->request("agent.options.set", {{"name", "max_tokens"}, {"value", 1234}});
    EXPECT_EQ(s->request("agent.options.set",
                         {{"name", "effort"}, {"value", "extreme"}})["error"]["code"],
              "bad_request");
    s->send("hi");
    s->wait("agent.done");
    Json body = fake.requests().at(0)["body"];
    EXPECT_EQ(body["model"], "my-model-7");
    EXPECT_EQ(body["max_tokens"], 1234);
    Json stored =
        Json::parse(read_bytes(s->home() / "config/rio/providers" / (provider() + ".json")));
    EXPECT_EQ(stored["model"], "my-model-7");
}

// The ca_file option reaches the transport: the fake server speaks plain HTTP, so an https
// base URL gets as far as TLS set-up, where curl reads the CA file and refuses it.
TEST_P(ProviderE2E, TheCaFileOptionIsCheckedAndReachesTheTransport) {
    FakeLlm fake(Json::array({{{"text", "ok"}}}));
    auto s = session(fake);
    Json missing = s->request("agent.options.set",
                              {{"name", "ca_file"}, {"value", "/nonexistent/company-ca.pem"}});
    EXPECT_EQ(missing["error"]["code"], "bad_request");
    EXPECT_EQ(missing["error"]["message"],
              "cannot read the CA file /nonexistent/company-ca.pem: No such file or directory");
    EXPECT_EQ(s->request("agent.options.set",
                         {{"name", "ca_file"}, {"value", "ca.pem"}})["error"]["message"],
              "ca_file must be an absolute path");
    fs::path bad = s->home() / "not-a-ca.pem";
    write_bytes(bad, "not a certificate\n");
    std::string https = "https" + fake.url().substr(4) + (anthropic() ? "" : "/v1");
    ASSERT_EQ(s->request("agent.options.set", {{"name", "base_url"}, {"value", https}})["ok"],
              true);
    ASSERT_EQ(s->request("agent.options.set", {{"name", "ca_file"}, {"value", bad.string()}})["ok"],
              true);
    s->send("hi");
    Json error = s->wait("agent.error");
    EXPECT_EQ(error["code"], "not_configured");
    EXPECT_EQ(error["message"].get<std::string>().rfind(
                  "the CA file " + bad.string() + " (ca_file) holds no usable certificate", 0),
              0u)
        << error.dump();
    s->wait("agent.done");
}

TEST_P(ProviderE2E, TheModelListComesFromTheProvider) {
    FakeLlm fake(Json::array());
    auto s = session(fake);
    Json models = s->request("agent.models");
    ASSERT_EQ(models["ok"], true) << models.dump();
    EXPECT_FALSE(models["result"]["models"].empty());
}

// agent.provider.test: one small real call, and what became of it in words (issue 15).
TEST_P(ProviderE2E, TheTestCallSaysItWorks) {
    FakeLlm fake(Json::array({{{"text", "OK"}}}));
    auto s = session(fake);
    Json test = s->request("agent.provider.test");
    ASSERT_EQ(test["ok"], true) << test.dump();
    EXPECT_EQ(test["result"]["ok"], true) << test.dump();
    EXPECT_FALSE(test["result"].contains("code"));
    std::string message = test["result"]["message"];
    EXPECT_EQ(message.rfind("It works: ", 0), 0u) << message;
    std::vector<Json> sent = fake.requests();
    ASSERT_EQ(sent.size(), 1u) << "one call";
    const Json& body = sent[0]["body"];
    EXPECT_FALSE(body.contains("tools")) << "a tiny call: no tools";
    EXPECT_EQ(body.value("max_tokens", 0), 16) << body.dump();
    EXPECT_EQ(body["messages"].size(), 1u);
}

TEST_P(ProviderE2E, TheTestCallSaysTheKeyWasRefused) {
    FakeLlm fake(Json::array({{{"status", 401}, {"error", "invalid x-api-key"}}}));
    auto s = session(fake);
    Json result = s->request("agent.provider.test", {{"provider", provider()}})["result"];
    EXPECT_EQ(result["ok"], false);
    EXPECT_EQ(result["code"], "auth");
    std::string message = result["message"];
    EXPECT_EQ(message.rfind("Bad key: ", 0), 0u) << message;
    EXPECT_NE(message.find("invalid x-api-key"), std::string::npos) << message;
    EXPECT_EQ(message.find(key), std::string::npos) << "the key itself is never said";
}

TEST_P(ProviderE2E, TheTestCallIsTriedOnceWhenRateLimited) {
    FakeLlm fake(Json::array({{{"status", 429}, {"error", "slow down"}}, {{"text", "OK"}}}));
    auto s = session(fake);
    Json result = s->request("agent.provider.test")["result"];
    EXPECT_EQ(result["code"], "rate_limit");
    EXPECT_EQ(result["message"].get<std::string>().rfind("Rate limited: ", 0), 0u) << result;
    EXPECT_EQ(fake.requests().size(), 1u) << "a test waits for no retry";
}

TEST_P(ProviderE2E, TheTestCallSaysWhenNothingAnswers) {
    FakeLlm fake(Json::array());
    auto s = session(fake);
    // Port 1: nothing listens there on loopback.
    std::string nowhere = std::string("http://127.0.0.1:1") + (anthropic() ? "" : "/v1");
    ASSERT_EQ(s->request("agent.options.set", {{"name", "base_url"}, {"value", nowhere}})["ok"],
              true);
    Json result = s->request("agent.provider.test")["result"];
    EXPECT_EQ(result["ok"], false);
    EXPECT_EQ(result["code"], "network");
    std::string message = result["message"];
    EXPECT_EQ(message.rfind("No connection: ", 0), 0u) << message;
    EXPECT_NE(message.find(nowhere), std::string::npos) << "names the base URL: " << message;
}

TEST_P(ProviderE2E, TheTestCallSaysAWebPageIsNotTheApi) {
    FakeLlm fake(Json::array({{{"text", "never taken"}}}));
    auto s = session(fake);
    std::string site = fake.url() + "/website";
    ASSERT_EQ(s->request("agent.options.set", {{"name", "base_url"}, {"value", site}})["ok"], true);
    Json result = s->request("agent.provider.test")["result"];
    EXPECT_EQ(result["ok"], false);
    EXPECT_EQ(result["code"], "bad_response");
    std::string message = result["message"];
    EXPECT_EQ(message.rfind("Wrong URL: " + site + " answered, but not as ", 0), 0u) << message;
    EXPECT_NE(message.find("text/html"), std::string::npos) << message;
}

TEST_P(ProviderE2E, WithoutAKeyTheTestSaysWhereToAddOne) {
    FakeLlm fake(Json::array());
    auto s = AgentSession::with_provider({"--provider", "echo"}, {});
    Json providers = s->request("agent.providers")["result"];
    for (const Json& p : providers["providers"])
        if (p["name"] == provider()) {
            EXPECT_EQ(p["ready"], false) << "a hosted endpoint, no key";
        }
    Json result = s->request("agent.provider.test", {{"provider", provider()}})["result"];
    EXPECT_EQ(result["ok"], false);
    EXPECT_EQ(result["code"], "not_configured");
    EXPECT_NE(result["message"].get<std::string>().find("Settings ▸ Providers"), std::string::npos)
        << result;
    // A local server needs no key: with its base URL the provider is ready.
    std::string local = fake.url() + (anthropic() ? "" : "/v1");
    s->request("agent.options.set",
               {{"provider", provider()}, {"name", "base_url"}, {"value", local}});
    // Held in a variable: a range-for over a part of the temporary reply would outlive it.
    const Json ready = s->request("agent.providers");
    for (const Json& p : ready["result"]["providers"])
        if (p["name"] == provider()) {
            EXPECT_EQ(p["ready"], true);
        }
    EXPECT_EQ(s->request("agent.provider.test", {{"provider", "echo"}})["result"]["ok"], true);
    EXPECT_EQ(s->request("agent.provider.test", {{"provider", "nope"}})["error"]["code"],
              "bad_request");
}

TEST(ProviderSelectionE2E, TheDefaultFollowsTheKeysInTheEnvironment) {
    auto anthropic = AgentSession::with_provider({}, {"ANTHROPIC_API_KEY=x", "OPENAI_API_KEY=y"});
    EXPECT_EQ(anthropic->request("agent.status")["result"]["provider"], "anthropic");
    auto openai = AgentSession::with_provider({}, {"OPENAI_API_KEY=y"});
    EXPECT_EQ(openai->request("agent.status")["result"]["provider"], "openai");
}

TEST(ProviderSelectionE2E, WithoutKeysALocalOllamaIsTheDefault) {
    FakeLlm ollama(Json::array({{{"text", "hi from the local model"}}}));
    // OLLAMA_HOST moves the probe off 11434, so a real Ollama here cannot interfere. The
    // probe gets 5 s, not 300 ms: beside the suites' heaviest tests (-j2 on 2 cores) the fake
    // server's answer once took longer, and the core fell back to echo.
    auto s = AgentSession::with_provider(
        {}, {"OLLAMA_HOST=" + ollama.url().substr(7), "RIO_OLLAMA_PROBE_MS=5000"});
    Json status = s->request("agent.status")["result"];
    EXPECT_EQ(status["provider"], "openai");
    EXPECT_FALSE(status["model"].get<std::string>().empty()) << "the first model Ollama lists";
    s->send("hello");
    EXPECT_EQ(s->wait("agent.message")["text"], "hi from the local model");
    auto sent = ollama.requests();
    ASSERT_FALSE(sent.empty());
    EXPECT_FALSE(sent.back()["headers"].contains("authorization")) << "Ollama needs no key";
}

TEST(ProviderSelectionE2E, ProviderSetIsRememberedForTheNextCore) {
    auto s = AgentSession::with_provider({}, {});
    ASSERT_EQ(s->request("agent.provider.set", {{"name", "openai"}})["ok"], true);
    Json config = Json::parse(read_bytes(s->home() / "config/rio/config.json"));
    EXPECT_EQ(config["provider"], "openai");
    EXPECT_EQ(s->request("agent.provider.set", {{"name", "nope"}})["error"]["code"],
              "not_configured");
}

} // namespace
} // namespace rio::test

namespace rio::test {
namespace {

// Roles alternate from the user and end with the user's turn; every tool call is answered.
bool alternates(const Json& request, bool anthropic_shape) {
    std::string expected = "user";
    for (const Json& m : request["body"]["messages"]) {
        std::string role = m["role"];
        if (!anthropic_shape && (role == "system" || role == "tool")) continue;
        if (role != expected) return false;
        expected = expected == "user" ? "assistant" : "user";
    }
    return expected == "assistant";
}

// Issue 9's fault figures: every provider fault ends its turn with one clean agent.error,
// and the next turn's request is a valid conversation (printed as a table).
TEST_P(ProviderE2E, FaultFiguresEveryFaultEndsCleanlyAndTheNextTurnAlternates) {
    Json call = call_with_id("c1", "list_dir", {{"path", "."}});
    std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
    Json big = call_with_id("c2", "create_file",
                            {{"path", "big.txt"}, {"content", std::string(20 * 1024 * 1024, 'y')}});
    Json limited{{"status", 429}, {"error", "slow down"}, {"retry_after", 0}};
    Json limited_bare{{"status", 429}, {"error", "slow down"}};
    Json failing{{"status", 500}, {"error", "internal trouble"}, {"retry_after", 0}};
    struct Fault {
        std::string name;
        std::vector<Json> responses; // for the faulty turn, retries included
    };
    std::vector<Fault> faults{
        {"drop before any byte", {{{"fault", "drop"}}}},
        {"drop mid-stream", {{{"text", "cut short here"}, {"fault", "close_mid_stream"}}}},
        {"drop after a complete tool call", {{{"tools", {call}}, {"fault", "close_after_tools"}}}},
        {"429 with retry-after, 3 times", {limited, limited, limited}},
        {"429 without retry-after, 3 times", {limited_bare, limited_bare, limited_bare}},
        {"500, 3 times", {failing, failing, failing}},
        {"garbage in the stream", {{{"text", "some text first"}, {"fault", "garbage"}}}},
        {"stall past the idle timeout", {{{"text", "slow"}, {"fault", "stall"}, {"stall_s", 30}}}},
        {"endless fast stream", {{{"text", std::string(4000, 'z')}, {"fault", "endless"}}}},
        {"20 MB tool arguments", {{{"tools", {big}}, {"json_piece_chars", 1 << 20}}}},
        {"100k-deep tool arguments",
         {{{"tools", {call_with_id("c3", "list_dir", deep)}}, {"json_piece_chars", 65536}}}},
    };
    Json script = Json::array();
    for (const Fault& f : faults) {
        for (const Json& r : f.responses)
            script.push_back(r);
        script.push_back({{"text", "ok"}});
    }
    FakeLlm fake(script);
    auto s = session(fake);
    s->request("agent.options.set", {{"name", "idle_timeout_s"}, {"value", "0.5"}});

    std::printf("%-36s %-14s %s\n", "fault", "agent.error", "next turn");
    std::size_t seen = 0;
    for (const Fault& f : faults) {
        s->send("go");
        // Generous: 64 MB of an endless stream take a while under the sanitizers.
        std::vector<Json> events = s->client().events_until("agent.done", std::chrono::minutes(2));
        std::vector<std::string> errors;
        for (const Json& e : events)
            if (e["event"] == "agent.error") errors.push_back(e["params"]["code"]);
        EXPECT_EQ(errors.size(), 1u) << f.name;
        EXPECT_EQ(events.back()["params"]["stop_reason"], "error") << f.name;
        s->send("are you there?");
        Json message = s->wait("agent.message");
        s->wait("agent.done");
        seen += f.responses.size() + 1;
        auto requests = fake.requests();
        ASSERT_EQ(requests.size(), seen) << f.name;
        bool valid = alternates(requests.back(), anthropic());
        EXPECT_TRUE(valid) << f.name << ": " << requests.back()["body"]["messages"].dump();
        EXPECT_EQ(message["text"], "ok") << f.name;
        std::printf("%-36s %-14s %s\n", f.name.c_str(),
                    errors.empty() ? "(none)" : errors.front().c_str(),
                    valid ? "alternates" : "BROKEN");
    }
}

// Start-up pays nothing for the network (decision 0019): libcurl, TLS and the libraries they
// bring are mapped into the core with its first request, not before.
bool maps_libcurl(pid_t pid) {
    std::string maps = read_bytes("/proc/" + std::to_string(pid) + "/maps");
    return maps.find("libcurl") != std::string::npos ||
           maps.find("rio-http-curl") != std::string::npos;
}

TEST_P(ProviderE2E, LibcurlIsLoadedWithTheFirstRequestOnly) {
    FakeLlm fake(Json::array({{{"text", "ok"}}}));
    auto s = session(fake);
    s->request("session.hello", Json::object());
    EXPECT_FALSE(maps_libcurl(s->core().pid())) << "a core that has sent nothing";
    s->send("hi");
    EXPECT_EQ(s->wait("agent.message")["text"], "ok");
    EXPECT_TRUE(maps_libcurl(s->core().pid())) << "after a turn over the wire";
}

} // namespace
} // namespace rio::test

namespace rio::test {
namespace {

// DESIGN §18 over the real wire: a server that refuses requests above a size, the way each
// server family says it.
class OverflowE2E : public ::testing::TestWithParam<std::pair<std::string, std::string>> {
protected:
    std::string provider() const { return GetParam().first; }
    std::string wording() const { return GetParam().second; }
    bool anthropic() const { return provider() == "anthropic"; }

    std::unique_ptr<AgentSession> session(const FakeLlm& fake) {
        std::string prefix = anthropic() ? "ANTHROPIC" : "OPENAI";
        std::string base = anthropic() ? fake.url() : fake.url() + "/v1";
        auto s = AgentSession::with_provider(
            {"--provider", provider()}, {prefix + "_BASE_URL=" + base, prefix + "_API_KEY=" + key});
        // 40 KB each, in lines of 80 bytes as a source file has them.
        for (const char* name : {"a.txt", "b.txt", "c.txt"}) {
            std::string text;
            for (int i = 0; i < 512; ++i)
                text += std::string(79, name[0]) + "\n";
            write_bytes(s->project() / name, text);
        }
        return s;
    }
};

const std::string overflow_plan = "1. Change a.txt\n2. Change b.txt";

// Reads 40 KB files one a step against a window 60 KB larger than the first request, with a
// plan approved on the way: the turn finishes, the plan is verbatim in the first request
// after the compaction, and the next message works.
TEST_P(OverflowE2E, AnOverflowCompactsRetriesAndTheTurnAndTheNextMessageFinish) {
    FakeLlm fake(
        Json::array({{{"tools", {call_with_id("r1", "read_file", {{"path", "a.txt"}})}}},
                     {{"tools",
                       {call_with_id("p1", "present_plan",
                                     {{"title", "Two files"}, {"plan", overflow_plan}})}}},
                     {{"tools", {call_with_id("r2", "read_file", {{"path", "b.txt"}})}}},
                     {{"tools", {call_with_id("r3", "read_file", {{"path", "c.txt"}})}}},
                     {{"text", "Done."}},
                     {{"text", "Going on."}}}),
        nullptr,
        Json{{"limit", {{"over_first", 60 * 1024}, {"wording", wording()}}},
             {"summary", {{"text", "Summary: read a.txt and b.txt; the plan was approved."}}}});
    auto s = session(fake);
    s->request("agent.mode.set", {{"mode", "plan"}});
    long turn = s->send("read the files, plan, read more");
    s->wait("agent.propose");
    s->request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    Json compacted = s->wait("agent.compacted");
    EXPECT_EQ(compacted["reason"], "overflow");
    EXPECT_GE(compacted["cleared"].get<int>(), 1);
    EXPECT_EQ(s->wait("agent.done")["stop_reason"], "end_turn");

    std::vector<Json> requests = fake.requests();
    auto refused = std::find_if(requests.begin(), requests.end(),
                                [](const Json& r) { return r.contains("refused"); });
    ASSERT_NE(refused, requests.end()) << "the server refused one";
    ASSERT_NE(refused + 1, requests.end());
    const Json& retry = *(refused + 1);
    EXPECT_FALSE(retry.contains("refused")) << "the retry fit";
    EXPECT_LT(retry["body"].dump().size(), (*refused)["body"].dump().size());
    for (const char* line : {"1. Change a.txt", "2. Change b.txt"})
        EXPECT_NE(retry["body"].dump().find(line), std::string::npos) << "the approved plan";
    EXPECT_NE(retry["body"].dump().find("cleared to save context"), std::string::npos);

    long next = s->send("go on");
    Json message = s->wait("agent.message");
    while (message["turn"] != next) // the first turn's steps are still queued
        message = s->wait("agent.message");
    EXPECT_EQ(message["text"], "Going on.");
    Json done = s->wait("agent.done");
    while (done["turn"] != next)
        done = s->wait("agent.done");
    EXPECT_EQ(done["stop_reason"], "end_turn");
    Json status = s->request("agent.status")["result"];
    ASSERT_TRUE(status.contains("context"));
    EXPECT_LT(status["context"]["window"].get<long>(), 200000) << "the refusal taught the limit";

    // The session holds the compacted conversation: a new core resumes it.
    std::string id = status["session"];
    s->restart(Json::array(), SIGTERM);
    Json resumed = s->request("agent.session.resume", {{"id", id}});
    ASSERT_EQ(resumed["ok"], true) << resumed.dump();
    Json history = s->request("agent.history")["result"];
    EXPECT_NE(history.dump().find("cleared to save context"), std::string::npos);
    EXPECT_NE(history.dump().find("1. Change a.txt"), std::string::npos);
}

// A server that refuses every request: one compaction, one retry, then a clear error that
// is not "a bug in how rio built it".
TEST_P(OverflowE2E, StillTooBigEndsTheTurnWithContextFull) {
    FakeLlm fake(Json::array({{{"text", "never sent"}}}), nullptr,
                 Json{{"limit", {{"bytes", 100}, {"wording", wording()}}}});
    auto s = session(fake);
    s->send("hello");
    Json error = s->wait("agent.error");
    EXPECT_EQ(error["code"], "context_full");
    std::string message = error["message"];
    EXPECT_NE(message.find("/compact"), std::string::npos) << message;
    EXPECT_EQ(message.find("bug"), std::string::npos) << message;
    s->wait("agent.done");
    std::size_t refusals = 0;
    for (const Json& r : fake.requests())
        refusals += r.contains("refused");
    EXPECT_GE(refusals, 2u);
    EXPECT_LE(refusals, 3u) << "one compaction, one retry: no endless retrying";
}

INSTANTIATE_TEST_SUITE_P(
    Wordings, OverflowE2E,
    ::testing::Values(std::pair<std::string, std::string>{"anthropic", "anthropic"},
                      std::pair<std::string, std::string>{"openai", "openai"},
                      std::pair<std::string, std::string>{"openai", "llamacpp"},
                      std::pair<std::string, std::string>{"openai", "vllm"},
                      std::pair<std::string, std::string>{"openai", "ollama"}),
    [](const auto& info) { return info.param.first + "_" + info.param.second; });

} // namespace
} // namespace rio::test
