// How a command runs, or ran (DESIGN §19), as proposals, tool results and the loop's effects
// carry it.
#pragma once

#include "protocol/closed_sets.hpp"
#include "protocol/fields.hpp"

#include <optional>
#include <string>

namespace rio {

// How a command runs, or ran (DESIGN §19): under a sandbox profile ("read-only" in plan
// mode, "workspace-write" in build mode) or "none", and whether a person let it reach the
// network.
struct SandboxUse {
    Wire<SandboxProfile> profile;
    bool network = false;
    // A person approved this command "with my environment": variables that look like secrets
    // are passed to it too (decision 0071). Absent: they are not, but those the user named.
    std::optional<bool> environment = std::nullopt;
};
RIO_FIELDS(SandboxUse, profile, network, environment)
// "sandboxed: read-only, no network", "sandboxed: workspace-write, network allowed", "not
// sandboxed": the one wording, for the model and for every frontend.
std::string sandbox_text(const SandboxUse& use);

} // namespace rio
