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

// The input of a Responses request is valid when every call is answered once, after it, and
// every answer has its call; and it ends with the person's message or a call's answer.
bool answered_in_order(const Json& request) {
    std::vector<std::string> open;
    std::string last;
    for (const Json& item : request["body"]["input"]) {
        std::string type = item.value("type", "");
        last = type == "message" ? item.value("role", "") : type;
        if (type == "function_call") open.push_back(item["call_id"]);
        if (type != "function_call_output") continue;
        auto call = std::find(open.begin(), open.end(), item["call_id"].get<std::string>());
        if (call == open.end()) return false;
        open.erase(call);
    }
    return open.empty() && (last == "user" || last == "function_call_output");
}

// The three wires: Anthropic Messages, OpenAI Chat Completions, and OpenAI's Responses API
// (the openai provider with its wire option set to responses).
class ProviderE2E : public ::testing::TestWithParam<std::string> {
protected:
    std::string provider() const { return GetParam() == "responses" ? "openai" : GetParam(); }
    bool anthropic() const { return provider() == "anthropic"; }
    bool responses() const { return GetParam() == "responses"; }

    // rio-core on this provider, pointed at the fake server, with a key.
    std::unique_ptr<AgentSession> session(const FakeLlm& fake, bool with_key = true) {
        std::string prefix = anthropic() ? "ANTHROPIC" : "OPENAI";
        std::string base = anthropic() ? fake.url() : fake.url() + "/v1";
        std::vector<std::string> env{prefix + "_BASE_URL=" + base};
        if (with_key) env.push_back(prefix + "_API_KEY=" + key);
        auto s = AgentSession::with_provider({"--provider", provider()}, env);
        if (responses()) {
            Json set = s->request("agent.options.set", {{"name", "wire"}, {"value", "responses"}});
            EXPECT_EQ(set["ok"], true) << set.dump();
        }
        write_bytes(s->project() / "greet.py", greet_py);
        return s;
    }

    // The conversation a request carried, in the wire's own shape.
    const Json& conversation_of(const Json& request) {
        return request["body"][responses() ? "input" : "messages"];
    }

    // The names of the tools a request offered, in the provider's own shape.
    std::vector<std::string> offered(const Json& request) {
        std::vector<std::string> names;
        for (const Json& t : request["body"]["tools"])
            names.push_back(anthropic() || responses() ? t["name"] : t["function"]["name"]);
        return names;
    }

    std::string system_of(const Json& request) {
        if (responses()) return request["body"].value("instructions", "");
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
        if (responses()) {
            for (const Json& item : request["body"]["input"])
                if (item["type"] == "function_call_output")
                    out.emplace_back(item["call_id"], item["output"]);
            return out;
        }
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

INSTANTIATE_TEST_SUITE_P(Wire, ProviderE2E, ::testing::Values("anthropic", "openai", "responses"),
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
    EXPECT_NE(conversation_of(requests[0]).dump().find("# Plan mode"), std::string::npos)
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
            EXPECT_EQ(r["path"], responses() ? "/v1/responses" : "/v1/chat/completions");
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
    if (responses()) { // the encrypted reasoning goes back before the calls it led to
        const Json& input = requests[1]["body"]["input"];
        ASSERT_GE(input.size(), 3u);
        EXPECT_EQ(input[1]["type"], "reasoning");
        EXPECT_EQ(input[1]["encrypted_content"].get<std::string>().rfind("gAAAAfake-0-", 0), 0u);
        EXPECT_EQ(input[2]["type"], "function_call");
        EXPECT_TRUE(answered_in_order(requests[1])) << input.dump();
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

// For the Responses wire, a model that answers only there chooses the wire by itself.
TEST_P(ProviderE2E, ModelFlagChoosesTheModelForThisRunOnly) {
    FakeLlm fake(Json::array({{{"text", "ok"}}}));
    std::string prefix = anthropic() ? "ANTHROPIC" : "OPENAI";
    std::string base = anthropic() ? fake.url() : fake.url() + "/v1";
    std::string model = responses() ? "gpt-5-codex" : "model-for-run";
    auto s =
        AgentSession::with_provider({"--provider", provider(), "--model", model},
                                    {prefix + "_BASE_URL=" + base, prefix + "_API_KEY=" + key});
    EXPECT_EQ(s->request("agent.status")["result"]["model"], model);
    s->send("hi");
    s->wait("agent.done");
    EXPECT_EQ(fake.requests().at(0)["body"]["model"], model);
    EXPECT_EQ(fake.requests().at(0)["path"], anthropic()   ? "/v1/messages"
                                             : responses() ? "/v1/responses"
                                                           : "/v1/chat/completions");
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
    EXPECT_EQ(body[responses() ? "max_output_tokens" : "max_tokens"], 1234);
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
    EXPECT_EQ(body.value(responses() ? "max_output_tokens" : "max_tokens", 0), 16) << body.dump();
    EXPECT_EQ(conversation_of(sent[0]).size(), 1u);
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
    if (responses())
        faults.push_back({"cut inside a call's arguments",
                          {{{"text", "Reading."},
                            {"tools", {call_with_id("c4", "read_file", {{"path", "greet.py"}})}},
                            {"fault", "close_in_arguments"}}}});
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
        bool valid = responses() ? answered_in_order(requests.back())
                                 : alternates(requests.back(), anthropic());
        EXPECT_TRUE(valid) << f.name << ": " << conversation_of(requests.back()).dump();
        EXPECT_EQ(message["text"], "ok") << f.name;
        std::printf("%-36s %-14s %s\n", f.name.c_str(),
                    errors.empty() ? "(none)" : errors.front().c_str(),
                    valid ? "alternates" : "BROKEN");
    }
}

// The Responses wire's own cases (issue 49), with a model that answers only there choosing
// the wire by itself.
class ResponsesE2E : public ::testing::Test {
protected:
    std::unique_ptr<AgentSession> session(const FakeLlm& fake) {
        auto s = AgentSession::with_provider(
            {"--provider", "openai", "--model", "gpt-5-codex"},
            {"OPENAI_BASE_URL=" + fake.url() + "/v1", "OPENAI_API_KEY=" + key});
        write_bytes(s->project() / "greet.py", greet_py);
        return s;
    }

    // The turn's reply, checking that none of its events is an agent.error.
    std::string clean_turn(AgentSession& s, const std::string& text) {
        s.send(text);
        std::string reply;
        for (const Json& e : s.client().events_until("agent.done", std::chrono::seconds(30))) {
            EXPECT_NE(e["event"], "agent.error") << e.dump();
            if (e["event"] == "agent.message") reply = e["params"]["text"];
            if (e["event"] == "agent.done") {
                EXPECT_EQ(e["params"]["stop_reason"], "end_turn");
            }
        }
        return reply;
    }
};

TEST_F(ResponsesE2E, ReasoningGoesBackEncryptedAndCachedInputIsCounted) {
    Json usage{{"input_tokens", 1200}, {"cached_tokens", 1000}, {"output_tokens", 40}};
    FakeLlm fake(Json::array({{{"thinking", "Read the file first."},
                               {"text", "Let me read it."},
                               {"tools", {call_with_id("r1", "read_file", {{"path", "greet.py"}})}},
                               {"usage", usage}},
                              {{"text", "It greets by name."}, {"usage", usage}}}));
    auto s = session(fake);
    s->send("what does greet.py do?");
    EXPECT_EQ(s->wait("agent.thinking")["text"], "Read the file ");
    Json counts = s->wait("agent.usage");
    EXPECT_EQ(counts["input_tokens"], 200) << "input not read from the cache: " << counts;
    EXPECT_EQ(counts["cache_read_input_tokens"], 1000) << counts;
    EXPECT_EQ(s->wait("agent.done")["stop_reason"], "end_turn");

    std::vector<Json> requests = fake.requests();
    ASSERT_EQ(requests.size(), 2u);
    for (const Json& r : requests) {
        EXPECT_EQ(r["path"], "/v1/responses");
        EXPECT_EQ(r["body"]["store"], false) << "stateless: nothing kept on the server";
        EXPECT_EQ(r["body"]["include"], Json::array({"reasoning.encrypted_content"}));
        EXPECT_FALSE(r["body"].contains("previous_response_id"));
    }
    EXPECT_EQ(requests[0]["body"]["instructions"], requests[1]["body"]["instructions"]);
    EXPECT_EQ(requests[0]["body"]["tools"], requests[1]["body"]["tools"]) << "one cached prefix";
    const Json& input = requests[1]["body"]["input"];
    ASSERT_EQ(input.size(), 5u) << input.dump();
    EXPECT_EQ(input[0]["role"], "user");
    EXPECT_EQ(input[1]["type"], "reasoning");
    EXPECT_EQ(input[1]["encrypted_content"].get<std::string>().rfind("gAAAAfake-0-", 0), 0u);
    EXPECT_FALSE(input[1].contains("id")) << "an id names an item the server did not store";
    EXPECT_EQ(input[2]["content"][0]["text"], "Let me read it.");
    EXPECT_EQ(input[3]["call_id"], "r1");
    EXPECT_EQ(input[4]["type"], "function_call_output");
    EXPECT_NE(input[4]["output"].get<std::string>().find("Hello, {name}"), std::string::npos);
}

TEST_F(ResponsesE2E, AReasoningItemWithoutItsEncryptedContentIsLeftOut) {
    FakeLlm fake(Json::array({{{"thinking", "Thinking, not kept."},
                               {"encrypted", false},
                               {"tools", {call_with_id("r1", "list_dir", {{"path", "."}})}}},
                              {{"text", "Listed."}}}));
    auto s = session(fake);
    EXPECT_EQ(clean_turn(*s, "list it"), "Listed.");
    std::vector<Json> requests = fake.requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[1]["body"]["input"].dump().find("\"reasoning\""), std::string::npos)
        << "not sent back: a stateless server could not find it";
    EXPECT_TRUE(answered_in_order(requests[1])) << requests[1]["body"]["input"].dump();
}

TEST_F(ResponsesE2E, AnUnknownEventTypeIsSkipped) {
    FakeLlm fake(Json::array({{{"text", "Still whole after it."}, {"fault", "unknown_event"}}}));
    auto s = session(fake);
    EXPECT_EQ(clean_turn(*s, "hi"), "Still whole after it.");
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
        if (wording() == "responses") // OpenAI's Responses API, and its wording
            s->request("agent.options.set", {{"name", "wire"}, {"value", "responses"}});
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
                      std::pair<std::string, std::string>{"openai", "ollama"},
                      std::pair<std::string, std::string>{"openai", "responses"}),
    [](const auto& info) { return info.param.first + "_" + info.param.second; });

} // namespace
} // namespace rio::test
