#include "agent_tools/command_sandbox.hpp"

#include "host/store/sandbox_setting.hpp"

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <unistd.h>

namespace rio {
namespace {

constexpr std::uint64_t gib = std::uint64_t{1} << 30;

// No network, no secrets: a command a person did not let out has no use for credentials,
// and anything it reads can reach the model (DESIGN §19).
std::vector<std::filesystem::path> hidden_places(const UserDirs& dirs, bool network,
                                                 const CommandSettings& settings) {
    std::vector<std::filesystem::path> hidden;
    for (const std::filesystem::path& own : {dirs.config, dirs.data, dirs.state, dirs.runtime})
        if (!own.empty()) hidden.push_back(own);
    if (!network) {
        for (auto& place : credential_places(home_folder()))
            hidden.push_back(std::move(place));
        for (const auto& place : settings.home_unreadable)
            hidden.push_back(place);
    }
    return hidden;
}

// The defaults and the user's additions, less what the user took out (decision 0071).
std::vector<std::filesystem::path> readable_home(const CommandSettings& settings) {
    std::vector<std::filesystem::path> places = home_reads(home_folder());
    places.insert(places.end(), settings.home_readable.begin(), settings.home_readable.end());
    std::erase_if(places, [&](const std::filesystem::path& place) {
        return std::find(settings.home_unreadable.begin(), settings.home_unreadable.end(), place) !=
               settings.home_unreadable.end();
    });
    return places;
}

} // namespace

std::filesystem::path home_folder() {
    const char* home = std::getenv("HOME");
    return home && *home == '/' ? std::filesystem::path(home) : std::filesystem::path();
}

Result<std::optional<SandboxPolicy>> command_sandbox(const ToolContext& context,
                                                     const std::optional<SandboxUse>& use,
                                                     std::chrono::seconds timeout,
                                                     const CommandSettings& settings) {
    if (!use) return make_error(ErrorCode::internal, "no sandbox was chosen for this command");
    if (use->profile == SandboxProfile::none) return std::optional<SandboxPolicy>();
    if (!context.commands_sandboxed)
        return make_error(ErrorCode::refused, "commands cannot run sandboxed here");
    if (!context.workspace.root) return make_error(ErrorCode::no_project, "no project is open");
    SandboxPolicy p;
    // A name this core does not know gets the narrower profile.
    p.profile = use->profile == SandboxProfile::workspace_write ? SandboxProfile::workspace_write
                                                                : SandboxProfile::read_only;
    p.network = use->network;
    if (!use->network && use->hosts) p.hosts = *use->hosts; // through rio's proxy (issue 45)
    p.project = *context.workspace.root;
    p.hidden = hidden_places(context.dirs, use->network, settings);
    p.home = home_folder();
    p.home_reads = readable_home(settings);
    // The core and whatever started it (a frontend on its stdio), where Landlock cannot
    // scope signals.
    p.guarded = {::getpid()};
    if (pid_t parent = ::getppid(); parent > 1) p.guarded.push_back(parent);
    // Past these a process is stopped by the kernel: CPU for as long as the timeout lets
    // every core work, files no bigger than a build makes, processes a fork bomb runs into.
    unsigned cores = std::max(1U, std::thread::hardware_concurrency());
    p.cpu_seconds = static_cast<std::uint64_t>(timeout.count()) * cores + 5;
    p.file_bytes = p.profile == SandboxProfile::read_only ? 1 * gib : 16 * gib;
    p.mount_namespace = context.commands_in_namespace; // decision 0080
    // Read for each command, as the other command settings are (issue 42).
    const SandboxLimits limits = sandbox_limits(configured_sandbox(context.dirs));
    p.new_processes = limits.processes;
    p.memory_bytes = limits.memory;
    p.tmpdir_bytes = limits.tmpdir_bytes;
    p.tmpdir_files = limits.tmpdir_files;
    return std::optional<SandboxPolicy>(std::move(p));
}

std::string sandbox_note(const SandboxUse& use, bool in_namespace) {
    if (use.profile == SandboxProfile::none) return "(" + sandbox_text(use) + ")";
    std::string writable =
        use.profile == SandboxProfile::read_only
            ? "nothing is writable but $TMPDIR; of $HOME only git's configuration, toolchains "
              "and package caches are readable"
        : in_namespace
            ? "the project is writable except .git/ and .rio/ (and, in a project without .git/, "
              "new entries at its top level), and $TMPDIR"
            : "the project is writable except .git/, .rio/ and new entries at its top level, "
              "and $TMPDIR";
    std::string network = use.network ? "" : "; connections are refused";
    if (!use.network && use.hosts && !use.hosts->empty())
        network = "; it reaches those hosts only through rio's proxy (HTTPS_PROXY=http://"
                  "127.0.0.1:" +
                  std::to_string(command_proxy_port) +
                  "), which refuses every other host; nothing else is reachable";
    return "(" + sandbox_text(use) + ": " + writable + network +
           ". A write or connection refused there is the sandbox's rule, not a fault to work "
           "around.)";
}

} // namespace rio
