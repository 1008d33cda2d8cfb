#include "host/sandbox/sandboxed_spawn.hpp"

#include "host/sandbox/landlock.hpp"
#include "host/sandbox/prepared_sandbox.hpp"
#include "io/unique_fd.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <linux/close_range.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif

namespace rio {
namespace {

namespace fs = std::filesystem;

// What the child needs, all of it made before the clone: it may not allocate.
struct ChildPlan {
    char* const* paths; // where argv[0] may be, in PATH's order; null-terminated
    char* const* argv;
    char* const* envp;
    const char* cwd;
    int in_fd, out_fd, err_fd;
    int report_fd; // close-on-exec: the parent reads nothing when the exec happened
    const PreparedSandbox* sandbox;
};

enum class ChildStep : int { session, descriptors, cgroup, mount_namespace, folder, confine, exec };

struct ChildReport {
    ChildStep step;
    ConfineStep confine;
    int error;
    NamespaceFailure ns{};
    std::size_t path = 0; // of plan.paths, the one a failed exec names
};

// The kernel's struct sigaction, for rt_sigaction without glibc's wrapper (which refuses the
// signals glibc keeps for itself).
struct KernelSigaction {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)();
    std::uint64_t mask;
};

// The child's exit status: returning from the clone's function is its exit (glibc's clone
// makes the exit call). Nothing here is [[noreturn]]: before such a call ASan checks the stack,
// and this one, not a thread's, makes it warn on the core's stderr.
int child_fails(const ChildPlan& plan, ChildReport report) {
    (void)!::write(plan.report_fd, &report, sizeof report);
    return 127;
}

// As execvp: the next place on PATH when one cannot be run by the command. The core looked the
// places up with its own rights, which a root core's commands do not have (a pyenv shim in a
// home folder owned by another uid); the command runs what a shell in its sandbox would.
// Returns only when no place could be run: why.
ChildReport exec_first(const ChildPlan& plan) {
    ChildReport denied{ChildStep::exec, ConfineStep::none, 0};
    for (std::size_t i = 0; plan.paths[i]; ++i) {
        ::execve(plan.paths[i], plan.argv, plan.envp);
        int err = errno;
        if (err != EACCES && err != ENOENT && err != ENOTDIR)
            return {ChildStep::exec, ConfineStep::none, err, {}, i};
        if (err == EACCES && denied.error == 0)
            denied = {ChildStep::exec, ConfineStep::none, err, {}, i};
    }
    return denied.error ? denied : ChildReport{ChildStep::exec, ConfineStep::none, ENOENT, {}, 0};
}

// Runs in the child on its own stack, sharing the parent's memory until the exec: bare
// syscalls only. Signals arrive blocked (the parent blocked them around the clone); their
// handlers are reset first, so none of the parent's runs here, then they are unblocked.
int child_main(void* arg) {
    const ChildPlan& plan = *static_cast<const ChildPlan*>(arg);
    KernelSigaction dfl{};
    for (int sig = 1; sig < 65; ++sig)
        if (sig != SIGKILL && sig != SIGSTOP)
            ::syscall(SYS_rt_sigaction, sig, &dfl, nullptr, sizeof(std::uint64_t));
    if (::setsid() < 0) return child_fails(plan, {ChildStep::session, ConfineStep::none, errno});
    if (::dup2(plan.in_fd, 0) < 0 || ::dup2(plan.out_fd, 1) < 0 || ::dup2(plan.err_fd, 2) < 0)
        return child_fails(plan, {ChildStep::descriptors, ConfineStep::none, errno});
    // Whatever rio or a library opened without O_CLOEXEC stays out of the command (the
    // Landlock ruleset and the report pipe stay open until the exec).
    if (::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) != 0)
        return child_fails(plan, {ChildStep::descriptors, ConfineStep::none, errno});
    // First: nothing the command forks may be outside its cgroup. "0" is the writer itself.
    for (const UniqueFd& procs : plan.sandbox->cgroup_procs)
        if (::write(procs.fd, "0", 1) != 1)
            return child_fails(plan, {ChildStep::cgroup, ConfineStep::none, errno});
    // Before the chdir, so that a working folder below a place bound read-only is entered
    // through the bind.
    if (NamespaceFailure f = enter_namespace(plan.sandbox->ns); f.step != NamespaceStep::none)
        return child_fails(plan, {ChildStep::mount_namespace, ConfineStep::none, f.error, f});
    const PreparedNamespace& ns = plan.sandbox->ns;
    if (ns.kind != NamespaceKind::none && !ns.tmpfs_path.empty())
        if (int err = landlock_grant_beneath(plan.sandbox->ruleset.fd, ns.tmpfs_path.c_str(),
                                             plan.sandbox->abi))
            return child_fails(plan, {ChildStep::mount_namespace,
                                      ConfineStep::none,
                                      err,
                                      {NamespaceStep::tmpfs_rule, err, 0}});
    if (::chdir(plan.cwd) != 0)
        return child_fails(plan, {ChildStep::folder, ConfineStep::none, errno});
    if (ConfineFailure f = confine_self(*plan.sandbox); f.step != ConfineStep::none)
        return child_fails(plan, {ChildStep::confine, f.step, f.error});
    std::uint64_t none = 0;
    ::syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, nullptr, sizeof none);
    return child_fails(plan, exec_first(plan));
}

std::string path_of(const std::vector<std::string>& env) {
    for (const std::string& entry : env)
        if (entry.rfind("PATH=", 0) == 0) return entry.substr(5);
    return "/usr/local/bin:/usr/bin:/bin";
}

// Where argv[0] may be, as execvp would look, in order: looked up here because the child may
// not allocate. A name with a slash is the one place it names.
std::vector<std::string> candidates(const std::string& name, const fs::path& cwd,
                                    const std::vector<std::string>& env) {
    if (name.find('/') != std::string::npos) return {name[0] == '/' ? name : (cwd / name).string()};
    std::vector<std::string> found;
    std::string dirs = path_of(env);
    for (std::size_t start = 0; start <= dirs.size();) {
        std::size_t end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        fs::path dir = dirs.substr(start, end - start);
        fs::path candidate = (dir.empty() ? cwd : dir.is_absolute() ? dir : cwd / dir) / name;
        struct stat st {};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
            ::access(candidate.c_str(), X_OK) == 0 &&
            std::find(found.begin(), found.end(), candidate.string()) == found.end())
            found.push_back(candidate.string());
        start = end + 1;
    }
    return found;
}

std::vector<char*> pointers(const std::vector<std::string>& strings) {
    std::vector<char*> out;
    out.reserve(strings.size() + 1);
    for (const std::string& s : strings)
        out.push_back(const_cast<char*>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

Error child_error(const std::string& name, const std::vector<std::string>& paths,
                  const ChildReport& r, const PreparedSandbox& sandbox) {
    std::string why = std::strerror(r.error);
    switch (r.step) {
    case ChildStep::mount_namespace: {
        std::string what = to_string(r.ns.step);
        if ((r.ns.step == NamespaceStep::bind || r.ns.step == NamespaceStep::read_only) &&
            r.ns.which < sandbox.ns.binds.size())
            what += " (" + sandbox.ns.binds[r.ns.which].path + ")";
        return make_error(ErrorCode::refused,
                          "the sandbox could not be set up: " + what + " failed: " + why);
    }
    case ChildStep::confine:
        return make_error(ErrorCode::refused, std::string("the sandbox could not be set up: ") +
                                                  to_string(r.confine) + " failed: " + why);
    case ChildStep::exec:
        if (r.error == ENOENT) return make_error(ErrorCode::not_found, "no such program: " + name);
        if (r.path < paths.size() && paths[r.path] != name)
            return make_error(ErrorCode::io_error,
                              "cannot start " + name + " (" + paths[r.path] + "): " + why);
        return make_error(ErrorCode::io_error, "cannot start " + name + ": " + why);
    case ChildStep::folder:
        return make_error(ErrorCode::not_found, "cannot enter the working folder: " + why);
    case ChildStep::cgroup:
        return make_error(ErrorCode::refused,
                          "the sandbox could not be set up: joining the command's cgroup failed: " +
                              why);
    default:
        return make_error(ErrorCode::io_error, "cannot start " + name + ": " + why);
    }
}

constexpr std::size_t child_stack_size = std::size_t{256} * 1024;

} // namespace

Result<SandboxedProcess> spawn_sandboxed(const SandboxedStart& start) {
    if (start.argv.empty()) return make_error(ErrorCode::bad_request, "no command given");
    const std::string& name = start.argv[0];
    std::vector<std::string> paths = candidates(name, start.cwd, start.env);
    if (paths.empty()) return make_error(ErrorCode::not_found, "no such program: " + name);
    auto sandbox = prepare_sandbox(start.policy);
    if (!sandbox)
        return make_error(ErrorCode::refused,
                          "the sandbox could not be set up: " + sandbox.error().message);

    UniqueFd null(::open("/dev/null", O_RDWR | O_CLOEXEC));
    int pipe_fds[2];
    if (null.fd < 0 || ::pipe2(pipe_fds, O_CLOEXEC) != 0)
        return make_error(ErrorCode::io_error,
                          "cannot start " + name + ": " + std::strerror(errno));
    UniqueFd report_read(pipe_fds[0]), report_write(pipe_fds[1]);
    std::vector<char*> argv = pointers(start.argv), envp = pointers(start.env),
                       places = pointers(paths);
    std::string cwd = start.cwd.string();
    auto given = [&null](int fd) { return fd >= 0 ? fd : null.fd; };
    ChildPlan plan{places.data(),
                   argv.data(),
                   envp.data(),
                   cwd.c_str(),
                   given(start.stdin_fd),
                   given(start.stdout_fd),
                   given(start.stderr_fd),
                   report_write.fd,
                   &*sandbox};

    void* stack = ::mmap(nullptr, child_stack_size, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED)
        return make_error(ErrorCode::io_error,
                          "cannot start " + name + ": " + std::strerror(errno));
    // No handler of this process may run in the child while it shares this memory.
    sigset_t all, old;
    ::sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &old);
    int pidfd = -1;
    pid_t pid = ::clone(child_main, static_cast<char*>(stack) + child_stack_size,
                        CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, &plan, &pidfd);
    int clone_error = errno;
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    ::munmap(stack, child_stack_size);
    if (pid < 0)
        return make_error(ErrorCode::io_error,
                          "cannot start " + name + ": " + std::strerror(clone_error));

    // CLONE_VFORK: the child has exec'd or exited by now, so the report is complete.
    report_write.reset();
    ChildReport report{};
    if (::read(report_read.fd, &report, sizeof report) == sizeof report) {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        ::close(pidfd);
        return child_error(name, paths, report, *sandbox);
    }
    return SandboxedProcess{pid, pidfd};
}

} // namespace rio
