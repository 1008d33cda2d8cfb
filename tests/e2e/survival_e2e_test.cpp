// The core survives what a client, a provider or a command throws at it (issue 9): each
// hostile input gets a clear error, the connection stays usable, and nothing is lost.
#include "tests/support/agent_session.hpp"
#include "tests/support/fake_llm.hpp"
#include "tests/support/script_steps.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <numeric>
#include <poll.h>
#include <random>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

std::string nested(std::size_t depth) {
    return std::string(depth, '[') + std::string(depth, ']');
}

// Resident memory of a process, in MB.
long resident_mb(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6)) / 1024;
    return -1;
}

// rio-core on a unix socket with a project holding one file to edit.
struct ListeningCore {
    TempDir dir, project;
    std::string socket = (dir / "core.sock").string();
    CoreProcess core{{"--listen", "unix:" + socket, "--project", project.path().string()},
                     {"XDG_STATE_HOME=" + (dir / "state").string()}};
    ListeningCore() {
        write_bytes(project / "big.txt", "x\n");
        core.wait_for_stderr("listening on unix:");
    }
    LineClient connect() { return LineClient::connect_unix(socket); }
};

// A client that connects, says hello and never reads again; its socket buffers are made
// small so the core notices at once.
LineClient stuck_reader(ListeningCore& c) {
    LineClient client = c.connect();
    EXPECT_EQ(client.request("session.hello")["ok"], true);
    return client;
}

TEST(SurvivalE2E, OneLineWithAnOverflowingNumberDoesNotKillTheCore) {
    CoreProcess core({});
    core.stdio().send_raw(R"({"id":1,"op":"session.hello","params":{"x":1E400}})"
                          "\n");
    Json r = core.stdio().next_message();
    EXPECT_EQ(r["ok"], false);
    EXPECT_EQ(r["error"]["code"], "bad_request");
    EXPECT_EQ(r["error"]["message"], "invalid JSON: number overflow parsing '1E400'");
    EXPECT_EQ(core.stdio().request("session.hello")["ok"], true);
}

TEST(SurvivalE2E, DeepNestingInParamsOrIdIsABadRequest) {
    CoreProcess core({});
    core.stdio().send_raw(R"({"id":2,"op":"session.hello","params":{"a":)" + nested(90'000) +
                          "}}\n");
    Json in_params = core.stdio().next_message();
    EXPECT_EQ(in_params["error"]["message"], "JSON nested deeper than 256 levels");
    core.stdio().send_raw(R"({"id":)" + nested(90'000) +
                          R"(,"op":"session.hello"})"
                          "\n");
    EXPECT_EQ(core.stdio().next_message()["error"]["code"], "bad_request");
    EXPECT_EQ(core.stdio().request("session.hello")["ok"], true);
}

TEST(SurvivalE2E, AFifoInTheProjectIsRefusedAndNothingFreezes) {
    AgentSession s(Json::array({{{"tools", {tool("read_file", {{"path", "pipe"}})}}}}));
    ASSERT_EQ(::mkfifo((s.project() / "pipe").c_str(), 0600), 0);
    Json r = s.request("fs.read", {{"path", "pipe"}});
    EXPECT_EQ(r["error"]["code"], "refused") << r.dump();
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    s.send("read the pipe");
    Json result = s.wait("agent.tool_result");
    EXPECT_EQ(result["ok"], false);
    EXPECT_NE(result["content"].get<std::string>().find("not a regular file"), std::string::npos)
        << result.dump();
    s.wait("agent.done");
    EXPECT_EQ(s.request("session.hello")["ok"], true);
}

#ifdef RIO_SANITIZED
// 240 MB for the six stuck readers, still well over the one 128 MB budget; 150 rounds took
// 200 s under the sanitizers, and the figures come from the plain build.
constexpr int broadcast_rounds = 40;
#else
constexpr int broadcast_rounds = 150;
#endif

// Six clients that never read each held up to 256 MB (1.6 GB in all) and another client's
// round trip took 5.9 s. Now their unread output shares one budget, the slowest is cut off
// first, and a reading client is answered throughout.
TEST(SurvivalE2E, SlowReadersShareOneBudgetAndNeverDelayAnother) {
    ListeningCore c;
    std::vector<LineClient> stuck;
    for (int i = 0; i < 6; ++i)
        stuck.push_back(stuck_reader(c));
    LineClient fast = c.connect();
    ASSERT_EQ(fast.request("buffer.open", {{"path", "big.txt"}})["ok"], true);
    std::string megabyte(1024 * 1024, 'y');
    long peak = 0;
    auto slowest_round_trip = std::chrono::milliseconds(0);
    for (int i = 0; i < broadcast_rounds; ++i) {
        // Each edit is broadcast to every client: a megabyte for each stuck one.
        auto start = std::chrono::steady_clock::now();
        Json r = fast.request("buffer.replace", {{"path", "big.txt"}, {"text", megabyte}});
        slowest_round_trip =
            std::max(slowest_round_trip, std::chrono::duration_cast<std::chrono::milliseconds>(
                                             std::chrono::steady_clock::now() - start));
        ASSERT_EQ(r["ok"], true) << "round " << i;
        fast.drain(0ms); // the fast client reads its own events
        peak = std::max(peak, resident_mb(c.core.pid()));
    }
    std::printf("6 stuck readers, %d MB broadcast to each: core peak %ld MB resident, slowest "
                "round trip of the reading client %lld ms\n",
                broadcast_rounds, peak, static_cast<long long>(slowest_round_trip.count()));
    EXPECT_LT(peak, 600) << "one budget of 128 MB for every client's unread output";
    EXPECT_NE(c.core.stderr_text().find("unread; disconnecting it"), std::string::npos);
    EXPECT_EQ(fast.request("session.hello")["ok"], true);
}

// With a client that has unread output the core waited forever to flush it on SIGTERM.
TEST(SurvivalE2E, SigtermEndsTheCoreWithinASecondEvenWithUnreadOutput) {
    ListeningCore c;
    LineClient stuck = stuck_reader(c);
    LineClient writer = c.connect();
    ASSERT_EQ(writer.request("buffer.open", {{"path", "big.txt"}})["ok"], true);
    std::string megabyte(1024 * 1024, 'y');
    for (int i = 0; i < 20; ++i)
        ASSERT_EQ(writer.request("buffer.replace", {{"path", "big.txt"}, {"text", megabyte}})["ok"],
                  true);
    ::kill(c.core.pid(), SIGTERM);
    EXPECT_TRUE(c.core.wait_exit(std::chrono::milliseconds(1500)).has_value())
        << "still running 1.5 s after SIGTERM";
}

// A server streaming as fast as it can: memory grew 280 MB/s and agent.stop went unanswered
// for 120 s. Now the transfer waits for the loop, and a stop is answered at once (its
// latency is measured in bench/provider_bench).
TEST(SurvivalE2E, StopDuringAnEndlessFastStreamIsAnsweredAndMemoryStaysBounded) {
    FakeLlm fake(Json::array(
        {{{"text", std::string(4000, 'z')}, {"fault", "endless"}}, {{"text", "still here"}}}));
    auto s = AgentSession::with_provider(
        {"--provider", "anthropic"},
        {"ANTHROPIC_BASE_URL=" + fake.url(), "ANTHROPIC_API_KEY=sk-test"});
    long turn = s->send("go");
    std::size_t streamed = 0;
    while (streamed < 2u * 1024 * 1024)
        streamed += s->wait("agent.delta")["text"].get<std::string>().size();
    long resident = resident_mb(s->core().pid());
    Json stopped = s->request("agent.stop");
    EXPECT_EQ(stopped["result"]["stopped"], Json::array({turn}));
    s->wait("agent.stopped");
    std::printf("endless stream: %zu MB read by the client, core at %ld MB resident\n",
                streamed >> 20, resident);
    EXPECT_LT(resident, 300);
    s->send("hello?");
    EXPECT_EQ(s->wait("agent.message")["text"], "still here");
}

// Hostile process trees: each starts processes that leave the command's process group in
// its own way, writes their pids to `pids`, then ends (exit), runs on (for a timeout), or
// waits (for a stop). Before, 18 of 18 survived stop and timeout.
struct HostileTree {
    std::string name;
    std::string start; // sh code that starts the escapees
    int escapees;
};

const std::vector<HostileTree> hostile_trees{
    {"background job in the group", "sleep 300 & echo $! >> pids", 1},
    {"setsid", "setsid sh -c 'echo $$ >> pids; exec sleep 300' &", 1},
    {"setpgid(0,0)",
     "python3 -c 'import os,time; os.setpgid(0,0); open(\"pids\",\"a\").write(\"%d\\n\" % "
     "os.getpid()); time.sleep(300)' &",
     1},
    {"daemonized (fork, setsid, fork)",
     "python3 -c 'import os,time\nif os.fork()==0:\n os.setsid()\n if os.fork()==0:\n  "
     "open(\"pids\",\"a\").write(\"%d\\n\" % os.getpid()); time.sleep(300)\n os._exit(0)\n"
     "os.wait()'",
     1},
    {"own session, ignoring SIGTERM and SIGHUP",
     "setsid sh -c 'trap \"\" TERM HUP; echo $$ >> pids; while :; do sleep 1; done' &", 1},
    {"setsid inside setsid",
     "setsid sh -c 'setsid sh -c \"echo \\$\\$ >> pids; exec sleep 300\" & echo $$ >> pids; "
     "exec sleep 300' &",
     2},
};

std::vector<pid_t> pids_in(const fs::path& file) {
    std::vector<pid_t> out;
    std::ifstream in(file);
    for (pid_t pid; in >> pid;)
        out.push_back(pid);
    return out;
}

// Gone means reaped, not a zombie: the core reaps the orphans it was handed.
bool becomes_gone(pid_t pid) {
    for (int i = 0; i < 500; ++i) {
        if (!fs::exists("/proc/" + std::to_string(pid))) return true;
        std::this_thread::sleep_for(10ms);
    }
    return false;
}

enum class Ending { exit, timeout, stop };

void run_hostile_trees(Ending ending) {
    Json steps = Json::array();
    for (const HostileTree& tree : hostile_trees) {
        std::string wait = "while [ $(wc -l < pids) -lt " + std::to_string(tree.escapees) +
                           " ]; do sleep 0.01; done";
        std::string script = ": > pids\n" + tree.start + "\n" + wait + "\n" +
                             (ending == Ending::exit ? "exit 0" : "sleep 300");
        // In a folder of its own: under workspace-write the project's top level takes no new
        // files.
        Json input{{"argv", {"sh", "-c", script}}, {"cwd", "run"}};
        // Long enough for python3 to start and write its pid on a loaded machine: at 1 s the
        // timeout sometimes came first, and there was no escapee to check.
        if (ending == Ending::timeout) input["timeout_s"] = 3;
        steps.push_back({{"tools", {tool("run_command", input)}}});
        // A stop ends the turn there; otherwise the model answers the result.
        if (ending != Ending::stop) steps.push_back({{"text", "done"}});
    }
    AgentSession s(steps);
    write_bytes(s.config() / "allow", "cwd=run sh\n");
    fs::create_directories(s.project() / "run");
    const fs::path pid_file = s.project() / "run/pids";
    s.trust_project(); // allow rules apply in trusted projects only (issue 26)
    int survivors = 0;
    for (const HostileTree& tree : hostile_trees) {
        fs::remove(pid_file);
        long turn = s.send("run it");
        if (ending == Ending::stop) {
            for (int i = 0;
                 i < 500 && pids_in(pid_file).size() < static_cast<std::size_t>(tree.escapees); ++i)
                std::this_thread::sleep_for(10ms);
            EXPECT_EQ(s.request("agent.stop", {{"turn", turn}})["result"]["stopped"],
                      Json::array({turn}));
            s.wait("agent.stopped");
        } else {
            Json result = s.wait("agent.tool_result");
            EXPECT_EQ(result["name"], "run_command");
            s.wait("agent.done");
        }
        auto pids = pids_in(pid_file);
        EXPECT_EQ(pids.size(), static_cast<std::size_t>(tree.escapees)) << tree.name;
        for (pid_t pid : pids)
            if (!becomes_gone(pid)) {
                ++survivors;
                ADD_FAILURE() << tree.name << ": pid " << pid << " outlived the command";
                ::kill(pid, SIGKILL);
            }
    }
    const char* how = ending == Ending::exit      ? "exit"
                      : ending == Ending::timeout ? "timeout"
                                                  : "stop";
    std::printf("hostile process trees ending by %s: %d of %zu trees left a process behind\n", how,
                survivors, hostile_trees.size());
}

TEST(SurvivalE2E, EscapedGrandchildrenDieWhenTheCommandExits) {
    run_hostile_trees(Ending::exit);
}

TEST(SurvivalE2E, EscapedGrandchildrenDieWhenTheCommandTimesOut) {
    run_hostile_trees(Ending::timeout);
}

TEST(SurvivalE2E, EscapedGrandchildrenDieWhenTheTurnIsStopped) {
    run_hostile_trees(Ending::stop);
}

// kill -9 at a random moment of a save or of an approved edit of a 4 MB CRLF file with a
// BOM: the file is the old bytes or the new ones, never torn, empty or with another mode,
// and the next core's start removes the temporary file the killed one left.
#ifdef RIO_SANITIZED
constexpr int kill_rounds = 10; // the figures come from the plain build
#else
constexpr int kill_rounds = 100;
#endif
// Big enough that a save takes milliseconds to write and sync, so that kills land inside
// it; 20 MB made the two tests the longest of the suite (1.5 s a round) for the same proof.
constexpr std::size_t big_file_bytes = 4u * 1024 * 1024;

class KilledMidWrite : public ::testing::Test {
protected:
    void SetUp() override {
        std::string text = "\xEF\xBB\xBF";
        while (text.size() < big_file_bytes)
            text += "line of a big windows file, numbered " + std::to_string(text.size()) + "\r\n";
        text += "marker 0\r\n";
        write_bytes(project / "big.txt", text);
        ::chmod((project / "big.txt").c_str(), 0640);
        good = text;
    }

    std::unique_ptr<CoreProcess> start_core(std::vector<std::string> args = {}) {
        args.insert(args.end(), {"--project", project.path().string()});
        return std::make_unique<CoreProcess>(
            args, std::vector<std::string>{"XDG_STATE_HOME=" + (home / "state").string(),
                                           "XDG_CONFIG_HOME=" + (home / "config").string(),
                                           "XDG_DATA_HOME=" + (home / "data").string()});
    }

    std::size_t temp_files() const {
        std::size_t n = 0;
        for (const auto& e : fs::directory_iterator(project.path()))
            n += e.path().filename().string().find(".rio-") != std::string::npos;
        return n;
    }

    // After a kill: the old bytes or the new ones, and the mode it had.
    void kill_and_check(CoreProcess& core, const std::string& next, int round) {
        ::kill(core.pid(), SIGKILL);
        core.wait_exit();
        bool litter = temp_files() > 0;
        littered += litter;
        std::string now = read_bytes(project / "big.txt");
        struct stat st {};
        ::stat((project / "big.txt").c_str(), &st);
        if (now == next) {
            good = next;
            ++landed;
        } else if (now != good) {
            ++torn;
            ADD_FAILURE() << "round " << round << ": " << now.size()
                          << " bytes, neither old nor new";
        }
        if ((st.st_mode & 07777) != 0640) ++mode_changed;
        if (getenv("RIO_TEST_TRACE"))
            std::printf("round %d: %s%s\n", round, now == next ? "landed" : "old",
                        litter ? ", temporary file left" : "");
    }

    std::string with_marker(int round) const {
        std::string next = good.substr(0, good.rfind("marker "));
        return next + "marker " + std::to_string(round) + "\r\n";
    }

    void report(const char* what) {
        // The next start clears what the last kill left.
        auto core = start_core();
        EXPECT_EQ(core->stdio().request("session.hello")["ok"], true);
        std::size_t left = temp_files();
        std::printf("kill -9 during %d %s of a %zu MB CRLF+BOM file: %d landed, %d torn or empty, "
                    "%d mode changed, %d kills left a temporary file, %zu left after the next "
                    "start\n",
                    kill_rounds, what, big_file_bytes >> 20, landed, torn, mode_changed, littered,
                    left);
        EXPECT_EQ(torn, 0);
        EXPECT_EQ(mode_changed, 0);
        EXPECT_EQ(left, 0u);
    }

    TempDir home, project;
    std::string good;
    int landed = 0, torn = 0, mode_changed = 0, littered = 0;
    std::mt19937 rng{20261201};
};

// Responses are read as raw lines: parsing megabytes of JSON per round would be most of the
// test's time.
TEST_F(KilledMidWrite, KillDuring100SavesTearsNothingAndLeavesNoTemporaryFiles) {
    for (int round = 1; round <= kill_rounds; ++round) {
        auto core = start_core();
        LineClient& c = core->stdio();
        std::string text = good.substr(3); // the buffer holds the text without its BOM
        Json replace{{"path", "big.txt"},
                     {"start", text.rfind("marker ")},
                     {"end", text.size()},
                     {"text", "marker " + std::to_string(round) + "\r\n"}};
        c.send_raw(R"({"id":1,"op":"buffer.open","params":{"path":"big.txt"}})"
                   "\n" +
                   Json{{"id", 2}, {"op", "buffer.replace"}, {"params", replace}}.dump() + "\n");
        for (int answered = 0; answered < 2;)
            if (c.next_line()->starts_with(R"({"id":)")) ++answered;
        c.send_raw(R"({"id":3,"op":"buffer.save","params":{"path":"big.txt"}})"
                   "\n");
        std::this_thread::sleep_for(std::chrono::microseconds(rng() % 60'000));
        kill_and_check(*core, with_marker(round), round);
    }
    report("saves");
}

TEST_F(KilledMidWrite, KillDuring100ApprovedEditsTearsNothingAndLeavesNoTemporaryFiles) {
    for (int round = 1; round <= kill_rounds; ++round) {
        std::string marker = good.substr(good.rfind("marker "));
        Json edit{{"path", "big.txt"},
                  {"old_string", marker.substr(0, marker.size() - 2)},
                  {"new_string", "marker " + std::to_string(round)}};
        Json script{{"steps", {{{"tools", {tool("edit_file", edit)}}}}}};
        write_bytes(home / "script.json", script.dump());
        auto core = start_core({"--provider", "script:" + (home / "script.json").string()});
        LineClient& c = core->stdio();
        c.send_raw(R"({"id":1,"op":"agent.autoaccept.set","params":{"on":true}})"
                   "\n"
                   R"({"id":2,"op":"agent.send","params":{"text":"edit"}})"
                   "\n");
        // The call has been prepared (the file read, diffed, proposed) when this arrives; the
        // approved write follows within a few hundred milliseconds.
        while (c.next_line()->find(R"("event":"agent.tool")") == std::string::npos) {
        }
        std::this_thread::sleep_for(std::chrono::microseconds(rng() % 300'000));
        kill_and_check(*core, with_marker(round), round);
    }
    report("approved edits");
}

// ---- issue 26: the breaks an outside red team found on 8be8423 --------------------------

// Peak resident memory of a process, in MB.
long peak_mb(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6)) / 1024;
    return -1;
}

int tcp_socket(int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
        throw std::runtime_error(std::string("connect: ") + std::strerror(errno));
    return fd;
}

// Whether the core closed this connection (end of file or a reset) within the deadline.
bool closed_by_core(int fd, std::chrono::milliseconds deadline) {
    pollfd p{fd, POLLIN, 0};
    auto until = std::chrono::steady_clock::now() + deadline;
    while (std::chrono::steady_clock::now() < until) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            until - std::chrono::steady_clock::now());
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
        char buffer[4096];
        ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0) return true;
    }
    return false;
}

// Break H: the TCP listener had no limit before the token. 700 idle connections exhausted a
// core's descriptors (the user's own saves then failed with "Too many open files"), and
// strangers sending megabytes without a line break were held in memory.
TEST(SurvivalE2E, RedTeamH_StrangersOnTheTcpPortCannotStarveTheUser) {
    TempDir runtime, project, state;
    write_bytes(project / "notes.txt", "a\n");
    // The descriptors a desktop session commonly gets (ulimit -n 1024), for the core alone.
    rlimit saved{};
    ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
    rlimit low = saved;
    low.rlim_cur = std::min<rlim_t>(1024, saved.rlim_cur);
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
    CoreProcess core(
        {"--listen", "127.0.0.1:0", "--project", project.path().string()},
        {"XDG_RUNTIME_DIR=" + runtime.path().string(), "XDG_STATE_HOME=" + state.path().string()});
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &saved), 0);
    std::string err = core.wait_for_stderr("listening on 127.0.0.1:");
    int port = std::stoi(err.substr(err.find("127.0.0.1:") + 10));
    auto at = err.find("(token in ") + 10;
    std::string token = read_bytes(err.substr(at, err.find(')', at) - at)).substr(0, 64);
    auto user_client = [&] {
        int fd = tcp_socket(port);
        LineClient client(fd, ::dup(fd));
        EXPECT_EQ(client.request("session.hello", {{"token", token}})["ok"], true);
        return client;
    };
    LineClient user = user_client();
    ASSERT_EQ(user.request("buffer.open", {{"path", "notes.txt"}})["ok"], true);

    std::vector<int> idle, flooding;
    for (int i = 0; i < 700; ++i)
        idle.push_back(tcp_socket(port));
    std::string megabytes(2 * 1024 * 1024, '{');
    for (int i = 0; i < 40; ++i) {
        int fd = tcp_socket(port);
        ::fcntl(fd, F_SETFL, O_NONBLOCK); // what the core does not read stays unsent
        (void)::send(fd, megabytes.data(), megabytes.size(), MSG_NOSIGNAL);
        flooding.push_back(fd);
    }
    Json edited = user.request("buffer.replace", {{"path", "notes.txt"}, {"text", "b\n"}});
    Json saved_file = user.request("buffer.save", {{"path", "notes.txt"}});
    EXPECT_EQ(saved_file["ok"], true) << saved_file.dump();
    EXPECT_EQ(read_bytes(project / "notes.txt"), "b\n");
    LineClient late = user_client(); // a new client with the token still gets in

    int open = 0;
    for (int fd : flooding)
        open += !closed_by_core(fd, 20s);
    for (int fd : idle)
        open += !closed_by_core(fd, 20s);
    for (int fd : idle)
        ::close(fd);
    for (int fd : flooding)
        ::close(fd);
    std::printf("red team H, 700 idle and 40 flooding strangers on the TCP port: the user's save "
                "%s, %d strangers still connected after the first-line deadline, core peak %ld "
                "MB\n",
                saved_file["ok"] == true ? "succeeded" : "failed", open, peak_mb(core.pid()));
    EXPECT_EQ(open, 0) << "every stranger is closed once its first line is late or too long";
    EXPECT_LT(peak_mb(core.pid()), 300);
    EXPECT_EQ(user.request("session.hello")["ok"], true) << "the user is still served";
}

// One line of `words` words, each "w<n>" with n from `seed` on.
std::string one_line_of_words(std::size_t words, std::size_t seed) {
    std::string line;
    for (std::size_t i = 0; i < words; ++i)
        line += "w" + std::to_string(seed + i * (1 + seed % 3)) + " ";
    return line;
}

// Break I: a plan-mode model presented two 7 MB one-line plans; the word diff the frontends
// ask for between them took 16.9 s and 1.7 GB, and other clients waited 3.8 s.
TEST(SurvivalE2E, RedTeamI_HugePlansAreRefusedAndDiffsStayBounded) {
    std::string huge_a = one_line_of_words(850'000, 1), huge_b = one_line_of_words(850'000, 2);
    ASSERT_GT(huge_a.size(), 7'000'000u);
    AgentSession s(Json::array({step({tool("present_plan", {{"title", "Huge"}, {"plan", huge_a}})}),
                                text_step("I will write a shorter one.")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    s.send("plan everything");
    // Generous: under ASan beside the fuzzers, 7 MB of JSON takes its time each way.
    auto events = s.client().events_until("agent.done", 120s);
    bool proposed = false;
    std::string refusal;
    for (const Json& e : events) {
        proposed |= e["event"] == "agent.propose";
        if (e["event"] == "agent.tool_result") refusal = e["params"]["content"];
    }
    EXPECT_FALSE(proposed) << "a 7 MB plan is no plan for a person";
    EXPECT_NE(refusal.find("a plan may be at most 256 KB"), std::string::npos) << refusal;
    EXPECT_TRUE(s.request("plans.list")["result"]["plans"].empty());

    // diff.lines as a frontend asks for a revision: word changes inside changed lines.
    s.client().send_raw(Json{{"id", "huge"},
                             {"op", "diff.lines"},
                             {"params", {{"a", huge_a}, {"b", huge_b}, {"words", true}}}}
                            .dump() +
                        "\n");
    Json diff = s.client().response_to("huge", 120s);
    ASSERT_EQ(diff["ok"], true) << diff.dump().substr(0, 300);
    const Json& hunk = diff["result"]["hunks"][0];
    EXPECT_EQ(diff["result"]["exact"], false);
    EXPECT_EQ(hunk["words"][0]["removed"], Json::array({{{"start", 0}, {"end", huge_a.size()}}}))
        << "a line too long to compare word by word changed as a whole";
    long peak = peak_mb(s.core().pid());
#ifdef RIO_SANITIZED
    const long peak_limit = 800; // ASan's redzones and quarantine hold freed memory
#else
    const long peak_limit = 400;
#endif
    EXPECT_LT(peak, peak_limit) << "two 7 MB texts in a request cost tens of MB, not gigabytes";

    // A costly comparison runs beside the loop: a request sent after it is answered first.
    std::string a_lines, b_lines;
    std::mt19937 shuffle(7);
    std::vector<int> order(200'000);
    std::iota(order.begin(), order.end(), 0);
    for (int n : order)
        a_lines += "line " + std::to_string(n) + "\n";
    std::shuffle(order.begin(), order.end(), shuffle);
    for (int n : order)
        b_lines += "line " + std::to_string(n) + "\n";
    write_bytes(s.project() / "a.txt", a_lines);
    write_bytes(s.project() / "b.txt", b_lines);
    s.client().send_raw(
        Json{{"id", "diff"},
             {"op", "diff.lines"},
             {"params", {{"a", {{"path", "a.txt"}}}, {"b", {{"path", "b.txt"}}}}}}
            .dump() +
        "\n" + Json{{"id", "hello"}, {"op", "session.hello"}, {"params", Json::object()}}.dump() +
        "\n");
    Json first = s.client().next_message(120s);
    while (first.contains("event"))
        first = s.client().next_message(120s);
    EXPECT_EQ(first["id"], "hello") << "the diff held up the next request";
    Json shuffled = s.client().response_to("diff", 120s);
    EXPECT_EQ(shuffled["ok"], true);
    std::printf("red team I, two 7 MB plans: presented %s; their word diff answered, core peak "
                "%ld MB; a request behind a 200k-line diff answered %s\n",
                proposed ? "yes" : "no (refused)", peak,
                first["id"] == "hello" ? "first" : "after it");
}

} // namespace
} // namespace rio::test
