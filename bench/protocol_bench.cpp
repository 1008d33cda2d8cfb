// Protocol round trips against a real rio-core over stdio: one request at a time (latency)
// and a pipelined burst (throughput).
#include "tests/support/core_process.hpp"

#include <benchmark/benchmark.h>

namespace {

using rio::test::CoreProcess;
using rio::test::Json;

CoreProcess& core() {
    static rio::test::TempDir project;
    static CoreProcess process({"--project", project.path().string()});
    return process;
}

void BM_StdioRoundTrip_ProjectInfo(benchmark::State& state) {
    auto& client = core().stdio();
    for (auto _ : state) {
        Json r = client.request("project.info");
        if (r["ok"] != true) state.SkipWithError("project.info failed");
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StdioRoundTrip_ProjectInfo)->UseRealTime();

void BM_StdioRoundTrip_Hello(benchmark::State& state) {
    auto& client = core().stdio();
    for (auto _ : state)
        benchmark::DoNotOptimize(client.request("session.hello"));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StdioRoundTrip_Hello)->UseRealTime();

// Many requests in flight: what the channel sustains when a client does not wait.
void BM_StdioPipelined_ProjectInfo(benchmark::State& state) {
    auto& client = core().stdio();
    const int burst = static_cast<int>(state.range(0));
    std::string batch;
    for (int i = 0; i < burst; ++i)
        batch += "{\"id\":\"p" + std::to_string(i) + "\",\"op\":\"project.info\"}\n";
    for (auto _ : state) {
        client.send_raw(batch);
        for (int i = 0; i < burst; ++i)
            benchmark::DoNotOptimize(client.next_message());
    }
    state.SetItemsProcessed(state.iterations() * burst);
}
BENCHMARK(BM_StdioPipelined_ProjectInfo)->Arg(1000)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
