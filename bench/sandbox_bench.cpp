// The sandbox's start-up per command (DESIGN §19, target ≤ 2 ms extra; issue 42: ≤ 3 ms more
// with the mount namespace): `true` run 200 times through rio's process runner without the
// sandbox, under read-only and under workspace-write, each without and with the command's
// own mount namespace (decision 0080), and once without a cgroup; interleaved so that the
// machine's load falls on all alike; the medians and their difference. docs/BENCHMARKS.md has
// the figures.
#include "host/process/process_runner.hpp"
#include "host/sandbox/command_cgroup.hpp"
#include "host/sandbox/landlock.hpp"
#include "host/sandbox/mount_namespace.hpp"
#include "tests/support/temp_dir.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sys/resource.h>

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

Run run_once(const std::filesystem::path& project,
             const std::optional<rio::SandboxPolicy>& sandbox) {
    asio::io_context io;
    rio::CommandSpec spec;
    spec.argv = {"true"};
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
        std::fprintf(stderr, "sandbox bench: `true` failed\n");
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
    return 0;
}
