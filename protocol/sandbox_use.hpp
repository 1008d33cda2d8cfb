// How a command runs, or ran (DESIGN §19), as proposals, tool results and the loop's effects
// carry it.
#pragma once

#include "protocol/closed_sets.hpp"
#include "protocol/fields.hpp"

#include <optional>
#include <string>
#include <vector>

namespace rio {

// What a person let one command reach beyond "no network" (agent.approve's `network`, issue
// 45): the whole network (`true`), or only some hosts (["registry.npmjs.org", …]) through rio's
// proxy. `false`, [] or absent: nothing.
struct NetworkGrant {
    static constexpr bool json_bool_or_array = true; // fields.hpp: true or host names
    bool everything = false;
    std::vector<std::string> items; // host names, addresses or "*.example.com" patterns

    bool any() const { return everything || !items.empty(); }
};
void to_json(Json& j, const NetworkGrant& grant);

// How a command runs, or ran (DESIGN §19): under a sandbox profile ("read-only" in plan
// mode, "workspace-write" in build mode) or "none", and whether a person let it reach the
// network: all of it, or only `hosts` through rio's proxy.
struct SandboxUse {
    Wire<SandboxProfile> profile;
    bool network = false;
    // A person approved this command "with my environment": variables that look like secrets
    // are passed to it too (decision 0071). Absent: they are not, but those the user named.
    std::optional<bool> environment = std::nullopt;
    // The network only to these, through rio's proxy (network is then false): the hosts a
    // person approved for the command and the user's standing ones (sandbox.hosts).
    std::optional<std::vector<std::string>> hosts = std::nullopt;
};
RIO_FIELDS(SandboxUse, profile, network, environment, hosts)
// "sandboxed: read-only, no network", "sandboxed: workspace-write, network allowed",
// "sandboxed: workspace-write, network only to registry.npmjs.org", "not sandboxed": the one
// wording, for the model and for every frontend.
std::string sandbox_text(const SandboxUse& use);

} // namespace rio
