#include "tests/support/timed_run.hpp"

#include "tests/support/environment.hpp"

#include <chrono>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

namespace rio::test {

std::optional<double> timed_run(const std::vector<std::string>& args,
                                const std::vector<std::string>& env, int max_exit,
                                const std::string& output) {
    std::vector<std::string> argv_s = args, env_s = merged_environment(env);
    std::vector<char*> argv, envp;
    for (auto& a : argv_s)
        argv.push_back(a.data());
    for (auto& e : env_s)
        envp.push_back(e.data());
    argv.push_back(nullptr);
    envp.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    int status = 0;
    bool ran = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data()) == 0 &&
               waitpid(pid, &status, 0) == pid;
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    posix_spawn_file_actions_destroy(&actions);
    if (!ran || !WIFEXITED(status) || WEXITSTATUS(status) > max_exit) return std::nullopt;
    return elapsed.count();
}

} // namespace rio::test
