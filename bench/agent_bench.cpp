// The agent core's own overhead, through a real rio-core with the script provider: one step
// (compose the prompt and tools, call the provider, run one read tool, dispatch the events)
// and the rate at which streamed events reach a client.
#include "tests/support/agent_session.hpp"

#include <benchmark/benchmark.h>

namespace {

using rio::test::AgentSession;
using rio::test::Json;

Json read_steps(int steps) {
    Json all = Json::array();
    for (int i = 0; i < steps; ++i)
        all.push_back(
            {{"tools", {{{"name", "read_file"}, {"input", {{"path", "src/main.cpp"}}}}}}});
    all.push_back({{"text", "done"}});
    return all;
}

void BM_AgentStep_ReadFile(benchmark::State& state) {
    const int steps = 200;
    for (auto _ : state) {
        state.PauseTiming();
        AgentSession s(read_steps(steps), true, /*log=*/false);
        std::string source;
        for (int i = 0; i < 300; ++i)
            source += "int line" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
        rio::test::write_bytes(s.project() / "src/main.cpp", source);
        state.ResumeTiming();
        s.send("read it many times");
        s.wait("agent.done");
    }
    state.counters["steps/s"] =
        benchmark::Counter(steps, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["us/step"] = benchmark::Counter(
        steps, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert,
        benchmark::Counter::kIs1000);
}
BENCHMARK(BM_AgentStep_ReadFile)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

void BM_AgentEvents_Deltas(benchmark::State& state) {
    const int words = 20000;
    std::string text;
    for (int i = 0; i < words; ++i)
        text += "word" + std::to_string(i % 97) + " ";
    for (auto _ : state) {
        state.PauseTiming();
        AgentSession s(Json::array({{{"text", text}}}), true, /*log=*/false);
        state.ResumeTiming();
        s.send("stream");
        s.wait("agent.done");
    }
    state.counters["events/s"] =
        benchmark::Counter(words, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_AgentEvents_Deltas)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

} // namespace

BENCHMARK_MAIN();
