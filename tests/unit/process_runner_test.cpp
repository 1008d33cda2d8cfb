#include "host/process/child_processes.hpp"
#include "host/process/process_runner.hpp"
#include "host/sandbox/landlock.hpp"
#include "host/sandbox/mount_namespace.hpp"
#include "tests/support/temp_dir.hpp"

#include <asio/steady_timer.hpp>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <gtest/gtest.h>
#include <optional>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace rio {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// Generous on purpose: it catches hangs, it does not measure speed.
constexpr auto guard_limit = 20s;

CommandSpec spec_for(std::vector<std::string> argv, fs::path cwd = fs::current_path()) {
    CommandSpec spec;
    spec.argv = std::move(argv);
    spec.cwd = std::move(cwd);
    return spec;
}

// Runs the command to completion on a fresh io_context. With `cancel_when`, polls it and
// cancels the command once it holds, so tests wait for the command to be ready instead of
// guessing how long that takes.
CommandResult run(CommandSpec spec, std::function<bool()> cancel_when = {}) {
    asio::io_context io;
    std::optional<CommandResult> result;
    int calls = 0;
    asio::steady_timer guard(io, guard_limit);
    asio::steady_timer poll(io);
    auto command = start_command(io, std::move(spec), [&](CommandResult r) {
        ++calls;
        result = std::move(r);
        guard.cancel();
        poll.cancel();
    });
    guard.async_wait([&](std::error_code ec) {
        if (!ec) io.stop();
    });
    std::function<void()> poll_again = [&] {
        poll.expires_after(10ms);
        poll.async_wait([&](std::error_code ec) {
            if (ec || result) return;
            if (cancel_when()) {
                command->cancel();
                command->cancel(); // twice is harmless
            } else {
                poll_again();
            }
        });
    };
    if (cancel_when) poll_again();
    io.run();
    EXPECT_EQ(calls, 1) << "done runs exactly once";
    if (!result) {
        ADD_FAILURE() << "the command did not finish within the guard limit";
        return {};
    }
    command->cancel(); // after completion: harmless
    return *result;
}

// The first line of a file the command writes, e.g. a pid; empty until it is complete.
std::string first_line(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line) || in.eof()) return {};
    return line;
}

bool has_line(const fs::path& path) {
    return !first_line(path).empty();
}

// A killed orphan is reparented to init, which in some containers never reaps it: a zombie
// has stopped running, so it counts as gone.
bool is_gone(pid_t pid) {
    if (::kill(pid, 0) == -1 && errno == ESRCH) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    auto paren = line.rfind(')');
    return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z';
}

bool becomes_gone(pid_t pid) {
    for (auto deadline = std::chrono::steady_clock::now() + guard_limit;
         std::chrono::steady_clock::now() < deadline; std::this_thread::sleep_for(10ms))
        if (is_gone(pid)) return true;
    return false;
}

pid_t pid_in(const fs::path& path) {
    std::string line = first_line(path);
    return line.empty() ? 0 : static_cast<pid_t>(std::stoi(line));
}

std::size_t open_fds() {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator("/proc/self/fd"), {}));
}

TEST(ProcessRunner, CapturesOutputAndExitCode) {
    CommandResult r = run(spec_for({"echo", "hello"}));
    EXPECT_TRUE(r.started);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.signal, 0);
    EXPECT_FALSE(r.timed_out);
    EXPECT_FALSE(r.cancelled);
    EXPECT_EQ(r.output, "hello\n");
    EXPECT_EQ(r.output_bytes, 6u);
}

TEST(ProcessRunner, ReportsANonZeroExit) {
    CommandResult r = run(spec_for({"sh", "-c", "echo failing; exit 3"}));
    EXPECT_TRUE(r.started);
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.signal, 0);
    EXPECT_EQ(r.output, "failing\n");
}

TEST(ProcessRunner, MergesStderrIntoTheOutputInOrder) {
    CommandResult r = run(spec_for({"sh", "-c", "echo out; echo err >&2; echo out again"}));
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.output, "out\nerr\nout again\n");
}

TEST(ProcessRunner, RunsWithoutAShell) {
    CommandResult r = run(spec_for({"echo", "$HOME; ls *"}));
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.output, "$HOME; ls *\n");
}

TEST(ProcessRunner, StdinIsEmpty) {
    CommandResult r = run(spec_for({"wc", "-c"}));
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.output, "0\n");
}

TEST(ProcessRunner, RunsInTheGivenFolder) {
    test::TempDir dir;
    test::write_bytes(dir / "here.txt", "found me\n");
    CommandResult r = run(spec_for({"sh", "-c", "pwd; cat here.txt"}, dir.path()));
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.output, dir.path().string() + "\nfound me\n");
}

TEST(ProcessRunner, AMissingProgramIsNotStarted) {
    CommandResult r = run(spec_for({"frobnicate-rio-no-such-program", "x"}));
    EXPECT_FALSE(r.started);
    EXPECT_EQ(r.error, "no such program: frobnicate-rio-no-such-program");
    EXPECT_EQ(r.exit_code, -1);
    EXPECT_EQ(r.output, "");
}

TEST(ProcessRunner, AMissingFolderIsNotStarted) {
    test::TempDir dir;
    CommandResult r = run(spec_for({"echo", "hi"}, dir / "nope"));
    EXPECT_FALSE(r.started);
    EXPECT_EQ(r.error, "no such folder: " + (dir / "nope").string());
}

TEST(ProcessRunner, AFileAsFolderIsNotStarted) {
    test::TempDir dir;
    test::write_bytes(dir / "file", "");
    CommandResult r = run(spec_for({"echo", "hi"}, dir / "file"));
    EXPECT_FALSE(r.started);
    EXPECT_EQ(r.error, "not a folder: " + (dir / "file").string());
}

TEST(ProcessRunner, AnEmptyCommandIsNotStarted) {
    CommandResult r = run(spec_for({}));
    EXPECT_FALSE(r.started);
    EXPECT_EQ(r.error, "no command given");
}

TEST(ProcessRunner, TimeoutKillsTheCommandAndItsGrandchild) {
    test::TempDir dir;
    // Long enough for the shell to start its background child and note its pid, which the
    // test needs; the command itself would run for 30 s.
    CommandSpec spec =
        spec_for({"sh", "-c", "sleep 30 & echo $! > pid; echo started; sleep 30"}, dir.path());
    spec.timeout = 1000ms;
    CommandResult r = run(spec);
    EXPECT_TRUE(r.started);
    EXPECT_TRUE(r.timed_out);
    EXPECT_FALSE(r.cancelled);
    EXPECT_EQ(r.exit_code, -1);
    EXPECT_NE(r.signal, 0);
    EXPECT_EQ(r.output, "started\n");
    pid_t grandchild = pid_in(dir / "pid");
    ASSERT_GT(grandchild, 0) << "the shell never started its background child";
    EXPECT_TRUE(becomes_gone(grandchild));
}

TEST(ProcessRunner, CancelKillsTheWholeGroup) {
    test::TempDir dir;
    CommandSpec spec = spec_for({"sh", "-c", "sleep 30 & echo $! > pid; sleep 30"}, dir.path());
    CommandResult r = run(spec, [&] { return has_line(dir / "pid"); });
    EXPECT_TRUE(r.started);
    EXPECT_TRUE(r.cancelled);
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, -1);
    EXPECT_NE(r.signal, 0);
    pid_t grandchild = pid_in(dir / "pid");
    ASSERT_GT(grandchild, 0);
    EXPECT_TRUE(becomes_gone(grandchild));
}

TEST(ProcessRunner, ACommandIgnoringSigtermIsKilledAfterTheGrace) {
    test::TempDir dir;
    // Ignored signals survive exec, so the sleep ignores SIGTERM as well.
    CommandSpec spec =
        spec_for({"sh", "-c", "trap '' TERM; echo ready > ready; sleep 30"}, dir.path());
    spec.kill_grace = 300ms;
    CommandResult r = run(spec, [&] { return has_line(dir / "ready"); });
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(r.signal, SIGKILL);
    EXPECT_EQ(r.exit_code, -1);
}

TEST(ProcessRunner, ALingeringGrandchildDoesNotHoldUpCompletion) {
    test::TempDir dir;
    // Without the group kill at exit the background sleep would hold the output pipe open
    // and outlive the command by 30 s.
    CommandSpec spec =
        spec_for({"sh", "-c", "sleep 30 & echo $! > pid; echo finished"}, dir.path());
    CommandResult r = run(spec);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.output, "finished\n");
    pid_t grandchild = pid_in(dir / "pid");
    ASSERT_GT(grandchild, 0);
    EXPECT_TRUE(becomes_gone(grandchild));
}

TEST(ProcessRunner, OutputHeldOpenOutsideTheGroupDoesNotHang) {
    test::TempDir dir;
    // setsid takes the background process out of the group, out of reach of the group kill;
    // it still holds the output pipe. The command ends anyway, shortly after its exit.
    CommandSpec spec = spec_for({"sh", "-c",
                                 "setsid sh -c 'echo $$ > pid; exec sleep 30' & "
                                 "while [ ! -s pid ]; do sleep 0.01; done; echo finished"},
                                dir.path());
    CommandResult r = run(spec);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.output, "finished\n");
    pid_t escaped = pid_in(dir / "pid");
    ASSERT_GT(escaped, 0);
    ::kill(escaped, SIGKILL); // not the runner's to kill; the test cleans up after itself
}

TEST(ProcessRunner, DestroyingTheLoopKillsAndReapsTheCommand) {
    test::TempDir dir;
    bool called = false;
    {
        asio::io_context io;
        auto command = start_command(
            io, spec_for({"sh", "-c", "sleep 30 & echo $! > pid; sleep 30"}, dir.path()),
            [&](const CommandResult&) { called = true; });
        asio::steady_timer poll(io);
        std::function<void()> poll_again = [&] {
            poll.expires_after(10ms);
            poll.async_wait([&](std::error_code ec) {
                if (ec) return;
                if (has_line(dir / "pid"))
                    io.stop(); // the command is still running when io goes away
                else
                    poll_again();
            });
        };
        poll_again();
        io.run_for(guard_limit);
    }
    EXPECT_FALSE(called);
    pid_t grandchild = pid_in(dir / "pid");
    ASSERT_GT(grandchild, 0);
    EXPECT_TRUE(becomes_gone(grandchild));
    pid_t waited = ::waitpid(-1, nullptr, WNOHANG);
    int err = errno;
    EXPECT_EQ(waited, -1) << "the command was reaped";
    EXPECT_EQ(err, ECHILD);
}

TEST(ProcessRunner, CapsOutputKeepingHeadAndTail) {
    std::string expected;
    for (int i = 1; i <= 10000; ++i)
        expected += std::to_string(i) + "\n";
    CommandSpec spec = spec_for({"seq", "1", "10000"});
    spec.output_cap = 100;
    CommandResult r = run(spec);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.output_bytes, expected.size());
    EXPECT_EQ(r.output, expected.substr(0, 50) + "\n[... " + std::to_string(expected.size() - 100) +
                            " bytes omitted ...]\n" + expected.substr(expected.size() - 50));
}

TEST(ProcessRunner, OutputUnderTheCapIsKeptWhole) {
    CommandSpec spec = spec_for({"printf", "%s", std::string(100, 'x')});
    spec.output_cap = 100;
    CommandResult r = run(spec);
    EXPECT_EQ(r.output, std::string(100, 'x'));
    EXPECT_EQ(r.output_bytes, 100u);
}

TEST(ProcessRunner, TheCapDoesNotSplitACharacter) {
    std::string text;
    for (int i = 0; i < 1000; ++i)
        text += "\xC3\xA9"; // é
    CommandSpec spec = spec_for({"printf", "%s", text});
    spec.output_cap = 101; // head 50 bytes (25 é), tail 51 bytes: one byte into a character
    CommandResult r = run(spec);
    EXPECT_EQ(r.output_bytes, 2000u);
    EXPECT_EQ(r.output,
              text.substr(0, 50) + "\n[... 1900 bytes omitted ...]\n" + text.substr(0, 50));
}

TEST(ProcessRunner, LargeOutputDoesNotDeadlock) {
    CommandSpec spec =
        spec_for({"sh", "-c", "head -c 20000000 /dev/zero | tr '\\0' x; echo; echo end"});
    CommandResult r = run(spec);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.output_bytes, 20000000u + 5);
    std::string tail = std::string(32768 - 5, 'x') + "\nend\n";
    EXPECT_EQ(r.output, std::string(32768, 'x') + "\n[... " + std::to_string(20000005 - 65536) +
                            " bytes omitted ...]\n" + tail);
}

TEST(ProcessRunner, InvalidUtf8BecomesReplacementCharacters) {
    CommandResult r =
        run(spec_for({"printf", "%s", "ok \xFF\xFE caf\xC3\xA9 \xE2\x82 \xED\xA0\x80 end\xE2"}));
    EXPECT_EQ(r.exit_code, 0);
    // One U+FFFD per maximal ill-formed subsequence: FF, FE, E2 82, ED, A0, 80, E2.
    EXPECT_EQ(r.output, "ok \uFFFD\uFFFD caf\u00E9 \uFFFD \uFFFD\uFFFD\uFFFD end\uFFFD");
    EXPECT_EQ(r.output_bytes, 23u);
}

TEST(ProcessRunner, SignalsAreDefaultInTheCommand) {
    // rio ignores SIGPIPE; the command must not inherit that, or `yes | head` never ends.
    auto previous = std::signal(SIGPIPE, SIG_IGN);
    CommandResult r =
        run(spec_for({"sh", "-c", "yes | head -n 2; kill -PIPE $$; echo not reached"}));
    std::signal(SIGPIPE, previous);
    EXPECT_EQ(r.output, "y\ny\n");
    EXPECT_EQ(r.signal, SIGPIPE);
}

TEST(ProcessRunner, OnlyStdioIsInherited) {
    // A descriptor opened without O_CLOEXEC, as a careless library might.
    int stray = ::open("/dev/null", O_RDONLY);
    ASSERT_GE(stray, 3);
    CommandResult r = run(spec_for({"ls", "/proc/self/fd"}));
    ::close(stray);
    EXPECT_EQ(r.output, "0\n1\n2\n3\n") << "3 is ls's own listing of the folder";
}

TEST(ProcessRunner, NoDescriptorOrZombieLeaksAcrossManyRuns) {
    test::TempDir dir;
    std::size_t before = open_fds();
    for (int i = 0; i < 50; ++i) {
        switch (i % 4) {
        case 0:
            EXPECT_EQ(run(spec_for({"echo", "hi"})).output, "hi\n");
            break;
        case 1:
            EXPECT_FALSE(run(spec_for({"frobnicate-rio-no-such-program"})).started);
            break;
        case 2:
            EXPECT_FALSE(run(spec_for({"echo"}, dir / "nope")).started);
            break;
        case 3:
            EXPECT_EQ(run(spec_for({"sh", "-c", "echo x >&2; sleep 30 & exit 1"})).exit_code, 1);
            break;
        }
    }
    EXPECT_EQ(open_fds(), before);
    pid_t waited = ::waitpid(-1, nullptr, WNOHANG);
    int err = errno;
    EXPECT_EQ(waited, -1) << "every child has been reaped";
    EXPECT_EQ(err, ECHILD);
}

// The sandboxed start (DESIGN §19) keeps the runner's promises: signals default, only stdio
// inherited, its own session, the same errors, nothing leaked; and a sandbox that cannot be
// entered is an error, never a bare start. The hostile battery is tests/e2e/sandbox_e2e_test.
SandboxPolicy sandbox_in(const fs::path& project) {
    SandboxPolicy policy;
    policy.project = project;
    return policy;
}

TEST(ProcessRunnerSandboxed, KeepsTheRunnersPromises) {
    if (landlock_abi() < 1) GTEST_SKIP() << landlock_missing(landlock_abi());
    test::TempDir dir;
    std::size_t before = open_fds();
    int stray = ::open("/dev/null", O_RDONLY); // opened without O_CLOEXEC
    auto previous = std::signal(SIGPIPE, SIG_IGN);
    CommandSpec spec = spec_for({"sh", "-c",
                                 "ls /proc/self/fd | tr '\\n' ' '; ps -o sid= -p $$; echo "
                                 "$TMPDIR; echo x > \"$TMPDIR/x\" && echo tmp ok; yes | head -n 1; "
                                 "kill -PIPE $$"},
                                dir.path());
    spec.sandbox = sandbox_in(dir.path());
    CommandResult r = run(spec);
    std::signal(SIGPIPE, previous);
    ::close(stray);
    EXPECT_TRUE(r.started) << r.error;
    EXPECT_EQ(r.signal, SIGPIPE);
    EXPECT_EQ(r.output.substr(0, 8), "0 1 2 3 ") << r.output; // 3: ls's own listing
    EXPECT_NE(r.output.find("/rio-cmd-"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("tmp ok\ny\n"), std::string::npos) << r.output;
    auto tmp_line = r.output.find("/rio-cmd-");
    std::string tmpdir = r.output.substr(r.output.rfind('\n', tmp_line) + 1);
    tmpdir = tmpdir.substr(0, tmpdir.find('\n'));
    EXPECT_FALSE(fs::exists(tmpdir)) << "the private TMPDIR is removed afterwards";

    spec = spec_for({"frobnicate-rio-no-such-program"}, dir.path());
    spec.sandbox = sandbox_in(dir.path());
    r = run(spec);
    EXPECT_FALSE(r.started);
    EXPECT_EQ(r.error, "no such program: frobnicate-rio-no-such-program");

    spec = spec_for({"true"}, dir.path());
    spec.sandbox = sandbox_in(dir / "no-such-project");
    r = run(spec);
    EXPECT_FALSE(r.started) << "never run without the sandbox";
    EXPECT_NE(r.error.find("the sandbox could not be set up: the project folder"),
              std::string::npos)
        << r.error;
    EXPECT_EQ(open_fds(), before);
    EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1) << "every child has been reaped";
}

// The core finds a program with its own rights, which its commands may not have (a root
// core's commands lose root's capabilities, so a pyenv shim in a home owned by another uid is
// out of reach; a hidden place is out of reach for anyone). The command runs what execvp in
// its sandbox would: the next place on PATH, and when there is none, the place it was refused.
TEST(ProcessRunnerSandboxed, AProgramOnPathTheCommandCannotReachIsPassedOver) {
    if (landlock_abi() < 1) GTEST_SKIP() << landlock_missing(landlock_abi());
    test::TempDir dir;
    fs::create_directories(dir / "project");
    for (const char* place : {"hidden/bin", "open/bin"}) {
        fs::create_directories(dir / place);
        test::write_bytes(dir / place / "rio-test-prog",
                          std::string("#!/bin/sh\necho ") + place + "\n");
        fs::permissions(dir / place / "rio-test-prog", fs::perms::owner_all);
    }
    auto in_sandbox = [&](const std::string& path) {
        CommandSpec spec = spec_for({"rio-test-prog"}, dir / "project");
        spec.env = std::vector<std::string>{"PATH=" + path};
        spec.sandbox = sandbox_in(dir / "project");
        spec.sandbox->hidden.push_back(dir / "hidden");
        return run(spec);
    };
    const std::string hidden = (dir / "hidden/bin").string(), open = (dir / "open/bin").string();
    CommandResult r = in_sandbox(hidden + ":" + open + ":/usr/bin:/bin");
    EXPECT_TRUE(r.started) << r.error;
    EXPECT_EQ(r.output, "open/bin\n");

    r = in_sandbox(hidden + ":/usr/bin:/bin");
    EXPECT_FALSE(r.started);
    EXPECT_EQ(r.error, "cannot start rio-test-prog (" + hidden +
                           "/rio-test-prog): " + std::strerror(EACCES));
}

// Issue 45: with hosts a command gets a network namespace of its own whose one way out is the
// proxy at 127.0.0.1:3128 (the core's, its variables set): anything else is unreachable, a
// Unix socket is refused, and a proxy that cannot start means the command never runs.
TEST(ProcessRunnerSandboxed, WithHostsOnlyTheProxyIsReachable) {
    if (landlock_abi() < 1) GTEST_SKIP() << landlock_missing(landlock_abi());
    test::TempDir dir;
    std::size_t before = open_fds();
    const char* probe = "import os, socket\n"
                        "print(os.environ.get('HTTPS_PROXY'), os.environ.get('NO_PROXY'))\n"
                        "for family, where in ((socket.AF_INET, ('127.0.0.1', 3128)),"
                        " (socket.AF_INET, ('192.0.2.1', 80)), (socket.AF_UNIX, '/run/x')):\n"
                        "  try:\n"
                        "    s = socket.socket(family); s.settimeout(5); s.connect(where)\n"
                        "    print('reached', where)\n"
                        "  except OSError as e: print('refused', where, e.errno)\n";
    CommandSpec spec = spec_for({"/usr/bin/python3", "-I", "-S", "-c", probe}, dir.path());
    spec.env = std::vector<std::string>{"PATH=/usr/bin:/bin", "NO_PROXY=localhost",
                                        "https_proxy=http://corporate:8080"};
    spec.sandbox = sandbox_in(dir.path());
    spec.sandbox->hosts = {"localhost"};
    spec.sandbox->mount_namespace = true;
    CommandResult r = run(spec);
    if (namespace_support().kind == NamespaceKind::none) {
        EXPECT_FALSE(r.started);
        EXPECT_NE(r.error.find("cannot be limited to some hosts"), std::string::npos) << r.error;
        return;
    }
    ASSERT_TRUE(r.started) << r.error;
    EXPECT_TRUE(r.proxied);
    EXPECT_EQ(r.output, "http://127.0.0.1:3128 None\n"
                        "reached ('127.0.0.1', 3128)\n"
                        "refused ('192.0.2.1', 80) " +
                            std::to_string(ENETUNREACH) + "\nrefused /run/x " +
                            std::to_string(EACCES) + "\n");

    spec.sandbox->hosts = {"*"};
    r = run(spec);
    EXPECT_FALSE(r.started) << "never run without its proxy";
    EXPECT_NE(r.error.find("the proxy could not start: "), std::string::npos) << r.error;
    EXPECT_EQ(open_fds(), before);
    EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1) << "every child has been reaped";
}

} // namespace
} // namespace rio

namespace rio {
namespace {

// What a command leaves behind, decided on a snapshot of the process table.
TEST(LeftoverProcesses, SessionGroupDescendantsAndUnownedOrphans) {
    pid_t self = 100, leader = 200;
    std::vector<ProcessEntry> snapshot{
        {self, 1, self, 50, 'S'},        {leader, self, leader, leader, 'Z'}, // the command, exited
        {201, 1, leader, leader, 'S'},   // in its session and group (its parent died)
        {202, 201, 202, leader, 'S'},    // setpgid(0,0): still in the session
        {203, 202, 203, 203, 'S'},       // setsid: its own session, a child of 202
        {204, 203, 204, 203, 'S'},       // and what it started
        {205, self, 205, 205, 'S'},      // daemonized: handed to the subreaper
        {206, 205, 205, 205, 'S'},       // the daemon's own child
        {207, self, 207, 207, 'S'},      // another command of ours, still running
        {208, 207, 207, 207, 'S'},       // what that one started
        {209, 1, 209, 209, 'S'},         // somebody else's
        {210, 201, leader, leader, 'Z'}, // already dead
    };
    auto left = leftover_processes(snapshot, leader, self, true, {207});
    EXPECT_EQ(left, (std::vector<pid_t>{201, 202, 203, 204, 205, 206}));
    auto without = leftover_processes(snapshot, leader, self, false, {207});
    EXPECT_EQ(without, (std::vector<pid_t>{201, 202, 203, 204}))
        << "without the subreaper, orphans are init's";
}

TEST(LeftoverProcesses, TheSnapshotSeesThisProcess) {
    auto all = list_processes();
    auto me = std::find_if(all.begin(), all.end(),
                           [](const ProcessEntry& p) { return p.pid == ::getpid(); });
    ASSERT_NE(me, all.end());
    EXPECT_EQ(me->ppid, ::getppid());
    EXPECT_EQ(me->pgid, ::getpgrp());
    EXPECT_EQ(me->sid, ::getsid(0));
}

} // namespace
} // namespace rio
