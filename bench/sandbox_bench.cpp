// The sandbox's start-up per command (DESIGN §19, target ≤ 2 ms extra; issue 42: ≤ 3 ms more
// with the mount namespace): `true` run 200 times through rio's process runner without the
// sandbox, under read-only and under workspace-write, each without and with the command's
// own mount namespace (decision 0080), and once without a cgroup; interleaved so that the
// machine's load falls on all alike; the medians and their difference. Then a command allowed
// some hosts (issue 45): its network namespace and the core's proxy started and stopped, and
// 100 MB fetched by curl from a loopback server through that proxy against the same fetch
// with the whole network. docs/BENCHMARKS.md has the figures.
#include "host/process/process_runner.hpp"
#include "host/sandbox/command_cgroup.hpp"
#include "host/sandbox/landlock.hpp"
#include "host/sandbox/mount_namespace.hpp"
#include "tests/support/temp_dir.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <netinet/in.h>
#include <optional>
#include <sys/resource.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace {

using namespace std::chrono_literals;

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

double percentile(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    return values[static_cast<std::size_t>(p * static_cast<double>(values.size() - 1))];
}

double cpu_ms(const rusage& u) {
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

struct Run {
    double wall_ms; // from asking for the command to hearing it ended
    double cpu_ms;  // user + system time spent on it: the runner's (the sandbox prepared) and
                    // the command's process (the sandbox entered, `true`)
};

Run run_once(const std::filesystem::path& project, const std::optional<rio::SandboxPolicy>& sandbox,
             std::vector<std::string> argv = {"true"}) {
    asio::io_context io;
    rio::CommandSpec spec;
    spec.argv = std::move(argv);
    spec.cwd = project;
    spec.sandbox = sandbox;
    bool ok = false;
    rusage before{}, after{}, self_before{}, self_after{};
    ::getrusage(RUSAGE_CHILDREN, &before);
    ::getrusage(RUSAGE_SELF, &self_before);
    auto start = std::chrono::steady_clock::now();
    rio::start_command(io, spec,
                       [&ok](rio::CommandResult r) { ok = r.started && r.exit_code == 0; });
    io.run();
    auto elapsed = std::chrono::steady_clock::now() - start;
    ::getrusage(RUSAGE_CHILDREN, &after);
    ::getrusage(RUSAGE_SELF, &self_after);
    if (!ok) {
        std::fprintf(stderr, "sandbox bench: `%s` failed\n", spec.argv[0].c_str());
        std::exit(1);
    }
    return {std::chrono::duration<double, std::milli>(elapsed).count(),
            cpu_ms(after) - cpu_ms(before) + cpu_ms(self_after) - cpu_ms(self_before)};
}

std::vector<double> walls(const std::vector<Run>& runs) {
    std::vector<double> out;
    for (const Run& r : runs)
        out.push_back(r.wall_ms);
    return out;
}

std::vector<double> cpus(const std::vector<Run>& runs) {
    std::vector<double> out;
    for (const Run& r : runs)
        out.push_back(r.cpu_ms);
    return out;
}

// A loopback HTTP server whose every answer is `bytes` long, on a thread of its own.
class BulkServer {
public:
    explicit BulkServer(std::size_t bytes) : bytes_(bytes) {
        listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in at{};
        at.sin_family = AF_INET;
        at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof at;
        ::bind(listener_, reinterpret_cast<sockaddr*>(&at), sizeof at);
        ::listen(listener_, 8);
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&at), &size);
        port_ = ntohs(at.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    ~BulkServer() {
        ::shutdown(listener_, SHUT_RDWR);
        thread_.join();
        ::close(listener_);
    }
    int port() const { return port_; }

private:
    void serve() {
        const std::vector<char> chunk(1 << 20, 'x');
        for (int c; (c = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC)) >= 0;) {
            char head[4096];
            (void)!::recv(c, head, sizeof head, 0);
            std::string reply = "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(bytes_) +
                                "\r\nConnection: close\r\n\r\n";
            (void)!::send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
            for (std::size_t sent = 0; sent < bytes_;) {
                ssize_t n =
                    ::send(c, chunk.data(), std::min(chunk.size(), bytes_ - sent), MSG_NOSIGNAL);
                if (n <= 0) break;
                sent += static_cast<std::size_t>(n);
            }
            ::close(c);
        }
    }
    std::size_t bytes_;
    int listener_ = -1, port_ = 0;
    std::thread thread_;
};

// Issue 45: what letting a command out to some hosts costs — its start, and a 100 MB fetch
// through the proxy against the same fetch with the whole network (no proxy in the way).
void network_by_host(const std::filesystem::path& project, const rio::SandboxPolicy& ww_ns,
                     const std::vector<Run>& ww_n) {
    if (rio::namespace_support().kind == rio::NamespaceKind::none) {
        std::printf("network by host: no namespace here (%s)\n",
                    rio::namespace_support().reason.c_str());
        return;
    }
    rio::SandboxPolicy hosts = ww_ns;
    hosts.hosts = {"registry.npmjs.org", "localhost"};
    constexpr int runs = 100;
    std::vector<Run> with_hosts;
    for (int i = 0; i < runs; ++i)
        with_hosts.push_back(run_once(project, hosts));
    std::printf("network by host, %d runs: `true` %.2f ms (%.2f) wall, cpu %.2f ms: %+.2f ms "
                "wall, %+.2f ms CPU over ws-write, ns\n",
                runs, median(walls(with_hosts)), percentile(walls(with_hosts), 0.9),
                median(cpus(with_hosts)), median(walls(with_hosts)) - median(walls(ww_n)),
                median(cpus(with_hosts)) - median(cpus(ww_n)));
    constexpr std::size_t bytes = 100'000'000;
    BulkServer server(bytes);
    const std::string url = "http://localhost:" + std::to_string(server.port()) + "/bulk";
    const std::vector<std::string> curl{"curl", "-s", "-f", "-o", "/dev/null", url};
    rio::SandboxPolicy open = ww_ns;
    open.network = true;
    std::vector<Run> proxied, direct;
    for (int i = 0; i < 5; ++i) {
        proxied.push_back(run_once(project, hosts, curl));
        direct.push_back(run_once(project, open, curl));
    }
    auto rate = [](double ms) { return static_cast<double>(bytes) / 1e6 / (ms / 1e3); };
    std::printf("100 MB from a loopback server by curl, median of 5: through the proxy %.0f ms "
                "(%.0f MB/s, cpu %.0f ms), whole network %.0f ms (%.0f MB/s, cpu %.0f ms)\n",
                median(walls(proxied)), rate(median(walls(proxied))), median(cpus(proxied)),
                median(walls(direct)), rate(median(walls(direct))), median(cpus(direct)));
}

} // namespace

int main() {
    if (int abi = rio::landlock_abi(); abi < 1) {
        std::fprintf(stderr, "sandbox bench: %s\n", rio::landlock_missing(abi).c_str());
        return 1;
    }
    rio::test::TempDir project;
    for (const char* file : {"README.md", "src/main.c", "src/util.c", "docs/guide.md"})
        rio::test::write_bytes(project / file, "x\n");
    std::filesystem::create_directories(project / ".git");
    rio::SandboxPolicy policy;
    policy.project = project.path();
    // What rio-core hides: its own folders and the usual secret places.
    const char* home = std::getenv("HOME");
    std::filesystem::path h = home ? home : "/root";
    policy.hidden = rio::credential_places(h);
    for (const char* own : {".config/rio", ".local/share/rio", ".local/state/rio"})
        policy.hidden.push_back(h / own);
    policy.guarded = {::getpid()};
    policy.cpu_seconds = 125;
    policy.file_bytes = 1ULL << 30;
    policy.new_processes = 4096;
    rio::SandboxPolicy read_only = policy;
    // Plan mode reads of the home folder only what read-only tools need (decision 0071).
    read_only.home = h;
    read_only.home_reads = rio::home_reads(h);
    rio::SandboxPolicy workspace_write = policy;
    workspace_write.profile = rio::SandboxProfile::workspace_write;
    // What rio-core asks for where it can have a namespace: the TMPDIR tmpfs's bounds, the
    // memory limit (a cgroup where one can be made, as the process limit above).
    auto namespaced = [](rio::SandboxPolicy p) {
        p.mount_namespace = true;
        p.tmpdir_bytes = 1ULL << 30;
        p.tmpdir_files = 65536;
        p.memory_bytes = 2ULL << 30;
        return p;
    };
    rio::SandboxPolicy ro_ns = namespaced(read_only), ww_ns = namespaced(workspace_write);
    rio::SandboxPolicy ww_ns_no_cgroup = ww_ns;
    ww_ns_no_cgroup.memory_bytes = 0;
    ww_ns_no_cgroup.new_processes = 0;
    std::printf(
        "mount namespace: %s; cgroup: %s\n",
        rio::namespace_support().kind == rio::NamespaceKind::none
            ? rio::namespace_support().reason.c_str()
        : rio::namespace_support().kind == rio::NamespaceKind::mount ? "root's own"
                                                                     : "in a user namespace",
        rio::cgroup_support().kind == rio::CgroupKind::v2   ? "v2"
        : rio::cgroup_support().kind == rio::CgroupKind::v1 ? "v1"
                                                            : rio::cgroup_support().reason.c_str());

    constexpr int runs = 200;
    std::vector<Run> bare, ro, ww, ro_n, ww_n, ww_n_bare;
    for (int i = 0; i < 5; ++i) // warm the caches
        run_once(project.path(), read_only);
    for (int i = 0; i < runs; ++i) {
        bare.push_back(run_once(project.path(), std::nullopt));
        ro.push_back(run_once(project.path(), read_only));
        ww.push_back(run_once(project.path(), workspace_write));
        ro_n.push_back(run_once(project.path(), ro_ns));
        ww_n.push_back(run_once(project.path(), ww_ns));
        ww_n_bare.push_back(run_once(project.path(), ww_ns_no_cgroup));
    }
    std::printf("`true` through the process runner, %d runs each: median wall time (90th "
                "percentile), median CPU time (the runner's and the command's)\n",
                runs);
    auto line = [&bare](const char* name, const std::vector<Run>& r) {
        std::printf("  %-24s %6.2f ms (%6.2f)  %+.2f ms   cpu %.2f ms  %+.2f ms\n", name,
                    median(walls(r)), percentile(walls(r), 0.9),
                    median(walls(r)) - median(walls(bare)), median(cpus(r)),
                    median(cpus(r)) - median(cpus(bare)));
    };
    line("not sandboxed", bare);
    line("read-only", ro);
    line("workspace-write", ww);
    line("read-only, ns", ro_n);
    line("ws-write, ns", ww_n);
    line("ws-write, ns, no cgroup", ww_n_bare);
    std::printf("  the namespace's own cost (median): read-only %+.2f ms, workspace-write %+.2f ms "
                "wall; %+.2f / %+.2f ms CPU\n",
                median(walls(ro_n)) - median(walls(ro)), median(walls(ww_n)) - median(walls(ww)),
                median(cpus(ro_n)) - median(cpus(ro)), median(cpus(ww_n)) - median(cpus(ww)));
    network_by_host(project.path(), ww_ns, ww_n);
    return 0;
}
