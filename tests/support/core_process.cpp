#include "tests/support/core_process.hpp"

#include "tests/support/environment.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace rio::test {

std::string core_binary() {
    // RIO_TEST_CORE runs the suites against another build's core (an older one, to show that
    // a new test fails there).
    if (const char* other = std::getenv("RIO_TEST_CORE"); other && *other) return other;
    return RIO_CORE_BINARY;
}

CoreProcess::CoreProcess(const std::vector<std::string>& args, const std::vector<std::string>& env,
                         const std::string& program, CoreMode mode) {
    int to_core[2], from_core[2];
    if (::pipe2(to_core, O_CLOEXEC) != 0 || ::pipe2(from_core, O_CLOEXEC) != 0)
        throw std::runtime_error("pipe failed");
    std::string err_path = (scratch_ / "stderr.txt").string();

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_core[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_core[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);

    std::vector<std::string> argv_s{program};
    const bool names_mode = std::find(args.begin(), args.end(), "--mode") != args.end();
    if (program == core_binary() && mode == CoreMode::build && !names_mode)
        argv_s.insert(argv_s.end(), {"--mode", "build"});
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    std::vector<std::string> env_s = merged_environment(env);
    std::vector<char*> envp;
    for (auto& e : env_s)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    int rc = ::posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(to_core[0]);
    ::close(from_core[1]);
    if (rc != 0) throw std::runtime_error("cannot start rio-core: " + std::string(strerror(rc)));
    stdio_ = LineClient(from_core[0], to_core[1]);
}

CoreProcess::~CoreProcess() {
    stdio_.close();
    if (!status_) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
}

std::string CoreProcess::stderr_text() const {
    return read_bytes(scratch_ / "stderr.txt");
}

std::string CoreProcess::wait_for_stderr(std::string_view needle,
                                         std::chrono::milliseconds deadline) {
    auto until = std::chrono::steady_clock::now() + deadline;
    for (;;) {
        std::string text = stderr_text();
        if (text.find(needle) != std::string::npos) return text;
        if (std::chrono::steady_clock::now() > until)
            throw std::runtime_error("rio-core never printed '" + std::string(needle) +
                                     "'; stderr:\n" + text);
        std::this_thread::sleep_for(5ms);
    }
}

std::optional<int> CoreProcess::wait_exit(std::chrono::milliseconds deadline) {
    if (status_) return status_;
    auto until = std::chrono::steady_clock::now() + deadline;
    for (;;) {
        int status = 0;
        pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            return status_;
        }
        if (std::chrono::steady_clock::now() > until) return std::nullopt;
        std::this_thread::sleep_for(2ms);
    }
}

} // namespace rio::test
