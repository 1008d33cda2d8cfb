#include "host/sandbox/command_cgroup.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace rio {
namespace {

namespace fs = std::filesystem;

// Where each hierarchy is mounted: "cgroup2", or a v1 controller's name.
std::string mount_of(const std::string& wanted) {
    std::ifstream mounts("/proc/self/mounts");
    for (std::string line; std::getline(mounts, line);) {
        std::istringstream fields(line);
        std::string device, where, type, options;
        fields >> device >> where >> type >> options;
        if (wanted == "cgroup2" && type == "cgroup2") return where;
        if (type != "cgroup") continue;
        std::istringstream opts(options);
        for (std::string opt; std::getline(opts, opt, ',');)
            if (opt == wanted) return where;
    }
    return {};
}

// This process's group in a hierarchy: "" for v2's, a controller's name for v1's.
std::string own_group(const std::string& controller) {
    std::ifstream groups("/proc/self/cgroup");
    for (std::string line; std::getline(groups, line);) {
        std::size_t first = line.find(':'), second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) continue;
        std::string controllers = line.substr(first + 1, second - first - 1);
        std::istringstream names(controllers);
        bool match = controller.empty() && controllers.empty();
        for (std::string name; !match && std::getline(names, name, ',');)
            match = name == controller;
        if (match) return line.substr(second + 1);
    }
    return {};
}

bool write_text(const fs::path& file, const std::string& text) {
    std::ofstream out(file);
    out << text;
    out.flush();
    return static_cast<bool>(out);
}

std::string read_text(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream all;
    all << in.rdbuf();
    return all.str();
}

// "key N" in a flat keyed file (memory.events, pids.events, memory.oom_control).
std::uint64_t keyed(const fs::path& file, const std::string& key) {
    std::istringstream lines(read_text(file));
    for (std::string line; std::getline(lines, line);)
        if (line.rfind(key + " ", 0) == 0)
            return std::strtoull(line.c_str() + key.size() + 1, nullptr, 10);
    return 0;
}

bool has_word(const std::string& text, const std::string& word) {
    std::istringstream words(text);
    for (std::string w; words >> w;)
        if (w == word) return true;
    return false;
}

// The parents a command's group is made in, or why there are none.
CgroupSupport find_parents() {
    CgroupSupport support;
    // v2 where the core's group hands memory and pids down to groups below it.
    if (std::string root = mount_of("cgroup2"); !root.empty()) {
        fs::path parent = fs::path(root) / fs::path(own_group("")).relative_path();
        std::string delegated = read_text(parent / "cgroup.subtree_control");
        if (has_word(delegated, "memory") && has_word(delegated, "pids") &&
            ::access(parent.c_str(), W_OK) == 0) {
            support.kind = CgroupKind::v2;
            support.parents = {parent};
            return support;
        }
    }
    std::string memory = mount_of("memory"), pids = mount_of("pids");
    if (!memory.empty() && !pids.empty()) {
        fs::path m = fs::path(memory) / fs::path(own_group("memory")).relative_path();
        fs::path p = fs::path(pids) / fs::path(own_group("pids")).relative_path();
        if (::access(m.c_str(), W_OK) == 0 && ::access(p.c_str(), W_OK) == 0) {
            support.kind = CgroupKind::v1;
            support.parents = {m, p};
            return support;
        }
        support.reason = "the cgroup v1 memory and pids groups of rio-core are not writable (only "
                         "root may make groups there)";
        return support;
    }
    support.reason = "no cgroup with the memory and pids controllers is delegated to rio-core";
    return support;
}

std::atomic<unsigned> made{0};

// Makes the group's folders in `support`'s parents (added to `folders` as they are made, so
// that a failure half-way removes them) and sets its limits.
std::string make_in(const CgroupSupport& support, std::uint64_t memory, std::uint64_t processes,
                    std::vector<fs::path>& folders) {
    std::string name = "rio-cmd-" + std::to_string(::getpid()) + "-" + std::to_string(++made);
    for (const fs::path& parent : support.parents) {
        fs::path folder = parent / name;
        if (::mkdir(folder.c_str(), 0755) != 0)
            return "cannot make the cgroup " + folder.string() + ": " + std::strerror(errno);
        folders.push_back(folder);
    }
    bool ok = true;
    if (support.kind == CgroupKind::v2) {
        const fs::path& g = folders[0];
        if (memory) ok = write_text(g / "memory.max", std::to_string(memory));
        write_text(g / "memory.swap.max", "0");  // not there without swap accounting
        write_text(g / "memory.oom.group", "1"); // an OOM kill ends the whole command
        if (ok && processes) ok = write_text(g / "pids.max", std::to_string(processes));
    } else {
        if (memory) {
            ok = write_text(folders[0] / "memory.limit_in_bytes", std::to_string(memory));
            // Only where swap is accounted; it must not be a way around the limit.
            write_text(folders[0] / "memory.memsw.limit_in_bytes", std::to_string(memory));
        }
        if (ok && processes) ok = write_text(folders[1] / "pids.max", std::to_string(processes));
    }
    return ok ? "" : "cannot set the limits of the cgroup " + folders[0].string();
}

} // namespace

const CgroupSupport& cgroup_support() {
    static const CgroupSupport support = [] {
        CgroupSupport found = find_parents();
        if (found.kind == CgroupKind::none) return found;
        // Making one is the only proof that one can be made.
        std::vector<fs::path> folders;
        std::string failed = make_in(found, std::uint64_t{64} << 20, 64, folders);
        CommandCgroup::remove_folders(folders);
        if (!failed.empty()) return CgroupSupport{CgroupKind::none, failed, {}};
        return found;
    }();
    return support;
}

Result<CommandCgroup> CommandCgroup::make(std::uint64_t memory_bytes, std::uint64_t processes) {
    const CgroupSupport& support = cgroup_support();
    CommandCgroup group;
    if (support.kind == CgroupKind::none) return group;
    group.kind_ = support.kind;
    std::string failed = make_in(support, memory_bytes, processes, group.folders_);
    if (!failed.empty()) return make_error(ErrorCode::io_error, failed); // group removes them
    return group;
}

CommandCgroup::CommandCgroup(CommandCgroup&& other) noexcept
    : kind_(other.kind_), folders_(std::exchange(other.folders_, {})) {}

CommandCgroup& CommandCgroup::operator=(CommandCgroup&& other) noexcept {
    if (this != &other) {
        remove();
        kind_ = other.kind_;
        folders_ = std::exchange(other.folders_, {});
    }
    return *this;
}

CommandCgroup::~CommandCgroup() {
    remove();
}

std::vector<fs::path> CommandCgroup::procs_files() const {
    std::vector<fs::path> files;
    for (const fs::path& folder : folders_)
        files.push_back(folder / "cgroup.procs");
    return files;
}

CgroupOutcome CommandCgroup::outcome() const {
    CgroupOutcome out;
    if (folders_.empty()) return out;
    if (kind_ == CgroupKind::v2) {
        out.out_of_memory = keyed(folders_[0] / "memory.events", "oom_kill") > 0;
        out.out_of_processes = keyed(folders_[0] / "pids.events", "max") > 0;
    } else {
        out.out_of_memory = keyed(folders_[0] / "memory.oom_control", "oom_kill") > 0;
        out.out_of_processes = keyed(folders_[1] / "pids.events", "max") > 0;
    }
    return out;
}

void CommandCgroup::remove() {
    remove_folders(folders_);
}

void CommandCgroup::remove_folders(std::vector<fs::path>& folders) {
    // What left the command's process group is still in its cgroup: killed here, then the
    // group goes. A task just killed leaves the group a moment later.
    for (const fs::path& folder : folders) {
        for (int attempt = 0; attempt < 200; ++attempt) {
            if (::rmdir(folder.c_str()) == 0 || errno == ENOENT) break;
            std::istringstream pids(read_text(folder / "cgroup.procs"));
            for (pid_t pid; pids >> pid;)
                ::kill(pid, SIGKILL);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    folders.clear();
}

} // namespace rio
