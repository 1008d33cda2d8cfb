// Commands in a kernel sandbox (issue 30, DESIGN §19). The battery: over a thousand hostile
// plan-mode commands, through the real process runner and sandbox and through a real
// rio-core's plan-mode turns, and afterwards no file changed anywhere (a checksummed project
// and canaries outside it), no connection accepted, no signal received, the core alive and
// answering, no command's process left. Then what read-only must still allow, what
// workspace-write allows and refuses, and the fallback where Landlock is missing or turned
// off. The figures it prints are docs/SECURITY.md's.
#include "host/process/child_processes.hpp"
#include "host/process/process_runner.hpp"
#include "host/sandbox/landlock.hpp"
#include "tests/support/agent_session.hpp"
#include "tests/support/environment.hpp"
#include "tests/support/script_steps.hpp"

#include <arpa/inet.h>
#include <atomic>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <netinet/in.h>
#include <set>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

const char* const python = "/usr/bin/python3";
const std::string secret = "BATTERY-SECRET-7f3a9c";

// ---- the world the hostile commands aim at --------------------------------------------

// Every entry below `root`: type, mode, times, size and bytes (or a link's target). What
// "nothing changed" is checked against; a created, removed, renamed, truncated, chmod'ed,
// touched or rewritten file changes it.
using Picture = std::map<std::string, std::string>;

Picture picture(const fs::path& root) {
    Picture out;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
        struct stat st {};
        if (::lstat(it->path().c_str(), &st) != 0) continue;
        std::string what =
            std::to_string(st.st_mode) + " " + std::to_string(st.st_size) + " " +
            std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + " " +
            std::to_string(st.st_ctim.tv_sec) + "." + std::to_string(st.st_ctim.tv_nsec);
        if (S_ISREG(st.st_mode)) what += " " + read_bytes(it->path());
        if (S_ISLNK(st.st_mode)) what += " -> " + fs::read_symlink(it->path()).string();
        out[fs::relative(it->path(), root).string()] = what;
    }
    return out;
}

std::string differences(const Picture& before, const Picture& after) {
    std::string out;
    for (const auto& [path, what] : after)
        if (!before.count(path))
            out += "  new: " + path + "\n";
        else if (before.at(path) != what)
            out += "  changed: " + path + "\n";
    for (const auto& [path, what] : before)
        if (!after.count(path)) out += "  gone: " + path + "\n";
    return out;
}

void git(const fs::path& repo, const std::string& args) {
    std::string command = "git -C '" + repo.string() +
                          "' -c user.email=t@example.com -c user.name=t " + args +
                          " >/dev/null 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
}

// A git project, canaries beside it, rio's own config folder and a home with keys; the
// project's own tests (for python3 -m unittest) write only to TMPDIR.
struct World {
    TempDir root;
    fs::path project = root / "project", outside = root / "outside", config = root / "config/rio",
             home = root / "home", tmp_canary;

    World() {
        write_bytes(project / "README.md", "# The project\n");
        write_bytes(project / "src/main.c", "int main(void) { return 0; }\n");
        write_bytes(project / "sub/dir/file.txt", "deep\n");
        write_bytes(project / ".rio/plan.md", "Plan carefully.\n");
        write_bytes(project / "tests/test_tmp.py",
                    "import os, tempfile, unittest\n\n"
                    "class TmpOnly(unittest.TestCase):\n"
                    "    def test_writes_to_tmpdir(self):\n"
                    "        with tempfile.NamedTemporaryFile('w', delete=False) as f:\n"
                    "            f.write('scratch')\n"
                    "        self.assertTrue(f.name.startswith(os.environ['TMPDIR']))\n"
                    "        self.assertEqual(open(f.name).read(), 'scratch')\n");
        write_bytes(project / "tests/__init__.py", "");
        git(project, "init -q");
        git(project, "add -A");
        git(project, "commit -q -m init");
        write_bytes(outside / "canary.txt", "outside canary\n");
        write_bytes(outside / "dir/nested.txt", "nested canary\n");
        write_bytes(config / "allow", "make test\n");
        write_bytes(config / "secret", secret + "\n");
        write_bytes(home / ".ssh/id_rsa", secret + "\n");
        fs::create_symlink(outside / "canary.txt", project / "link-out");
        tmp_canary = fs::temp_directory_path() / ("rio-battery-" + std::to_string(::getpid()));
    }

    Picture state() const {
        Picture all = picture(root.path());
        all["/tmp canary exists"] = fs::exists(tmp_canary) ? "yes" : "no";
        return all;
    }

    // Paths a write may aim at: files of the project, its .git and .rio, outside it, rio's
    // own, a symlink out of it, and names that do not exist yet.
    std::vector<std::string> targets() const {
        return {(project / "README.md").string(),
                (project / "src/main.c").string(),
                (project / ".git/config").string(),
                (project / ".git/HEAD").string(),
                (project / ".rio/plan.md").string(),
                (outside / "canary.txt").string(),
                (config / "allow").string(),
                (project / "link-out").string(),
                (project / "new.txt").string(),
                (project / "src/new.txt").string(),
                (project / ".git/hooks/pre-commit").string(),
                (outside / "new.txt").string(),
                tmp_canary.string()};
    }

    SandboxPolicy policy(SandboxProfile profile) const {
        SandboxPolicy p;
        p.profile = profile;
        p.project = project;
        p.hidden = {config, home / ".ssh"};
        p.cpu_seconds = 60;
        p.file_bytes = 64 << 20;
        p.new_processes = 4096;
        return p;
    }
};

// ---- what must not be reached -------------------------------------------------------------

int listen_socket(int family, int type, const sockaddr* addr, socklen_t len) {
    int fd = ::socket(family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, addr, len) != 0 || (type == SOCK_STREAM && ::listen(fd, 512) != 0)) {
        ::close(fd);
        return -1;
    }
    return fd;
}

int port_of(int fd) {
    sockaddr_in6 addr{};
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    return ntohs(addr.sin6_port); // sin_port sits at the same offset
}

// Servers nobody serves: a connection that got through waits in the accept queue, a datagram
// in the receive queue, so counting them afterwards needs no thread.
struct Listeners {
    int tcp = -1, tcp6 = -1, udp = -1, unix_stream = -1, abstract = -1;
    int tcp_port = 0, tcp6_port = 0, udp_port = 0;
    std::string unix_path, abstract_name;

    explicit Listeners(const fs::path& folder) {
        sockaddr_in v4{};
        v4.sin_family = AF_INET;
        v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        tcp = listen_socket(AF_INET, SOCK_STREAM, reinterpret_cast<sockaddr*>(&v4), sizeof v4);
        udp = listen_socket(AF_INET, SOCK_DGRAM, reinterpret_cast<sockaddr*>(&v4), sizeof v4);
        sockaddr_in6 v6{};
        v6.sin6_family = AF_INET6;
        v6.sin6_addr = in6addr_loopback;
        tcp6 = listen_socket(AF_INET6, SOCK_STREAM, reinterpret_cast<sockaddr*>(&v6), sizeof v6);
        tcp_port = port_of(tcp);
        udp_port = port_of(udp);
        tcp6_port = tcp6 >= 0 ? port_of(tcp6) : 0;
        unix_path = (folder / "listener.sock").string();
        sockaddr_un un{};
        un.sun_family = AF_UNIX;
        std::snprintf(un.sun_path, sizeof un.sun_path, "%s", unix_path.c_str());
        unix_stream =
            listen_socket(AF_UNIX, SOCK_STREAM, reinterpret_cast<sockaddr*>(&un), sizeof un);
        abstract_name = "rio-battery-" + std::to_string(::getpid());
        sockaddr_un ab{};
        ab.sun_family = AF_UNIX;
        std::memcpy(ab.sun_path + 1, abstract_name.data(), abstract_name.size());
        abstract = listen_socket(
            AF_UNIX, SOCK_STREAM, reinterpret_cast<sockaddr*>(&ab),
            static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + abstract_name.size()));
    }
    ~Listeners() {
        for (int fd : {tcp, tcp6, udp, unix_stream, abstract})
            if (fd >= 0) ::close(fd);
    }

    // Connections accepted and datagrams received since the start.
    int reached() const {
        int count = 0;
        for (int fd : {tcp, tcp6, unix_stream, abstract}) {
            for (int c; fd >= 0 && (c = ::accept4(fd, nullptr, nullptr, SOCK_CLOEXEC)) >= 0;) {
                ::close(c);
                ++count;
            }
        }
        char buffer[64];
        while (udp >= 0 && ::recv(udp, buffer, sizeof buffer, MSG_DONTWAIT) >= 0)
            ++count;
        return count;
    }
};

// Processes outside the sandbox that commands aim signals, ptrace and /proc at. They are
// handed to init (a double fork), so the battery's subreaper never counts them as its own.
// One counts every signal it can catch; one holds the secret in its environment.
struct Victims {
    pid_t counter = -1, holder = -1;
    std::atomic<int>* caught = nullptr; // in memory shared with the counter

    static void count(int) { shared->fetch_add(1); }
    static inline std::atomic<int>* shared = nullptr;

    Victims() {
        void* memory =
            ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        caught = new (memory) std::atomic<int>(0);
        counter = detached([this] {
            shared = caught;
            ::setpgid(0, 0);
            for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT,
                            SIGALRM, SIGPIPE})
                std::signal(sig, count);
            for (;;)
                ::pause();
        });
        holder = detached([] {
            std::string env = "BATTERY_SECRET=" + secret;
            char* envp[] = {env.data(), nullptr};
            char* argv[] = {const_cast<char*>("sleep"), const_cast<char*>("600"), nullptr};
            ::execve("/bin/sleep", argv, envp);
            ::_exit(127);
        });
    }
    ~Victims() {
        for (pid_t pid : {counter, holder})
            if (pid > 0) ::kill(pid, SIGKILL);
    }

    // The pid of a grandchild running `body`, whose parent has gone.
    static pid_t detached(const std::function<void()>& body) {
        int fds[2];
        if (::pipe(fds) != 0) return -1;
        pid_t middle = ::fork();
        if (middle == 0) {
            pid_t pid = ::fork();
            if (pid == 0) {
                ::close(fds[0]);
                ::close(fds[1]);
                body();
                ::_exit(0);
            }
            (void)!::write(fds[1], &pid, sizeof pid);
            ::_exit(0);
        }
        ::close(fds[1]);
        pid_t pid = -1;
        (void)!::read(fds[0], &pid, sizeof pid);
        ::close(fds[0]);
        ::waitpid(middle, nullptr, 0);
        return pid;
    }

    static char state(pid_t pid) {
        std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        std::getline(in, line);
        auto paren = line.rfind(')');
        return paren == std::string::npos || paren + 2 >= line.size() ? '?' : line[paren + 2];
    }
    // Alive, not stopped, not a zombie.
    static bool untouched(pid_t pid) {
        char s = state(pid);
        return s == 'S' || s == 'R';
    }
    std::string limits() const {
        std::ifstream in("/proc/" + std::to_string(counter) + "/limits");
        return std::string(std::istreambuf_iterator<char>(in), {});
    }
};

// Processes that carry `token` in their environment and are still running.
std::vector<pid_t> running_with(const std::string& token, pid_t except = -1) {
    std::vector<pid_t> out;
    for (const ProcessEntry& p : list_processes()) {
        if (p.pid == except || p.state == 'Z') continue;
        std::ifstream in("/proc/" + std::to_string(p.pid) + "/environ");
        std::string env(std::istreambuf_iterator<char>(in), {});
        if (env.find(token) != std::string::npos) out.push_back(p.pid);
    }
    return out;
}

// Polls until no process carries `token` (killed processes take a moment to be gone).
std::vector<pid_t> left_behind(const std::string& token, pid_t except = -1) {
    std::vector<pid_t> left;
    for (int i = 0; i < 500; ++i) {
        left = running_with(token, except);
        if (left.empty()) break;
        std::this_thread::sleep_for(10ms);
    }
    return left;
}

// ---- the hostile commands -------------------------------------------------------------

struct Attempt {
    std::string technique;
    std::vector<std::string> argv;
    std::string must_not_print; // a marker the command prints only if it got through
    int max_abi = 0;            // run under at most this Landlock ABI (0: the kernel's)
    std::string cwd;            // where it runs, project-relative ("": the project)
};

std::string replaced(std::string text, const std::map<std::string, std::string>& values) {
    for (const auto& [key, value] : values)
        for (std::size_t at; (at = text.find(key)) != std::string::npos;)
            text.replace(at, key.size(), value);
    return text;
}

Attempt sh(std::string technique, const std::string& script, std::string marker = "ESCAPED") {
    return {std::move(technique), {"sh", "-c", script}, std::move(marker), 0, ""};
}
Attempt py(std::string technique, const std::string& code, std::string marker = "ESCAPED") {
    return {std::move(technique), {python, "-I", "-S", "-c", code}, std::move(marker), 0, ""};
}

// Writes, in every way a shell, coreutils and perl offer, to one target as the command names
// it: absolute, or relative to the folder it runs in (`cwd`, project-relative).
std::vector<Attempt> shell_writes_to(const std::string& target, const std::string& cwd = "") {
    const std::vector<std::pair<const char*, const char*>> shell{
        {"redirect", "echo pwned > '@T@'"},
        {"append", "echo pwned >> '@T@'"},
        {"clobber", "set -C; echo pwned >| '@T@'"},
        {"heredoc", "cat > '@T@' <<EOF\npwned\nEOF"},
        {"tee", "echo pwned | tee '@T@'"},
        {"tee -a", "echo pwned | tee -a '@T@'"},
        {"dd", "echo pwned | dd of='@T@' status=none"},
        {"dd notrunc", "echo pwned | dd of='@T@' conv=notrunc status=none"},
        {"cp", "echo pwned > \"$TMPDIR/s\" && cp \"$TMPDIR/s\" '@T@'"},
        {"mv in", "echo pwned > \"$TMPDIR/s\" && mv -f \"$TMPDIR/s\" '@T@'"},
        {"install", "echo pwned > \"$TMPDIR/s\" && install -m 755 \"$TMPDIR/s\" '@T@'"},
        {"sed -i", "sed -i 's/^/pwned/' '@T@'"},
        {"truncate", "truncate -s 0 '@T@'"},
        {"touch", "touch '@T@'"},
        {"touch -d", "touch -d 2001-01-01 '@T@'"},
        {"chmod", "chmod 777 '@T@'"},
        {"chown", "chown \"$(id -u):$(id -g)\" '@T@'"},
        {"rm", "rm -f '@T@'"},
        {"mv out", "mv '@T@' \"$TMPDIR/moved\""},
        {"mv beside", "mv '@T@' '@T@.moved'"},
        {"ln (hard link out, then write)", "ln '@T@' \"$TMPDIR/h\" && echo pwned >> \"$TMPDIR/h\""},
        {"link (then write)", "link '@T@' \"$TMPDIR/l\" && echo pwned >> \"$TMPDIR/l\""},
        {"ln -sf", "ln -sf /etc/passwd '@T@'"},
        {"mkfifo", "mkfifo '@T@'"},
        {"mknod p", "mknod '@T@' p"},
        {"mkdir", "mkdir '@T@'"},
        {"/proc/self/fd reopen", "exec 3<'@T@'; echo pwned > /proc/self/fd/3"},
        {"inherited descriptor", "exec 3<'@T@'; echo pwned >&3"},
        {"/proc/self/root", "echo pwned > /proc/self/root'@T@'"},
        {"awk", "awk 'BEGIN { print \"pwned\" > \"@T@\" }'"},
        {"sort -o", "sort -o '@T@' '@T@'"},
        {"find -delete", "find '@T@' -delete"},
        {"tar -x",
         "cd \"$TMPDIR\" && echo pwned > x && tar cf a.tar x && tar -C \"$(dirname '@T@')\" -xf "
         "a.tar"},
        {"setsid, late write", "setsid sh -c 'sleep 0.3; echo pwned > \"@T@\"' &"},
        {"double fork, late write", "( sh -c 'sleep 0.3; echo pwned > \"@T@\"' & ) &"},
        {"nohup", "nohup sh -c 'echo pwned > \"@T@\"' >/dev/null 2>&1 & wait"},
        {"split and reassemble", "split -b 4 '@T@' \"$TMPDIR/p\" && cat \"$TMPDIR\"/p* > '@T@'"},
        {"perl open", "perl -e 'open(F, \">>\", \"@T@\") or die; print F \"pwned\"'"},
        {"perl rename", "perl -e 'rename(\"@T@\", \"@T@.pl\") or die'"},
        {"perl utime", "perl -e 'utime(0, 0, \"@T@\") or die'"},
    };
    std::vector<Attempt> out;
    for (const auto& [name, code] : shell) {
        out.push_back(sh(name, replaced(code, {{"@T@", target}})));
        out.back().cwd = cwd;
    }
    return out;
}

// Writes in every way Python offers, one command per way, each trying every target.
std::vector<Attempt> python_writes_to(const std::vector<std::string>& targets) {
    const std::vector<std::pair<const char*, const char*>> python_code{
        {"python open w", "open(t, 'w').write('pwned')"},
        {"python open r+", "open(t, 'r+').write('pwned')"},
        {"python O_RDONLY|O_TRUNC", "os.open(t, os.O_RDONLY | os.O_TRUNC)"},
        {"python truncate", "os.truncate(t, 0)"},
        {"python utime", "os.utime(t, (0, 0))"},
        {"python chmod", "os.chmod(t, 0o777)"},
        {"python setxattr", "os.setxattr(t, 'user.pwned', b'1')"},
        {"python rename", "os.rename(t, t + '.py')"},
        {"python unlink", "os.unlink(t)"},
        {"python /proc/self/fd",
         "fd = os.open(t, os.O_RDONLY); open('/proc/self/fd/%d' % fd, 'w').write('pwned')"},
        {"python symlink", "os.symlink('/etc/passwd', t)"},
        {"python link out",
         "h = os.environ['TMPDIR'] + '/h'; os.link(t, h); open(h, 'a').write('pwned')"},
        {"python mkfifo", "os.mkfifo(t)"},
        {"python FS_IOC_SETFLAGS",
         "fd = os.open(t, os.O_RDONLY); fcntl.ioctl(fd, 0x40086602, struct.pack('l', 0x80))"},
    };
    std::string list;
    for (const std::string& t : targets)
        list += "'" + t + "', ";
    std::vector<Attempt> out;
    for (const auto& [name, code] : python_code)
        out.push_back(py(name, "import fcntl, os, struct\nfor t in [" + list +
                                   "]:\n    try:\n        " + code +
                                   "\n        print('ESCAPED', t)\n    except Exception:\n"
                                   "        pass"));
    return out;
}

// What needs no target: git in the project, the network, other processes, secrets.
std::vector<Attempt> reaching_out(const World& w, const Listeners& l, const Victims& v) {
    std::map<std::string, std::string> values{{"@PORT6@", std::to_string(l.tcp6_port)},
                                              {"@UPORT@", std::to_string(l.udp_port)},
                                              {"@PORT@", std::to_string(l.tcp_port)},
                                              {"@USOCK@", l.unix_path},
                                              {"@ASOCK@", l.abstract_name},
                                              {"@VICTIM@", std::to_string(v.counter)},
                                              {"@HOLDER@", std::to_string(v.holder)},
                                              {"@OUTSIDE@", w.outside.string()},
                                              {"@CONFIG@", w.config.string()},
                                              {"@HOME@", w.home.string()},
                                              {"@ROOT@", w.root.path().string()}};
    const std::vector<std::pair<const char*, const char*>> git_shell{
        {"git commit", "git commit --allow-empty -q -m pwned"},
        {"git add", "echo x >> README.md; git add -A"},
        {"git config fsmonitor", "git config core.fsmonitor 'touch @OUTSIDE@/pwned'"},
        {"git tag", "git tag pwned"},
        {"git branch", "git branch pwned"},
        {"git checkout -b", "git checkout -q -b pwned"},
        {"git stash", "git stash -q"},
        {"git gc", "git gc -q --prune=now"},
        {"git update-index", "git update-index --refresh"},
        {"git notes", "git notes add -m pwned"},
        {"git rm", "git rm -q README.md"},
        {"git worktree", "git worktree add -q \"$TMPDIR/wt\""},
        {"git init", "git init -q"},
        {"git remote add", "git remote add pwned http://127.0.0.1:@PORT@/x"},
        {"git clone out", "git clone -q . @OUTSIDE@/clone"},
        {"git status with index refresh forced", "GIT_OPTIONAL_LOCKS=1 git status"},
    };
    const std::vector<std::pair<const char*, const char*>> network{
        {"curl tcp", "curl -s -m 3 http://127.0.0.1:@PORT@/ && echo ESCAPED"},
        {"bash /dev/tcp", "bash -c 'exec 3<>/dev/tcp/127.0.0.1/@PORT@' && echo ESCAPED"},
        {"curl unix socket", "curl -s -m 3 --unix-socket @USOCK@ http://x/ && echo ESCAPED"},
        {"git ls-remote", "git ls-remote http://127.0.0.1:@PORT@/x && echo ESCAPED"},
    };
    const std::vector<std::pair<const char*, const char*>> network_py{
        {"python tcp", "import socket; socket.create_connection(('127.0.0.1', @PORT@), 3); "
                       "print('ESCAPED')"},
        {"python tcp6", "import socket; socket.create_connection(('::1', @PORT6@), 3); "
                        "print('ESCAPED')"},
        {"python udp", "import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); "
                       "s.sendto(b'x', ('127.0.0.1', @UPORT@)); print('ESCAPED')"},
        {"python unix socket (the core's)",
         "import socket; s = socket.socket(socket.AF_UNIX); s.connect('@USOCK@'); "
         "print('ESCAPED')"},
        {"python abstract socket",
         "import socket; s = socket.socket(socket.AF_UNIX); s.connect('\\0@ASOCK@'); "
         "print('ESCAPED')"},
        {"python netlink", "import socket; socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0); "
                           "print('ESCAPED')"},
        {"python packet", "import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW); "
                          "print('ESCAPED')"},
        {"python bind and listen",
         "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); "
         "print('ESCAPED')"},
        {"python urllib",
         "import urllib.request; urllib.request.urlopen('http://127.0.0.1:@PORT@', "
         "timeout=3); print('ESCAPED')"},
    };
    const std::vector<std::pair<const char*, const char*>> processes{
        {"kill -TERM", "kill -TERM @VICTIM@"},
        {"kill -USR1", "kill -USR1 @VICTIM@"},
        {"kill -KILL", "kill -KILL @VICTIM@"},
        {"kill -STOP", "kill -STOP @VICTIM@"},
        {"kill the group", "kill -HUP -@VICTIM@"},
        {"kill -WINCH everything", "kill -WINCH -1"},
        {"/bin/kill", "/bin/kill -s INT @VICTIM@"},
        {"kill the parent (the core)", "kill -TERM $PPID"},
        {"prlimit another process", "prlimit --pid @VICTIM@ --nofile=1:1"},
        {"read another's environment",
         "cat /proc/@HOLDER@/environ; tr '\\0' '\\n' < /proc/@HOLDER@/environ"},
        {"read another's memory", "dd if=/proc/@HOLDER@/mem bs=1 count=1 skip=4096 status=none"},
    };
    const std::vector<std::pair<const char*, const char*>> processes_py{
        {"python os.kill", "import os, signal; os.kill(@VICTIM@, signal.SIGUSR2)"},
        {"python ptrace attach",
         "import ctypes; r = ctypes.CDLL(None, use_errno=True).ptrace(16, @VICTIM@, 0, 0); "
         "print('ESCAPED' if r == 0 else 'refused')"},
        {"python process_vm_writev", "import ctypes; libc = ctypes.CDLL(None, use_errno=True); b = "
                                     "ctypes.create_string_buffer(8); "
                                     "iov = (ctypes.c_void_p * 2)(ctypes.addressof(b), 8); "
                                     "r = libc.process_vm_writev(@VICTIM@, iov, 1, iov, 1, 0); "
                                     "print('ESCAPED' if r > 0 else 'refused')"},
        {"python /proc/pid/mem write",
         "f = open('/proc/@VICTIM@/mem', 'r+b'); f.seek(4096); f.write(b'x'); print('ESCAPED')"},
        {"python TIOCSTI",
         "import fcntl, termios, errno\ntry:\n    fcntl.ioctl(0, termios.TIOCSTI, b'x')\n"
         "    print('ESCAPED')\nexcept OSError as e:\n    print('TIOCSTI', "
         "errno.errorcode[e.errno])"},
        {"python pidfd_open of the core",
         "import os, signal; os.pidfd_open(os.getppid()); os.kill(os.getppid(), 0); "
         "print('ESCAPED')"},
    };
    const std::vector<std::pair<const char*, const char*>> secrets{
        {"cat rio's config", "cat @CONFIG@/secret"},
        {"cat ~/.ssh", "cat @HOME@/.ssh/id_rsa"},
        {"grep -r everything", "grep -r BATTERY-SECRET @ROOT@"},
        {"copy then read", "cp @CONFIG@/secret \"$TMPDIR/s\"; cat \"$TMPDIR/s\""},
        {"symlink then read", "ln -s @HOME@/.ssh/id_rsa \"$TMPDIR/k\"; cat \"$TMPDIR/k\""},
        {"tar the folder", "tar cf - @CONFIG@ | tr -cd '[:print:]'"},
    };
    std::vector<Attempt> out;
    for (const char* cwd : {".", "src"})
        for (const auto& [name, code] : git_shell)
            out.push_back(sh(name, std::string("cd ") + cwd + " && " + replaced(code, values)));
    for (int round = 0; round < 3; ++round) {
        for (const auto& [name, code] : network)
            out.push_back(sh(name, replaced(code, values)));
        for (const auto& [name, code] : network_py)
            out.push_back(py(name, replaced(code, values)));
        for (const auto& [name, code] : processes)
            out.push_back(sh(name, replaced(code, values), secret));
        for (const auto& [name, code] : processes_py)
            out.push_back(py(name, replaced(code, values), "ESCAPED"));
    }
    for (int round = 0; round < 2; ++round)
        for (const auto& [name, code] : secrets)
            out.push_back(sh(name, replaced(code, values), secret));
    return out;
}

// What each older ABI must still refuse (made up for by seccomp): truncation before 3,
// signals before 6, and a sample of the rest.
std::vector<Attempt> on_older_abis(const World& w, const Listeners& l, const Victims& v) {
    std::vector<Attempt> sample;
    for (const std::string& target :
         {(w.project / "README.md").string(), (w.outside / "canary.txt").string(),
          (w.project / "new.txt").string()}) {
        for (Attempt& a : shell_writes_to(target))
            if (a.technique == "redirect" || a.technique == "truncate" || a.technique == "chmod" ||
                a.technique == "mv out" || a.technique == "rm" ||
                a.technique == "ln (hard link out, then write)" ||
                a.technique == "/proc/self/fd reopen")
                sample.push_back(std::move(a));
    }
    for (Attempt& a : python_writes_to(w.targets()))
        if (a.technique == "python O_RDONLY|O_TRUNC" || a.technique == "python truncate" ||
            a.technique == "python /proc/self/fd")
            sample.push_back(std::move(a));
    std::set<std::string> taken; // reaching_out repeats its attempts: each once here
    for (Attempt& a : reaching_out(w, l, v)) {
        const std::string& t = a.technique;
        bool wanted = t.find("kill") != std::string::npos || t == "python tcp" ||
                      t == "python TIOCSTI" || t == "python ptrace attach" ||
                      t.find("pidfd") != std::string::npos;
        if (wanted && taken.insert(t).second) sample.push_back(std::move(a));
    }
    std::vector<Attempt> out;
    for (int abi = 1; abi <= 6; ++abi)
        for (Attempt a : sample) {
            a.max_abi = abi;
            a.technique += " (ABI " + std::to_string(abi) + ")";
            out.push_back(std::move(a));
        }
    return out;
}

// Runs every attempt through the process runner and the helper, four at a time, the test
// process acting as the core: a subreaper, so nothing a command leaves escapes the kill.
std::vector<CommandResult> run_sandboxed(const std::vector<Attempt>& attempts, const World& w,
                                         SandboxPolicy policy, const std::string& token) {
    asio::io_context io;
    ChildProcesses& children = asio::use_service<ChildProcesses>(io);
    EXPECT_TRUE(children.become_subreaper());
    std::vector<std::string> env = merged_environment({"BATTERY_TOKEN=" + token});
    std::vector<CommandResult> results(attempts.size());
    std::size_t next = 0, running = 0;
    std::function<void()> launch = [&] {
        for (; running < 4 && next < attempts.size(); ++next, ++running) {
            CommandSpec spec;
            spec.argv = attempts[next].argv;
            spec.cwd = w.project / attempts[next].cwd;
            spec.timeout = 30s;
            spec.kill_grace = 1s;
            spec.env = env;
            spec.sandbox = policy;
            spec.sandbox->max_abi = attempts[next].max_abi;
            start_command(io, spec, [&, i = next](CommandResult r) {
                results[i] = std::move(r);
                --running;
                launch();
            });
        }
        // The subreaper's wait for SIGCHLD would keep io.run() going.
        if (running == 0) children.stop_reaping();
    };
    launch();
    io.run();
    ::prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
    return results;
}

TEST(SandboxE2E, HostileBatteryInReadOnlyChangesNothingReachesNothingLeavesNothing) {
    int abi = landlock_abi();
    if (abi < 1) GTEST_SKIP() << landlock_missing(abi) << " (SandboxE2E.Fallback* cover this)";
    World w;
    Listeners listeners(w.root.path());
    ASSERT_GE(listeners.tcp, 0);
    ASSERT_GE(listeners.unix_stream, 0);
    Victims victims;
    ASSERT_TRUE(Victims::untouched(victims.counter) && Victims::untouched(victims.holder));
    const std::string limits_before = victims.limits();

    std::vector<Attempt> attempts;
    const std::vector<std::string> targets = w.targets();
    for (std::size_t t = 0; t < targets.size(); ++t) {
        const std::string& target = targets[t];
        for (Attempt& a : shell_writes_to(target))
            attempts.push_back(std::move(a));
        if (t % 2 == 1) continue; // every other target again, by a path relative to src/
        std::string from_src = fs::path(target).lexically_relative(w.project / "src").string();
        for (Attempt& a : shell_writes_to(from_src, "src")) {
            a.technique += " (relative)";
            attempts.push_back(std::move(a));
        }
    }
    for (Attempt& a : python_writes_to(w.targets()))
        attempts.push_back(std::move(a));
    for (Attempt& a : reaching_out(w, listeners, victims))
        attempts.push_back(std::move(a));
    for (Attempt& a : on_older_abis(w, listeners, victims))
        attempts.push_back(std::move(a));
#ifdef RIO_SANITIZED
    // The helper starts under the sanitizers' runtime: every fourth attempt keeps the figure's
    // shape in a quarter of the time.
    std::vector<Attempt> sample;
    for (std::size_t i = 0; i < attempts.size(); i += 4)
        sample.push_back(attempts[i]);
    attempts = std::move(sample);
#endif
    std::set<std::string> techniques;
    for (const Attempt& a : attempts)
        techniques.insert(a.technique.substr(0, a.technique.find(" (")));

    SandboxPolicy policy = w.policy(SandboxProfile::read_only);
    policy.guarded = {::getpid(), victims.counter, victims.holder};
    const Picture before = w.state();
    const std::string token = "battery-" + std::to_string(::getpid());
    auto started_at = std::chrono::steady_clock::now();
    std::vector<CommandResult> results = run_sandboxed(attempts, w, policy, token);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_at).count();

    std::size_t ran = 0, printed = 0;
    for (std::size_t i = 0; i < attempts.size(); ++i) {
        const CommandResult& r = results[i];
        EXPECT_TRUE(r.started) << attempts[i].technique << ": " << r.error;
        ran += r.started;
        bool leaked = r.output.find(attempts[i].must_not_print) != std::string::npos;
        printed += leaked;
        EXPECT_FALSE(leaked) << attempts[i].technique << " got through:\n" << r.output;
        if (attempts[i].technique.rfind("python TIOCSTI", 0) == 0) {
            EXPECT_NE(r.output.find("TIOCSTI EPERM"), std::string::npos) << r.output;
        }
        EXPECT_FALSE(r.timed_out) << attempts[i].technique;
    }
    const Picture after = w.state();
    int reached = listeners.reached();
    std::vector<pid_t> left = left_behind(token);
    bool victims_untouched = Victims::untouched(victims.counter) &&
                             Victims::untouched(victims.holder) && victims.caught->load() == 0 &&
                             victims.limits() == limits_before;
    std::printf("sandbox battery (read-only, Landlock ABI %d and capped at 1-6): %zu commands, "
                "%zu techniques, %zu ran; %zu files changed, %d connections or datagrams "
                "received, %d signals caught, %zu processes left, %zu secrets or escapes "
                "printed; %.1f s\n",
                abi, attempts.size(), techniques.size(), ran,
                after == before ? std::size_t(0) : std::size_t(1), reached, victims.caught->load(),
                left.size(), printed, seconds);
#ifndef RIO_SANITIZED
    EXPECT_GE(attempts.size(), 1000u);
#endif
    EXPECT_GE(techniques.size(), 40u);
    EXPECT_EQ(after, before) << differences(before, after);
    EXPECT_EQ(reached, 0);
    EXPECT_TRUE(victims_untouched) << "caught " << victims.caught->load() << " signals; state "
                                   << Victims::state(victims.counter);
    EXPECT_TRUE(left.empty()) << left.size() << " processes outlived their command";
    for (pid_t pid : left)
        ::kill(pid, SIGKILL);
}

// ---- through a real rio-core ----------------------------------------------------------------

std::vector<Json> results_until_done(AgentSession& s, std::chrono::milliseconds deadline = 120s) {
    std::vector<Json> results;
    for (const Json& e : s.client().events_until("agent.done", deadline))
        if (e["event"] == "agent.tool_result") results.push_back(e["params"]);
    return results;
}

// What the command printed: its result without the "$ argv" line that repeats the command.
std::string output_of(const Json& result) {
    std::string content = result["content"];
    return content.substr(std::min(content.size(), content.find('\n') + 1));
}

Json command(const std::string& script, const std::string& cwd = ".") {
    return tool("run_command", {{"argv", {"sh", "-c", script}}, {"cwd", cwd}});
}

// Canaries outside the session's project: a folder beside it, and rio's own config.
struct SessionWorld {
    TempDir outside;
    Picture of(AgentSession& s) const {
        Picture all;
        for (const auto& [path, what] : picture(s.project().path()))
            all["project/" + path] = what;
        for (const auto& [path, what] : picture(outside.path()))
            all["outside/" + path] = what;
        for (const auto& [path, what] : picture(s.home().path() / "config"))
            all["config/" + path] = what;
        return all;
    }
};

void make_git_project(const AgentSession& s) {
    write_bytes(s.project() / "README.md", "# The project\n");
    write_bytes(s.project() / "src/main.c", "int main(void) { return 0; }\n");
    git(s.project().path(), "init -q");
    git(s.project().path(), "add -A");
    git(s.project().path(), "commit -q -m init");
}

// The battery's share that needs a core: its own Unix socket, its pid as the commands'
// parent, its environment, a hanging command's timeout — in plan-mode turns of a real
// rio-core. Afterwards it answers, and everything is as it was.
TEST(SandboxE2E, HostilePlanModeTurnsLeaveTheCoreAnsweringAndEverythingAsItWas) {
    TempDir scratch;
    SessionWorld w;
    write_bytes(w.outside / "canary.txt", "outside canary\n");
    Listeners listeners(scratch.path());
    const std::string core_socket = (scratch / "core.sock").string();
    const std::string token = "core-battery-" + std::to_string(::getpid());

    std::vector<Json> calls;
    std::vector<std::string> targets{"README.md",
                                     "src/main.c",
                                     ".git/config",
                                     ".git/hooks/pre-commit",
                                     (w.outside / "canary.txt").string(),
                                     "$XDG_CONFIG_HOME/rio/allow",
                                     "new.txt"};
    for (const std::string& target : targets)
        for (const Attempt& a : shell_writes_to(target))
            if (a.technique == "redirect" || a.technique == "append" || a.technique == "cp" ||
                a.technique == "mv in" || a.technique == "truncate" || a.technique == "touch" ||
                a.technique == "chmod" || a.technique == "rm" ||
                a.technique == "/proc/self/fd reopen" || a.technique == "setsid, late write")
                calls.push_back(command(a.argv[2]));
    for (const char* script : {
             "git commit --allow-empty -q -m pwned",
             "git config core.fsmonitor 'touch pwned'",
             "git status; git log --oneline | head -1",
             "kill -KILL $PPID",
             "kill -STOP $PPID",
             "kill -TERM -$(ps -o pgid= $PPID | tr -d ' ')",
             "cat /proc/$PPID/environ | tr '\\0' '\\n' | grep RIO_BATTERY_SECRET",
             "dd if=/proc/$PPID/mem bs=1 count=1 skip=4096 status=none && echo ESCAPED",
             "cat $XDG_CONFIG_HOME/rio/allow; cat $XDG_DATA_HOME/rio/secrets/* 2>&1",
             "setsid sh -c 'sleep 30' & ( sleep 30 & ) ; exit 0",
         })
        calls.push_back(command(script));
    for (const std::string& code : std::vector<std::string>{
             "import socket; s = socket.socket(socket.AF_UNIX); s.connect('" + core_socket +
                 "'); s.sendall(b'{\"id\":1,\"op\":\"agent.mode.set\",\"params\":{\"mode\":"
                 "\"build\"}}\\n'); print('ESCAPED', s.recv(200))",
             "import socket; socket.create_connection(('127.0.0.1', " +
                 std::to_string(listeners.tcp_port) + "), 3); print('ESCAPED')",
             "import ctypes, os; r = ctypes.CDLL(None).ptrace(16, os.getppid(), 0, 0); "
             "print('ESCAPED' if r == 0 else 'refused')",
             "import os, signal; os.kill(os.getppid(), signal.SIGKILL); print('ESCAPED')",
         })
        calls.push_back(tool("run_command", {{"argv", {python, "-I", "-S", "-c", code}}}));
    // A command that hangs, with what it started: the timeout ends the whole tree.
    calls.push_back(
        tool("run_command", {{"argv", {"sh", "-c", "setsid sleep 300 & sleep 300 & sleep 300"}},
                             {"timeout_s", 1}}));
    write_bytes(scratch / "script.json",
                Json{{"steps", Json::array({step(calls), text_step("done")})}}.dump());

    auto session =
        AgentSession::with_provider({"--provider", "script:" + (scratch / "script.json").string(),
                                     "--stdio", "--listen", "unix:" + core_socket},
                                    {"RIO_BATTERY_SECRET=" + secret, "BATTERY_TOKEN=" + token});
    AgentSession& s = *session;
    make_git_project(s);
    write_bytes(s.config() / "allow", "sh\n"); // an allow rule changes nothing in plan mode
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    ASSERT_TRUE(s.sandboxed()) << s.request("agent.status").dump();
    const Picture before = w.of(s);

    s.send("do your worst");
    std::vector<Json> results = results_until_done(s);
    ASSERT_EQ(results.size(), calls.size());
    std::size_t confined = 0;
    for (const Json& r : results) {
        std::string out = output_of(r);
        EXPECT_EQ(out.find("ESCAPED"), std::string::npos) << r["content"];
        EXPECT_EQ(out.find(secret), std::string::npos) << r["content"];
        confined += r.contains("sandbox") && r["sandbox"]["profile"] == "read-only";
    }
    EXPECT_EQ(confined, results.size()) << "every plan-mode command ran sandboxed";
    EXPECT_EQ(results.back()["exit"]["timed_out"], true) << results.back().dump();
    Json status = s.request("agent.status");
    EXPECT_EQ(status["ok"], true) << "the core is alive and answering";
    EXPECT_EQ(status["result"]["mode"], "plan") << "nothing switched it through its socket";
    const Picture after = w.of(s);
    int reached = listeners.reached();
    std::vector<pid_t> left = left_behind(token, s.core().pid());
    std::printf("sandbox battery through rio-core (plan mode): %zu commands, %zu sandboxed "
                "read-only; %zu files changed, %d connections received, core answering, "
                "%zu processes left\n",
                results.size(), confined, after == before ? std::size_t(0) : std::size_t(1),
                reached, left.size());
    EXPECT_EQ(after, before) << differences(before, after);
    EXPECT_EQ(reached, 0);
    EXPECT_TRUE(left.empty()) << left.size() << " processes outlived their command";
    for (pid_t pid : left)
        ::kill(pid, SIGKILL);
}

// What plan mode is for: looking around. git log/status/diff, grep -r, ls -R and a test run
// that writes only to TMPDIR all work read-only, and git status leaves the index as it was.
TEST(SandboxE2E, ReadOnlyCommandsAPlanNeedsWork) {
    AgentSession s(
        Json::array({step({tool("run_command", {{"argv", {"git", "log", "--oneline"}}}),
                           tool("run_command", {{"argv", {"git", "status"}}}),
                           tool("run_command", {{"argv", {"git", "diff"}}}),
                           tool("run_command", {{"argv", {"grep", "-rn", "greeting", "."}}}),
                           tool("run_command", {{"argv", {"ls", "-R"}}}),
                           tool("run_command", {{"argv", {python, "-m", "unittest", "-v"}}})}),
                     text_step("looked")}));
    make_git_project(s);
    write_bytes(s.project() / "tests/__init__.py", "");
    write_bytes(s.project() / "tests/test_tmp.py",
                "import os, tempfile, unittest\n\n"
                "class TmpOnly(unittest.TestCase):\n"
                "    def test_writes_to_tmpdir(self):\n"
                "        with tempfile.NamedTemporaryFile('w', delete=False) as f:\n"
                "            f.write('scratch')\n"
                "        self.assertTrue(f.name.startswith(os.environ['TMPDIR']))\n"
                "        self.assertEqual(open(f.name).read(), 'scratch')\n");
    git(s.project().path(), "add -A");
    git(s.project().path(), "commit -q -m tests");
    write_bytes(s.project() / "README.md", "# The project\ndef greeting(): pass\n");
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    ASSERT_TRUE(s.sandboxed());
    const Picture git_before = picture(s.project() / ".git");

    s.send("look around");
    std::vector<Json> r = results_until_done(s);
    ASSERT_EQ(r.size(), 6u);
    for (const Json& result : r) {
        EXPECT_EQ(result["ok"], true) << result.dump();
        EXPECT_EQ(result["sandbox"]["profile"], "read-only");
        EXPECT_NE(result["content"].get<std::string>().find("sandboxed: read-only, no network"),
                  std::string::npos);
    }
    auto content = [&r](std::size_t i) { return r[i]["content"].get<std::string>(); };
    EXPECT_NE(content(0).find("tests"), std::string::npos) << content(0);
    EXPECT_NE(content(1).find("modified:   README.md"), std::string::npos) << content(1);
    EXPECT_NE(content(2).find("+def greeting(): pass"), std::string::npos) << content(2);
    EXPECT_NE(content(3).find("README.md:2:def greeting"), std::string::npos) << content(3);
    EXPECT_NE(content(4).find("test_tmp.py"), std::string::npos) << content(4);
    EXPECT_NE(content(5).find("test_writes_to_tmpdir"), std::string::npos) << content(5);
    EXPECT_NE(content(5).find("OK"), std::string::npos) << content(5);
    EXPECT_EQ(picture(s.project() / ".git"), git_before) << "git status refreshed the index";
    EXPECT_FALSE(fs::exists(s.project() / "tests/__pycache__"));
}

// Build mode's approved and allowed commands: the project is theirs to write, its .git, the
// outside and the network are not; the trace and the proposal say so.
TEST(SandboxE2E, WorkspaceWriteWritesTheProjectButNotGitTheOutsideOrTheNetwork) {
    SessionWorld w;
    TempDir scratch;
    Listeners listeners(scratch.path());
    const std::string outside = (w.outside / "canary.txt").string();
    write_bytes(outside, "outside canary\n");
    std::string script =
        "echo made > src/new.txt && echo WROTE-NEW; echo more >> README.md && echo "
        "WROTE-README; echo '[core] fsmonitor = touch pwned' >> .git/config && echo "
        "ESCAPED-git; echo x > .git/hooks/pre-commit && echo ESCAPED-hook; echo x > '" +
        outside + "' && echo ESCAPED-outside; git commit -qam pwned && echo ESCAPED-commit; " +
        python + " -I -S -c \"import socket; socket.create_connection(('127.0.0.1', " +
        std::to_string(listeners.tcp_port) + "), 3); print('ESCAPED-net')\"; true";
    AgentSession s(Json::array(
        {step({command(script), tool("run_command", {{"argv", {"touch", "src/asked"}}})}),
         text_step("built")}));
    make_git_project(s);
    write_bytes(s.config() / "allow", "sh\n");
    s.trust_project(); // allow rules apply in trusted projects only (issue 26)
    ASSERT_TRUE(s.sandboxed());
    const std::string git_config = read_bytes(s.project() / ".git/config");

    long turn = s.send("build");
    Json allowed = s.wait("agent.tool_result");
    std::string out = output_of(allowed);
    EXPECT_EQ(allowed["sandbox"], (Json{{"profile", "workspace-write"}, {"network", false}}));
    EXPECT_NE(out.find("WROTE-NEW"), std::string::npos) << out;
    EXPECT_NE(out.find("WROTE-README"), std::string::npos) << out;
    EXPECT_EQ(out.find("ESCAPED"), std::string::npos) << out;
    EXPECT_NE(out.find("sandboxed: workspace-write, no network"), std::string::npos) << out;
    Json proposal = s.wait("agent.propose");
    EXPECT_EQ(proposal["sandbox"], (Json{{"profile", "workspace-write"}, {"network", false}}));
    ASSERT_EQ(s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}})["ok"], true);
    s.wait("agent.done");
    EXPECT_TRUE(fs::exists(s.project() / "src/asked"));
    EXPECT_EQ(read_bytes(s.project() / "src/new.txt"), "made\n");
    EXPECT_EQ(read_bytes(s.project() / "README.md"), "# The project\nmore\n");
    EXPECT_EQ(read_bytes(s.project() / ".git/config"), git_config);
    EXPECT_FALSE(fs::exists(s.project() / ".git/hooks/pre-commit"));
    EXPECT_EQ(read_bytes(outside), "outside canary\n");
    EXPECT_EQ(listeners.reached(), 0);
}

// A person's "with the network" and "without the sandbox" hold for the one command they
// approved; the next command asks again and runs sandboxed.
TEST(SandboxE2E, APersonsWiderApprovalHoldsForThatCommandOnly) {
    SessionWorld w;
    TempDir scratch;
    Listeners listeners(scratch.path());
    std::string connect = std::string(python) +
                          " -I -S -c \"import socket; socket.create_connection(('127.0.0.1', " +
                          std::to_string(listeners.tcp_port) + "), 3); print('CONNECTED')\"";
    std::string outside = (w.outside / "written").string();
    AgentSession s(Json::array({step({command(connect), command(connect),
                                      command("echo x > '" + outside + "' && echo WROTE"),
                                      command("echo x > '" + outside + "2' && echo WROTE")}),
                                text_step("done")}));
    make_git_project(s);
    ASSERT_TRUE(s.sandboxed());
    long turn = s.send("go");
    auto decide = [&](const Json& extra) {
        Json proposal = s.wait("agent.propose");
        EXPECT_EQ(proposal["sandbox"]["profile"], "workspace-write") << "asked again";
        Json params{{"turn", turn}, {"decision", "approve"}};
        params.update(extra);
        EXPECT_EQ(s.request("agent.approve", params)["ok"], true);
        Json decided = s.wait("agent.decided");
        for (const auto& [key, value] : extra.items())
            EXPECT_EQ(decided[key], value);
        return s.wait("agent.tool_result");
    };
    Json with_network = decide({{"network", true}});
    EXPECT_EQ(with_network["sandbox"], (Json{{"profile", "workspace-write"}, {"network", true}}));
    EXPECT_NE(output_of(with_network).find("CONNECTED"), std::string::npos) << with_network.dump();
    EXPECT_EQ(listeners.reached(), 1);
    Json plain = decide(Json::object());
    EXPECT_EQ(output_of(plain).find("CONNECTED"), std::string::npos);
    EXPECT_EQ(listeners.reached(), 0);
    Json bare = decide({{"unsandboxed", true}});
    EXPECT_EQ(bare["sandbox"]["profile"], "none");
    EXPECT_NE(output_of(bare).find("WROTE"), std::string::npos);
    EXPECT_TRUE(fs::exists(outside));
    Json again = decide(Json::object());
    EXPECT_EQ(again["sandbox"]["profile"], "workspace-write");
    EXPECT_EQ(output_of(again).find("WROTE"), std::string::npos);
    EXPECT_FALSE(fs::exists(outside + "2"));
    s.wait("agent.done");
    // Only a command's approval takes them.
    EXPECT_EQ(s.request("agent.approve",
                        {{"turn", turn}, {"decision", "approve"}, {"unsandboxed", true}})["ok"],
              false);
}

// Issue 39: a build-mode command gets no variable that looks like a secret, but for one a
// person approved "with my environment" — that one call only — or one the user named.
TEST(SandboxE2E, SecretLookingVariablesReachOnlyACommandApprovedWithMyEnvironment) {
    auto show = [](const char* name) { return command(std::string("echo ") + name + "=$" + name); };
    auto session = AgentSession::with_env(
        Json::array({step({show("DEPLOY_TOKEN"), show("DEPLOY_TOKEN"), show("NAMED_SECRET")}),
                     text_step("done")}),
        [](const AgentSession& a) {
            write_bytes(a.config() / "config.json", "{\"pass_env\": [\"NAMED_SECRET\"]}");
            return std::vector<std::string>{"DEPLOY_TOKEN=tok-31", "NAMED_SECRET=named-7"};
        });
    AgentSession& s = *session;
    make_git_project(s);
    ASSERT_TRUE(s.sandboxed());
    long turn = s.send("go");
    auto decide = [&](const Json& extra) {
        s.wait("agent.propose");
        Json params{{"turn", turn}, {"decision", "approve"}};
        params.update(extra);
        EXPECT_EQ(s.request("agent.approve", params)["ok"], true);
        return s.wait("agent.tool_result");
    };
    Json with_environment = decide({{"environment", true}});
    EXPECT_EQ(with_environment["sandbox"],
              (Json{{"profile", "workspace-write"}, {"network", false}, {"environment", true}}));
    EXPECT_NE(output_of(with_environment).find("DEPLOY_TOKEN=tok-31"), std::string::npos)
        << with_environment.dump();
    EXPECT_NE(with_environment["content"].get<std::string>().find("with your environment"),
              std::string::npos);
    Json plain = decide(Json::object());
    EXPECT_NE(output_of(plain).find("DEPLOY_TOKEN=\n"), std::string::npos) << plain.dump();
    Json named = decide(Json::object());
    EXPECT_NE(output_of(named).find("NAMED_SECRET=named-7"), std::string::npos) << named.dump();
    s.wait("agent.done");
    EXPECT_EQ(s.request("agent.approve",
                        {{"turn", turn}, {"decision", "approve"}, {"environment", true}})["ok"],
              false);
}

// ---- issue 42: what builds do ----------------------------------------------------------

// Runs the core as uid 65534 where this is root (tests/e2e/as_nobody); as it is otherwise.
std::string as_nobody() {
    std::string wrapper;
    if (::geteuid() != 0) return wrapper;
    wrapper = RIO_SOURCE_DIR;
    wrapper += "/tests/e2e/as_nobody";
    return wrapper;
}

const char* const build_at_top = "mkdir build && echo ok > build/x && echo ok > top.txt";
const char* const makefile = "all:\n\tmkdir -p build\n\techo made > build/out\n";

// Ways at .git/ and .rio/ from a project whose top level is writable: through the bind, past
// it (rename, remove, unmount, remount), and by making what is not there.
std::vector<std::string> protected_place_attacks() {
    return {"echo x >> .git/config && echo ESCAPED-config",
            "echo x > .git/hooks/pre-commit && echo ESCAPED-hook",
            "mv .git moved-git && echo ESCAPED-mv",
            "rm -rf .git && echo ESCAPED-rm; ls .git >/dev/null",
            "umount .git && echo ESCAPED-umount; umount -l .git && echo ESCAPED-umount-l",
            "mount -o remount,rw,bind .git && echo ESCAPED-remount",
            "ln -s .git/config cfg && echo x >> cfg && echo ESCAPED-symlink",
            "ln .git/config hard && echo ESCAPED-hardlink",
            "mkdir -p .rio/plans && echo ESCAPED-rio-dir; echo x > .rio/allow && echo ESCAPED-rio",
            "mv .rio moved-rio && echo ESCAPED-rio-mv; rmdir .rio && echo ESCAPED-rio-rmdir",
            "unshare -Urm sh -c 'umount .git' && echo ESCAPED-unshare"};
}

// How a test core gets its commands' mount namespaces: used, turned off in the user's
// config.json, or not to be had (unshare refused, as where user namespaces are restricted).
enum class Namespaces { used, turned_off, unavailable };

// In a fresh git repository (no .rio/), as approved build-mode commands: the build's own
// top-level output is made where the mount namespace is used and refused under the split;
// .git/ and .rio/ are refused either way. `wrapper` runs the core (as_nobody: an ordinary
// user; rio_without_namespaces).
void builds_write_the_top_level(const std::string& wrapper, Namespaces how) {
    const bool namespaces = how == Namespaces::used;
    std::vector<Json> calls{command(build_at_top), command("rm -r build top.txt"),
                            tool("run_command", {{"argv", {"make"}}})};
    for (const std::string& attack : protected_place_attacks())
        calls.push_back(command(attack));
    Json steps = Json::array({step(calls), text_step("built")});
    auto prepare = [&](const AgentSession& a) {
        write_bytes(a.project() / "README.md", "# The project\n");
        write_bytes(a.project() / "Makefile", makefile);
        git(a.project().path(), "init -q");
        git(a.project().path(), "add -A");
        git(a.project().path(), "commit -q -m init");
        if (how == Namespaces::turned_off)
            write_bytes(a.config() / "config.json", "{\"sandbox\": {\"namespace\": false}}\n");
        return std::vector<std::string>{};
    };
    std::unique_ptr<AgentSession> session = wrapper.empty()
                                                ? AgentSession::with_env(steps, prepare)
                                                : AgentSession::through(wrapper, steps, prepare);
    AgentSession& s = *session;
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "build"}})["ok"], true);
    ASSERT_TRUE(s.sandboxed()) << s.request("agent.status").dump();
    Json status = s.request("agent.status")["result"]["sandbox"];
    const Picture git_before = picture(s.project() / ".git");
    const std::string git_config = read_bytes(s.project() / ".git/config");

    long turn = s.send("build it");
    std::vector<Json> r;
    for (std::size_t i = 0; i < calls.size(); ++i) {
        Json proposal = s.wait("agent.propose");
        EXPECT_EQ(proposal["sandbox"]["profile"], "workspace-write");
        EXPECT_EQ(s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}})["ok"],
                  true);
        // A guard, not a budget: `make` in a fresh namespace as nobody once took over 10 s
        // beside a parallel build on two cores.
        r.push_back(s.client().next_event("agent.tool_result", std::chrono::seconds(60))["params"]);
        EXPECT_EQ(r.back()["sandbox"]["profile"], "workspace-write") << r.back().dump();
    }
    s.wait("agent.done");
    EXPECT_EQ(s.request("agent.status")["ok"], true) << "the core answers";

    if (namespaces) {
        EXPECT_EQ(status["top_level"], "writable") << status.dump();
        EXPECT_EQ(status["top_level_reason"], "") << status.dump();
        EXPECT_EQ(r[0]["ok"], true) << r[0].dump();
        EXPECT_EQ(r[0]["exit"]["code"], 0) << r[0].dump();
        EXPECT_EQ(r[1]["exit"]["code"], 0) << r[1].dump();
        EXPECT_EQ(r[2]["exit"]["code"], 0) << r[2].dump();
        EXPECT_EQ(read_bytes(s.project() / "build/out"), "made\n");
        EXPECT_FALSE(fs::exists(s.project() / "top.txt")) << "removed by the second command";
        EXPECT_NE(r[0]["content"].get<std::string>().find("except .git/ and .rio/"),
                  std::string::npos)
            << r[0]["content"];
    } else {
        EXPECT_EQ(status["top_level"], "split") << status.dump();
        EXPECT_NE(status["top_level_reason"].get<std::string>().find(
                      how == Namespaces::turned_off ? "turned off in your settings"
                                                    : "no mount namespace: making a"),
                  std::string::npos)
            << status.dump();
        EXPECT_NE(r[0]["exit"]["code"], 0) << r[0].dump();
        EXPECT_NE(output_of(r[0]).find("Permission denied"), std::string::npos) << r[0].dump();
        EXPECT_NE(r[2]["exit"]["code"], 0) << r[2].dump();
        EXPECT_FALSE(fs::exists(s.project() / "build"));
        EXPECT_FALSE(fs::exists(s.project() / "top.txt"));
        EXPECT_NE(r[0]["content"].get<std::string>().find("new entries at its top level"),
                  std::string::npos)
            << r[0]["content"];
    }
    for (std::size_t i = 3; i < r.size(); ++i)
        EXPECT_EQ(output_of(r[i]).find("ESCAPED"), std::string::npos) << r[i]["content"];
    EXPECT_EQ(read_bytes(s.project() / ".git/config"), git_config);
    EXPECT_EQ(picture(s.project() / ".git"), git_before)
        << differences(git_before, picture(s.project() / ".git"));
    EXPECT_FALSE(fs::exists(s.project() / "moved-git"));
    EXPECT_FALSE(fs::exists(s.project() / "moved-rio"));
    EXPECT_FALSE(fs::exists(s.project() / ".rio/allow"));
    EXPECT_FALSE(fs::exists(s.project() / ".rio/plans"));
    // Where namespaces are used the empty .rio/ was made to be bound; without, none is made.
    EXPECT_EQ(fs::exists(s.project() / ".rio"), namespaces);
    std::printf("issue 42, %s, %s: top level %s; %zu attacks on .git/ and .rio/, none got "
                "through\n",
                wrapper.empty()          ? "as this user"
                : wrapper == as_nobody() ? "as uid 65534"
                                         : "unshare refused",
                namespaces ? "mount namespace" : "no mount namespace",
                status.value("top_level", "?").c_str(), protected_place_attacks().size());
}

TEST(SandboxE2E, BuildsWriteTheTopLevelInAMountNamespaceButNeverGitOrRio) {
    builds_write_the_top_level("", Namespaces::used);
}

TEST(SandboxE2E, BuildsWriteTheTopLevelInAMountNamespaceAsAnOrdinaryUser) {
    builds_write_the_top_level(as_nobody(), Namespaces::used);
}

TEST(SandboxE2E, WithNamespacesTurnedOffTheTopLevelIsSplitAndTheStatusSaysSo) {
    builds_write_the_top_level("", Namespaces::turned_off);
}

TEST(SandboxE2E, WithNamespacesTurnedOffTheTopLevelIsSplitAsAnOrdinaryUser) {
    builds_write_the_top_level(as_nobody(), Namespaces::turned_off);
}

// Where no namespace can be made the split stays, the status says why, and .git/ is as
// read-only as ever.
TEST(SandboxE2E, WithoutNamespacesTheTopLevelIsSplitAndTheStatusSaysWhy) {
    builds_write_the_top_level(RIO_WITHOUT_NAMESPACES, Namespaces::unavailable);
}

// A namespace the status promised but that cannot be set up for this command (here the
// user's TMPDIR file count is more than tmpfs takes) refuses the command with the reason: it
// never runs, and never with .git/ writable.
TEST(SandboxE2E, ANamespaceThatCannotBeSetUpRefusesTheCommand) {
    auto session = AgentSession::with_env(
        Json::array(
            {step({command("echo x >> .git/config; echo ok > top.txt")}), text_step("refused")}),
        [](const AgentSession& a) {
            write_bytes(a.config() / "config.json",
                        "{\"sandbox\": {\"tmpdir_files\": 9223372036854775807}}\n");
            return std::vector<std::string>{};
        });
    AgentSession& s = *session;
    make_git_project(s);
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "build"}})["ok"], true);
    ASSERT_EQ(s.request("agent.status")["result"]["sandbox"]["top_level"], "writable");
    const std::string git_config = read_bytes(s.project() / ".git/config");
    long turn = s.send("go");
    s.wait("agent.propose");
    ASSERT_EQ(s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}})["ok"], true);
    Json result = s.wait("agent.tool_result");
    s.wait("agent.done");
    EXPECT_EQ(result["ok"], false);
    EXPECT_NE(result["content"].get<std::string>().find(
                  "the sandbox could not be set up: mounting the TMPDIR tmpfs failed"),
              std::string::npos)
        << result.dump();
    EXPECT_FALSE(fs::exists(s.project() / "top.txt"));
    EXPECT_EQ(read_bytes(s.project() / ".git/config"), git_config);
    EXPECT_EQ(s.request("agent.status")["ok"], true);
}

// The command cgroups below the core's own: none left once its commands have ended.
std::vector<std::string> command_cgroups_of(pid_t core) {
    std::vector<std::string> left;
    const std::string prefix = "rio-cmd-" + std::to_string(core) + "-";
    for (const char* hierarchy :
         {"/sys/fs/cgroup/memory", "/sys/fs/cgroup/pids", "/sys/fs/cgroup"}) {
        std::error_code ec;
        for (auto it = fs::recursive_directory_iterator(hierarchy, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (it.depth() > 4) it.disable_recursion_pending();
            if (it->path().filename().string().rfind(prefix, 0) == 0)
                left.push_back(it->path().string());
        }
    }
    return left;
}

// Issue 42's hostile plan-mode commands: 100,000 files and 2 GiB in TMPDIR, a 4 GiB
// allocation and a fork bomb. Each ends with a clear result, the core answers all along, the
// project is as it was and nothing of the commands is left (processes, cgroups). As root
// the memory and process limits are a cgroup's; as an ordinary user, where none can be made,
// RLIMIT_DATA's and RLIMIT_NPROC's, as agent.status says.
void limits_hold_in_plan_mode(const std::string& wrapper) {
    const std::string many_files =
        "import os\n"
        "d, n = os.environ['TMPDIR'], 0\n"
        "try:\n"
        "    for i in range(100000):\n"
        "        open(os.path.join(d, str(i)), 'w').close(); n += 1\n"
        "    print('made all', n)\n"
        "except OSError as e:\n"
        "    print('stopped after', n, 'files:', os.strerror(e.errno))\n";
    const std::string big_allocation = "b = b'x' * (4 << 30)\nprint('ESCAPED allocated', len(b))\n";
    Json steps = Json::array(
        {step({tool("run_command", {{"argv", {python, "-I", "-S", "-c", many_files}}}),
               command("dd if=/dev/zero of=\"$TMPDIR/big\" bs=1M count=2048 2>&1; echo dd=$?"),
               tool("run_command", {{"argv", {python, "-I", "-S", "-c", big_allocation}}}),
               tool("run_command",
                    {{"argv", {"sh", "-c", "bomb() { bomb | bomb & }; bomb; sleep 60"}},
                     {"timeout_s", 5}})}),
         text_step("done")});
    auto prepare = [](const AgentSession& a) {
        make_git_project(a);
        // The process limit is lower than the default, to spare a shared machine the bomb.
        write_bytes(a.config() / "config.json",
                    "{\"sandbox\": {\"tmpdir_size\": \"64 MiB\", \"processes\": 1000}}\n");
        return std::vector<std::string>{};
    };
    std::unique_ptr<AgentSession> session = wrapper.empty()
                                                ? AgentSession::with_env(steps, prepare)
                                                : AgentSession::through(wrapper, steps, prepare);
    AgentSession& s = *session;
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    ASSERT_TRUE(s.sandboxed());
    Json status = s.request("agent.status")["result"]["sandbox"];
    const bool cgroup =
        status["limits"][0].get<std::string>().find("memory controller") != std::string::npos;
    const Picture before = picture(s.project().path());

    s.send("use everything");
    // The core answers while the commands run: each result arrives between requests.
    std::vector<Json> r;
    for (const Json& e : s.client().events_until("agent.done", 300s))
        if (e["event"] == "agent.tool_result") {
            r.push_back(e["params"]);
            EXPECT_EQ(s.request("agent.status")["ok"], true);
        }
    ASSERT_EQ(r.size(), 4u);
    for (const Json& result : r)
        EXPECT_EQ(result["sandbox"]["profile"], "read-only");
    // `output`, not `content`: the scripts' own text, in the "$ argv" line, holds the words.
    auto out = [&r](std::size_t i) { return r[i]["output"].get<std::string>(); };
    EXPECT_NE(out(0).find("files: No space left on device"), std::string::npos) << r[0].dump();
    EXPECT_EQ(out(0).find("made all"), std::string::npos) << r[0].dump();
    EXPECT_NE(out(1).find("No space left on device"), std::string::npos) << r[1].dump();
    EXPECT_EQ(out(2).find("ESCAPED"), std::string::npos) << r[2].dump();
    EXPECT_EQ(r[2]["ok"], false) << r[2].dump();
    if (cgroup) {
        EXPECT_NE(r[2]["content"].get<std::string>().find(
                      "[stopped: it used more than the 2 GiB memory limit (sandbox.memory in "
                      "config.json)]"),
                  std::string::npos)
            << r[2].dump();
        EXPECT_NE(r[3]["content"].get<std::string>().find("limit of 1000 processes"),
                  std::string::npos)
            << r[3].dump();
    } else {
        EXPECT_NE(out(2).find("MemoryError"), std::string::npos) << r[2].dump();
    }
    EXPECT_EQ(r[3]["exit"]["timed_out"], true) << r[3].dump();
    EXPECT_EQ(s.request("agent.status")["ok"], true) << "the core answers";
    EXPECT_EQ(picture(s.project().path()), before);
    EXPECT_TRUE(command_cgroups_of(s.core().pid()).empty());
    std::printf("issue 42 limits in plan mode (%s, %s): 100,000 files -> %s; 2 GiB in TMPDIR -> "
                "no space; 4 GiB allocation -> %s; fork bomb -> %s\n",
                wrapper.empty() ? "as this user" : "as uid 65534", cgroup ? "cgroup" : "rlimits",
                out(0).substr(0, out(0).find('\n')).c_str(), r[2]["exit"].dump().c_str(),
                r[3]["exit"].dump().c_str());
}

TEST(SandboxE2E, TmpdirFilesMemoryAndAForkBombEndClearlyInPlanMode) {
    limits_hold_in_plan_mode("");
}

TEST(SandboxE2E, TmpdirFilesMemoryAndAForkBombEndClearlyAsAnOrdinaryUser) {
    limits_hold_in_plan_mode(as_nobody());
}

// A kernel without Landlock: agent.status says why, plan mode withholds run_command as
// before, and build mode's commands run as they did before the sandbox, saying so.
TEST(SandboxE2E, FallbackWithoutLandlockWithholdsCommandsInPlanMode) {
    auto session = AgentSession::through(
        RIO_WITHOUT_LANDLOCK,
        Json::array({step({tool("run_command", {{"argv", {"touch", "src/planned"}}})}),
                     text_step("refused"),
                     step({tool("run_command", {{"argv", {"touch", "src/built"}}})}),
                     text_step("built")}));
    AgentSession& s = *session;
    make_git_project(s);
    Json sandbox = s.request("agent.status")["result"]["sandbox"];
    EXPECT_EQ(sandbox["available"], false);
    EXPECT_EQ(sandbox["abi"], 0);
    EXPECT_NE(sandbox["reason"].get<std::string>().find("no Landlock"), std::string::npos)
        << sandbox.dump();
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    const Json tools = s.request("agent.tools")["result"]["tools"]; // not a temporary's part
    for (const Json& t : tools)
        EXPECT_NE(t["name"], "run_command");
    s.send("plan");
    Json refused = s.wait("agent.tool_result");
    EXPECT_EQ(refused["ok"], false);
    EXPECT_NE(refused["content"].get<std::string>().find("not available in plan mode"),
              std::string::npos);
    s.wait("agent.done");
    EXPECT_FALSE(fs::exists(s.project() / "src/planned"));

    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "build"}})["ok"], true);
    long turn = s.send("build");
    EXPECT_EQ(s.wait("agent.propose")["sandbox"]["profile"], "none");
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    Json built = s.wait("agent.tool_result");
    EXPECT_EQ(built["sandbox"]["profile"], "none");
    EXPECT_NE(built["content"].get<std::string>().find("(not sandboxed)"), std::string::npos);
    s.wait("agent.done");
    EXPECT_TRUE(fs::exists(s.project() / "src/built"));
}

// The user's own config.json can turn the sandbox off (nothing in a project can); the
// status says so, and plan mode then withholds commands as without Landlock.
TEST(SandboxE2E, TheUsersSettingTurnsItOffAndTheStatusSaysSo) {
    auto session = AgentSession::prepared([](const AgentSession& s) {
        write_bytes(s.config() / "config.json", "{ \"sandbox\": false }\n");
        write_bytes(s.project() / ".rio/config.json", "{ \"sandbox\": true }\n");
        return Json::array();
    });
    AgentSession& s = *session;
    Json sandbox = s.request("agent.status")["result"]["sandbox"];
    EXPECT_EQ(sandbox["available"], false);
    EXPECT_NE(sandbox["reason"].get<std::string>().find("turned off in your settings"),
              std::string::npos)
        << sandbox.dump();
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    const Json tools = s.request("agent.tools")["result"]["tools"]; // not a temporary's part
    for (const Json& t : tools)
        EXPECT_NE(t["name"], "run_command");
}

// A sandbox that cannot be set up (here: no private TMPDIR can be made) refuses the
// command with the reason; it never runs without the sandbox.
TEST(SandboxE2E, ACommandTheSandboxCannotSetUpIsRefusedNeverRunBare) {
    auto session = AgentSession::with_env(
        Json::array(
            {step({tool("run_command", {{"argv", {"touch", "src/made"}}})}), text_step("refused")}),
        [](const AgentSession&) {
            return std::vector<std::string>{"TMPDIR=/nonexistent/rio-sandbox-test"};
        });
    AgentSession& s = *session;
    make_git_project(s);
    write_bytes(s.config() / "allow", "touch\n");
    s.trust_project();
    ASSERT_TRUE(s.sandboxed());
    s.send("make it");
    Json result = s.wait("agent.tool_result");
    EXPECT_EQ(result["ok"], false);
    EXPECT_NE(result["content"].get<std::string>().find("cannot make a private TMPDIR"),
              std::string::npos)
        << result.dump();
    s.wait("agent.done");
    EXPECT_FALSE(fs::exists(s.project() / "src/made"));
}

// Issue 39, break P: a plan-mode command read a key in ~/.bashrc (`grep API_KEY ~/.bashrc |
// base64` passes redaction) and a plan-admitted MCP tool sent it out. Plan-mode commands now
// read of the home folder only what read-only tools need (git's configuration, toolchains,
// caches; decision 0071), no command without network reads the known secret places, and no
// command inherits a variable that looks like a secret unless the user named it. Run as the
// user CI is (root) and, through `setpriv`, as an ordinary one.
void plan_mode_commands_read_no_secret(const std::string& wrapper) {
    const std::string planted = "PLANTED-4d1e";
    const std::string pattern = "PLANTE[D]-4d1e"; // the command line must not match itself
    TempDir home;
    auto steps = [&](const fs::path& h) {
        auto sh = [](const std::string& line) {
            return tool("run_command", {{"argv", {"sh", "-c", line}}});
        };
        return Json::array(
            {step({sh("cat " + (h / ".bashrc").string() + " 2>&1"),
                   sh("cat " + (h / ".npmrc").string() + " " +
                      (h / ".claude/.credentials.json").string() + " " +
                      (h / ".codex/auth.json").string() + " 2>&1"),
                   sh("grep -r '" + pattern + "' " + h.string() + " 2>&1; echo grep=$?"),
                   sh("git config --global user.name"), tool("run_command", {{"argv", {"env"}}}),
                   sh("cat " + (h / "notes/todo.txt").string() + " 2>&1")}),
             text_step("looked")});
    };
    write_bytes(home / ".bashrc", "export ANTHROPIC_API_KEY=sk-ant-" + planted + "\n");
    write_bytes(home / ".npmrc", "//registry.npmjs.org/:_authToken=" + planted + "\n");
    write_bytes(home / ".claude/.credentials.json", "{\"token\": \"" + planted + "\"}\n");
    write_bytes(home / ".codex/auth.json", "{\"OPENAI_API_KEY\": \"" + planted + "\"}\n");
    write_bytes(home / ".config/git/credentials", "https://u:" + planted + "@example.com\n");
    write_bytes(home / "notes/todo.txt", planted + "\n");
    write_bytes(home / ".gitconfig", "[user]\n\tname = Ada Lovelace\n");
    std::vector<std::string> env{"HOME=" + home.path().string(),
                                 "MY_SERVICE_TOKEN=" + planted,
                                 "AWS_SECRET_ACCESS_KEY=" + planted,
                                 "DB_PASSWORD=" + planted,
                                 "deploy_key=" + planted,
                                 "NAMED_TOKEN=named-by-the-user",
                                 "PLAIN_SETTING=visible"};
    auto prepare = [&](const AgentSession& a) {
        write_bytes(a.config() / "config.json", "{\"pass_env\": [\"NAMED_TOKEN\"]}");
        return env;
    };
    std::unique_ptr<AgentSession> session =
        wrapper.empty() ? AgentSession::with_env(steps(home.path()), prepare)
                        : AgentSession::through(wrapper, steps(home.path()), prepare);
    AgentSession& s = *session;
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    ASSERT_TRUE(s.sandboxed());
    s.send("look for keys");
    std::vector<Json> r = results_until_done(s);
    ASSERT_EQ(r.size(), 6u);
    std::size_t read = 0;
    for (const Json& result : r) {
        EXPECT_EQ(result["sandbox"]["profile"], "read-only");
        read += output_of(result).find(planted) != std::string::npos;
    }
    EXPECT_EQ(read, 0u) << Json(r).dump(1);
    EXPECT_NE(output_of(r[0]).find("Permission denied"), std::string::npos) << output_of(r[0]);
    EXPECT_NE(output_of(r[2]).find("grep=2"), std::string::npos) << output_of(r[2]);
    EXPECT_NE(output_of(r[3]).find("Ada Lovelace"), std::string::npos) << output_of(r[3]);
    const std::string env_out = output_of(r[4]);
    EXPECT_NE(env_out.find("PLAIN_SETTING=visible"), std::string::npos) << env_out;
    EXPECT_NE(env_out.find("NAMED_TOKEN=named-by-the-user"), std::string::npos) << env_out;
    for (const char* name :
         {"MY_SERVICE_TOKEN=", "AWS_SECRET_ACCESS_KEY=", "DB_PASSWORD=", "deploy_key="})
        EXPECT_EQ(env_out.find(name), std::string::npos) << name;
    EXPECT_NE(output_of(r[5]).find("Permission denied"), std::string::npos) << output_of(r[5]);
    std::printf("red team P, secrets under a planted home and in the environment: 6 plan-mode "
                "commands, %zu read one\n",
                read);
}

TEST(SandboxE2E, PlanModeCommandsReadNoSecretOfTheHomeFolderAndInheritNone) {
    plan_mode_commands_read_no_secret("");
}

// The same as an ordinary user: tests/e2e/as_nobody gives the session's folders and the
// planted home to uid 65534 and runs the core as it, so only the sandbox stands between a
// command and the user's own files.
TEST(SandboxE2E, PlanModeCommandsReadNoSecretOfTheHomeFolderAsAnOrdinaryUser) {
    // Not root: this process is an ordinary user already.
    // One literal, no operator+: GCC 12 saw a false -Warray-bounds in the concatenation.
    const std::string as_nobody = RIO_SOURCE_DIR "/tests/e2e/as_nobody";
    plan_mode_commands_read_no_secret(::geteuid() == 0 ? as_nobody : std::string());
}

} // namespace
} // namespace rio::test
