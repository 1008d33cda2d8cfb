// Sessions (DESIGN §14): agent.session.resume of a 1,000-entry session through a real
// rio-core (target ≤ 20 ms answered), and what saving costs per entry — the line appended and
// fsynced, and the replay that reading it back takes.
#include "core/agent/session_record.hpp"
#include "host/store/session_files.hpp"
#include "tests/support/agent_session.hpp"

#include <benchmark/benchmark.h>

namespace {

using rio::test::AgentSession;
using rio::test::Json;

// A conversation of `entries` entries as a session file: alternating requests and answers of
// a few hundred characters, every other answer a tool call answered by the next entry (so it
// ends on a finished exchange, as a conversation at rest does).
std::string session_text(const std::string& id, const std::string& project, int entries) {
    std::string t = "2026-12-01T10:00:00.000Z";
    std::string out =
        Json{{"type", "session"}, {"version", 1}, {"id", id},        {"project", project},
             {"title", "bench"},  {"time", t},    {"mode", "build"}, {"auto_accept", false}}
            .dump() +
        "\n";
    std::string prose(300, 'x');
    for (int i = 0; i < entries; ++i) {
        Json m{{"role", i % 2 == 0 ? "user" : "assistant"}, {"text", prose}};
        if (i % 4 == 1 && i + 1 < entries)
            m["calls"] = Json::array({{{"id", "c" + std::to_string(i)},
                                       {"name", "read_file"},
                                       {"input", {{"path", "greet.py"}}}}});
        if (i % 4 == 2)
            m["results"] = Json::array(
                {{{"id", "c" + std::to_string(i - 1)}, {"ok", true}, {"content", prose}}});
        out += Json{{"type", "message"}, {"turn", i / 2 + 1}, {"time", t}, {"message", m}}.dump() +
               "\n";
    }
    return out;
}

void BM_SessionResume_1000Entries(benchmark::State& state) {
    AgentSession s(Json::array(), true, /*log=*/false);
    auto folder = s.home() / "state/rio/sessions";
    std::filesystem::create_directories(folder);
    // Two sessions, resumed in turn: resuming the current one would do nothing.
    for (const char* id : {"bench-a", "bench-b"})
        rio::test::write_bytes(folder / (std::string(id) + ".jsonl"),
                               session_text(id, s.project().path().string(), 1000));
    int i = 0;
    for (auto _ : state) {
        Json r = s.request("agent.session.resume", {{"id", i++ % 2 ? "bench-a" : "bench-b"}});
        if (r["ok"] != true) state.SkipWithError(r.dump().c_str());
        s.client().drain(std::chrono::milliseconds(0));
    }
}
BENCHMARK(BM_SessionResume_1000Entries)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SessionReplay_1000Entries(benchmark::State& state) {
    rio::test::TempDir dir;
    auto path = dir / "s.jsonl";
    rio::test::write_bytes(path, session_text("s", "/p", 1000));
    for (auto _ : state) {
        auto lines = rio::read_session_lines(path);
        auto replay = rio::replay_session(lines->lines);
        benchmark::DoNotOptimize(replay.session.conversation.size());
    }
}
BENCHMARK(BM_SessionReplay_1000Entries)->Unit(benchmark::kMillisecond);

// One entry appended and made durable: what every model step and tool result costs.
void BM_SessionAppendEntry(benchmark::State& state) {
    rio::test::TempDir dir;
    auto writer = rio::SessionWriter::create(dir / "s.jsonl");
    rio::Message message{rio::Role::assistant, std::string(300, 'x'), {}, {}, {}};
    std::string line =
        rio::message_line(message, 1, false, "2026-12-01T10:00:00.000Z").dump() + "\n";
    for (auto _ : state)
        if (!writer->append(line)) state.SkipWithError("append failed");
}
BENCHMARK(BM_SessionAppendEntry)->Unit(benchmark::kMicrosecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
