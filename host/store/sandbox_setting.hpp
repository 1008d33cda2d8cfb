// What the user says of the command sandbox (DESIGN §19) in their config.json: `"sandbox":
// false` turns it off; an object keeps it on and sets what it allows — a mount namespace or
// not (decision 0080), and the limits (issue 42):
//
//   "sandbox": {"namespace": false, "memory": "2 GiB", "processes": 1024,
//               "tmpdir_size": "1 GiB", "tmpdir_files": 100000,
//               "hosts": ["registry.npmjs.org", "*.pythonhosted.org"]}
//
// `hosts` are standing hosts (issue 45): every approved build-mode command may reach them,
// through rio's proxy, without being asked.
//
// Only the user's own file can say it: nothing in a project turns it off or widens it.
#pragma once

#include "io/user_dirs.hpp"
#include "protocol/error.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace rio {

struct SandboxSetting {
    bool on = true;
    // Commands may run in a mount namespace of their own where the system offers one; false
    // keeps decision 0041's split of the project's top level.
    bool namespaces = true;
    std::uint64_t memory = 0;       // bytes a command's processes may use together; 0: default
    std::uint64_t processes = 0;    // processes (and threads) it may have at once; 0: default
    std::uint64_t tmpdir_bytes = 0; // its TMPDIR's size; 0: default
    std::uint64_t tmpdir_files = 0; // files in its TMPDIR; 0: default
    // Standing hosts, as rules write them back ("registry.npmjs.org", "*.example.com"); an
    // entry that is no host is left out and said in `warning`.
    std::vector<std::string> hosts;
    std::string warning; // why the file's value was not taken, "" when there was none to skip
};

// A file that cannot be read or a value that is not understood leaves that part as it was,
// the safe way (the sandbox on, the defaults), and says why in `warning`.
SandboxSetting configured_sandbox(const UserDirs& dirs);

// Adds `hosts` (rules already read) to the standing ones in the user's config.json, each once,
// keeping everything else in the file. Refused where the file cannot be read or the sandbox is
// turned off there (a standing host would mean nothing).
Status keep_standing_hosts(const UserDirs& dirs, const std::vector<std::string>& hosts);
// Why keep_standing_hosts would be refused now, checked before a decision that keeps them.
Status standing_hosts_problem(const UserDirs& dirs);

// What a command may use (issue 42): the user's settings, the defaults where they set none.
struct SandboxLimits {
    std::uint64_t memory = std::uint64_t{2} << 30; // all of its processes together
    std::uint64_t processes = 4096;                // at once, threads included
    std::uint64_t tmpdir_bytes = std::uint64_t{1} << 30;
    std::uint64_t tmpdir_files = 65536;
};
SandboxLimits sandbox_limits(const SandboxSetting& setting);

// "2 GiB", "512M", "1.5g", 1048576: bytes. nullopt for anything else.
std::optional<std::uint64_t> size_in_bytes(const nlohmann::json& value);

} // namespace rio
