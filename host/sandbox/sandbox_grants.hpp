// Which paths a sandboxed command may read, list and write, as plain data. Landlock only
// grants (a rule covers a whole hierarchy and nothing can be carved out of it), so "read
// everything but ~/.ssh" becomes: read every entry of ~ except .ssh, every entry of / except
// /home's way down to it, and so on. Only folders on the way to a hidden place are listed;
// everything else is one rule.
#pragma once

#include "host/sandbox/sandbox_policy.hpp"
#include "protocol/error.hpp"

#include <filesystem>
#include <vector>

namespace rio {

enum class GrantRight {
    read,   // read and execute files, list folders
    list,   // list a folder's names only: one that holds a hidden place somewhere below
    write,  // everything: create, write, remove, rename, truncate
    device, // read and write a device (/dev/null, /dev/zero, /dev/full)
};

struct Grant {
    std::filesystem::path path;
    GrantRight right = GrantRight::read;
    bool folder = false;
    bool required = false; // the TMPDIR: without its rule nothing runs
};

// The grants of `policy`: everything readable but the hidden places and /dev (where only
// the harmless devices are), the private TMPDIR writable, and under workspace-write the
// project writable except its .git and .rio and the hidden places. The project and the
// TMPDIR must exist; what vanishes during the walk is simply not granted.
//
// `bound_read_only`: those of the project's .git and .rio that a mount namespace binds
// read-only (decision 0080). They need no carving out, so where both are bound (and no
// hidden place lies in the project) the project is one grant, its top level included; one
// that is not bound keeps decision 0041's split of the top level.
Result<std::vector<Grant>>
sandbox_grants(const SandboxPolicy& policy,
               const std::vector<std::filesystem::path>& bound_read_only = {});

} // namespace rio
