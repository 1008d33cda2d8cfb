#include "host/process/spawn.hpp"

#include "host/sandbox/sandboxed_spawn.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

// glibc 2.36 ships this header without the extern "C" guards.
extern "C" {
#include <sys/pidfd.h>
}

namespace rio {
namespace {

struct SpawnActions {
    posix_spawn_file_actions_t actions;
    SpawnActions() { posix_spawn_file_actions_init(&actions); }
    ~SpawnActions() { posix_spawn_file_actions_destroy(&actions); }
    SpawnActions(const SpawnActions&) = delete;
    SpawnActions& operator=(const SpawnActions&) = delete;
};

struct SpawnAttr {
    posix_spawnattr_t attr;
    SpawnAttr() { posix_spawnattr_init(&attr); }
    ~SpawnAttr() { posix_spawnattr_destroy(&attr); }
    SpawnAttr(const SpawnAttr&) = delete;
    SpawnAttr& operator=(const SpawnAttr&) = delete;
};

Error cwd_error(const std::filesystem::path& cwd) {
    if (cwd.empty()) return make_error(ErrorCode::bad_request, "no working folder given");
    struct stat st {};
    if (::stat(cwd.c_str(), &st) != 0)
        return make_error(ErrorCode::not_found, "no such folder: " + cwd.string());
    return make_error(ErrorCode::bad_request, "not a folder: " + cwd.string());
}

bool is_folder(const std::filesystem::path& cwd) {
    struct stat st {};
    return !cwd.empty() && ::stat(cwd.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

int give(SpawnActions& fa, int fd, int target, int open_flags) {
    if (fd < 0)
        return posix_spawn_file_actions_addopen(&fa.actions, target, "/dev/null", open_flags, 0);
    return posix_spawn_file_actions_adddup2(&fa.actions, fd, target);
}

std::vector<std::string> current_environment() {
    std::vector<std::string> env;
    for (char** var = ::environ; *var; ++var)
        env.emplace_back(*var);
    return env;
}

Result<SpawnedProcess> spawn_confined(const SpawnSpec& spec) {
    auto started =
        spawn_sandboxed({spec.argv, spec.cwd, spec.env ? *spec.env : current_environment(),
                         spec.stdin_fd, spec.stdout_fd, spec.stderr_fd, *spec.sandbox});
    if (!started) return started.error();
    return SpawnedProcess{started->pid, started->pidfd};
}

} // namespace

// posix_spawnp rather than fork: nothing runs between fork and exec in a copy of a
// multi-threaded process, and glibc's vfork-style spawn does not copy the address space.
Result<SpawnedProcess> spawn_process(const SpawnSpec& spec) {
    if (spec.argv.empty()) return make_error(ErrorCode::bad_request, "no command given");
    const std::string& name = spec.argv[0];
    // The chdir happens in the child, where its failure reads as ENOENT, the same as a
    // missing program; checking first makes the message say which one it was.
    if (!is_folder(spec.cwd)) return cwd_error(spec.cwd);
    if (spec.sandbox) return spawn_confined(spec);
    auto cannot_start = [&](int err) {
        return make_error(ErrorCode::io_error, "cannot start " + name + ": " + std::strerror(err));
    };

    SpawnActions fa;
    int rc = give(fa, spec.stdin_fd, 0, O_RDONLY);
    if (rc == 0) rc = give(fa, spec.stdout_fd, 1, O_WRONLY);
    if (rc == 0) rc = give(fa, spec.stderr_fd, 2, O_WRONLY);
    // Whatever rio or a library opened without O_CLOEXEC stays out of the child.
    if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&fa.actions, 3);
    if (rc == 0) rc = posix_spawn_file_actions_addchdir_np(&fa.actions, spec.cwd.c_str());

    SpawnAttr sa;
    // Its own session, and so its own group (sid = pgid = pid): a stop reaches everything
    // the child started, and what leaves the group is still known by its session
    // (host/child_processes). No controlling terminal either, so nothing can prompt on the
    // user's. Signal dispositions are reset because rio ignores SIGPIPE, and ignored signals
    // survive exec: `yes | head` would otherwise never end.
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    if (rc == 0)
        rc = posix_spawnattr_setflags(&sa.attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF |
                                                    POSIX_SPAWN_SETSIGMASK);
    if (rc == 0) rc = posix_spawnattr_setsigdefault(&sa.attr, &all);
    if (rc == 0) rc = posix_spawnattr_setsigmask(&sa.attr, &none);
    if (rc != 0) return cannot_start(rc);

    std::vector<char*> argv;
    argv.reserve(spec.argv.size() + 1);
    for (const std::string& arg : spec.argv)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);

    std::vector<char*> envp;
    if (spec.env) {
        envp.reserve(spec.env->size() + 1);
        for (const std::string& var : *spec.env)
            envp.push_back(const_cast<char*>(var.c_str()));
        envp.push_back(nullptr);
    }
    pid_t pid = -1;
    rc = ::posix_spawnp(&pid, name.c_str(), &fa.actions, &sa.attr, argv.data(),
                        spec.env ? envp.data() : ::environ);
    if (rc == ENOENT && !is_folder(spec.cwd)) return cwd_error(spec.cwd); // removed meanwhile
    if (rc == ENOENT) return make_error(ErrorCode::not_found, "no such program: " + name);
    if (rc != 0) return cannot_start(rc);

    int pidfd = ::pidfd_open(pid, 0);
    if (pidfd < 0) {
        int err = errno;
        // Without a pidfd the exit cannot be awaited on the loop. The child has only just
        // started and SIGKILL cannot be caught, so this wait is short.
        ::kill(-pid, SIGKILL);
        while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        return make_error(ErrorCode::io_error, "cannot watch " + name + ": " + std::strerror(err));
    }
    return SpawnedProcess{pid, pidfd};
}

ReapedExit reap_exited(pid_t pid) {
    int status = 0;
    pid_t reaped;
    do {
        reaped = ::waitpid(pid, &status, WNOHANG);
    } while (reaped < 0 && errno == EINTR);
    ReapedExit exit;
    if (reaped > 0 && WIFEXITED(status)) exit.exit_code = WEXITSTATUS(status);
    if (reaped > 0 && WIFSIGNALED(status)) exit.signal = WTERMSIG(status);
    return exit;
}

} // namespace rio
