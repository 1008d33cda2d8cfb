// The network provider path through a real rio-core and the fake LLM server: how long an
// SSE event takes from the server's socket to a client as agent.delta, how many deltas per
// second the transport sustains, and how fast a Stop closes the connection.
#include "tests/support/agent_session.hpp"
#include "tests/support/fake_llm.hpp"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <fstream>
#include <thread>

namespace {

using rio::test::AgentSession;
using rio::test::FakeLlm;
using rio::test::Json;
using Clock = std::chrono::steady_clock;

double now_s() {
    return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

std::unique_ptr<AgentSession> session_on(const std::string& provider, const FakeLlm& fake) {
    std::string prefix = provider == "anthropic" ? "ANTHROPIC" : "OPENAI";
    std::string base = provider == "anthropic" ? fake.url() : fake.url() + "/v1";
    return AgentSession::with_provider({"--provider", provider},
                                       {prefix + "_BASE_URL=" + base, prefix + "_API_KEY=k"});
}

std::string words(int n) {
    std::string text;
    for (int i = 0; i < n; ++i)
        text += "tok" + std::to_string(i % 50) + " ";
    return text;
}

double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

// Events are paced 10 ms apart so each is its own write and its own delta.
void event_to_delta(benchmark::State& state, const std::string& provider) {
    const int pieces = 100; // the fake sends 3 words per delta
    std::vector<double> latencies;
    for (auto _ : state) {
        FakeLlm fake(
            Json::array({{{"text", words(pieces * 3)}, {"trace", true}, {"event_delay_s", 0.01}}}));
        auto s = session_on(provider, fake);
        s->request("agent.status");
        s->send("go");
        std::vector<double> arrived;
        for (;;) {
            Json m = s->client().next_message();
            if (m.value("event", "") == "agent.delta") arrived.push_back(now_s());
            if (m.value("event", "") == "agent.done") break;
        }
        std::vector<double> sent;
        for (const Json& e : fake.log())
            if (e.value("event", "") == "sent") sent.push_back(e["t"]);
        // The deltas are the frames just before the two closing ones (see the fake's README).
        if (arrived.size() != static_cast<std::size_t>(pieces) ||
            sent.size() < arrived.size() + 2) {
            state.SkipWithError("unexpected frame count");
            return;
        }
        std::size_t first = sent.size() - 2 - arrived.size();
        for (std::size_t i = 0; i < arrived.size(); ++i)
            latencies.push_back(arrived[i] - sent[first + i]);
    }
    state.counters["median_us"] = percentile(latencies, 0.5) * 1e6;
    state.counters["p99_us"] = percentile(latencies, 0.99) * 1e6;
}

void throughput(benchmark::State& state, const std::string& provider) {
    const int n = 30000;
    for (auto _ : state) {
        state.PauseTiming();
        FakeLlm fake(Json::array({{{"text", words(n)}}}));
        auto s = session_on(provider, fake);
        s->request("agent.status");
        state.ResumeTiming();
        s->send("go");
        s->wait("agent.done");
    }
    state.counters["words/s"] =
        benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["deltas/s"] =
        benchmark::Counter(n / 3, benchmark::Counter::kIsIterationInvariantRate);
}

void stop_latency(benchmark::State& state, const std::string& provider) {
    std::vector<double> to_event, to_close;
    for (auto _ : state) {
        FakeLlm fake(Json::array({{{"text", "a b c d e f"}, {"fault", "stall"}, {"stall_s", 30}}}));
        auto s = session_on(provider, fake);
        s->request("agent.status");
        s->send("go");
        while (fake.requests().empty())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        double asked = now_s();
        s->client().send_raw("{\"id\": \"stop\", \"op\": \"agent.stop\"}\n");
        s->wait("agent.stopped");
        to_event.push_back(now_s() - asked);
        for (int i = 0; i < 400; ++i) {
            for (const Json& e : fake.log())
                if (e.value("event", "") == "client_closed") {
                    to_close.push_back(e["t"].get<double>() - asked);
                    i = 400;
                }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    state.counters["to_stopped_ms"] = percentile(to_event, 0.5) * 1e3;
    if (!to_close.empty()) state.counters["to_server_close_ms"] = percentile(to_close, 0.5) * 1e3;
}

// A server that streams as fast as the client takes it and never ends (issue 9): how long
// agent.stop takes to be answered, and the core's memory meanwhile. The client reads its
// events as they come, so the stop request is behind whatever the core queued for it.
void stop_during_endless_stream(benchmark::State& state, const std::string& provider) {
    std::vector<double> answered;
    long resident_kb = 0;
    for (auto _ : state) {
        FakeLlm fake(Json::array({{{"text", std::string(4000, 'z')}, {"fault", "endless"}}}));
        auto s = session_on(provider, fake);
        s->send("go");
        std::size_t streamed = 0;
        while (streamed < 8u * 1024 * 1024)
            streamed += s->wait("agent.delta")["text"].get<std::string>().size();
        std::ifstream status("/proc/" + std::to_string(s->core().pid()) + "/status");
        for (std::string line; std::getline(status, line);)
            if (line.rfind("VmRSS:", 0) == 0)
                resident_kb = std::max(resident_kb, std::stol(line.substr(6)));
        double asked = now_s();
        s->client().send_raw("{\"id\": \"stop\", \"op\": \"agent.stop\"}\n");
        s->client().response_to("stop", std::chrono::seconds(30));
        answered.push_back(now_s() - asked);
    }
    state.counters["stop_answered_ms"] = percentile(answered, 0.5) * 1e3;
    state.counters["stop_answered_max_ms"] = percentile(answered, 1.0) * 1e3;
    state.counters["core_rss_mb"] = static_cast<double>(resident_kb) / 1024;
}

BENCHMARK_CAPTURE(event_to_delta, anthropic, std::string("anthropic"))
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(event_to_delta, openai, std::string("openai"))
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(throughput, anthropic, std::string("anthropic"))
    ->Iterations(3)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(throughput, openai, std::string("openai"))
    ->Iterations(3)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(stop_latency, anthropic, std::string("anthropic"))
    ->Iterations(5)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(stop_latency, openai, std::string("openai"))
    ->Iterations(5)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(stop_during_endless_stream, anthropic, std::string("anthropic"))
    ->Iterations(9)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(stop_during_endless_stream, openai, std::string("openai"))
    ->Iterations(9)
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
