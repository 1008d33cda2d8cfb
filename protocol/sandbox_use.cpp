#include "protocol/sandbox_use.hpp"

namespace rio {

std::string sandbox_text(const SandboxUse& use) {
    std::string environment = use.environment.value_or(false) ? ", with your environment" : "";
    if (use.profile.name().empty() || use.profile == SandboxProfile::none)
        return "not sandboxed" + environment;
    std::string network = use.network ? ", network allowed" : ", no network";
    if (!use.network && use.hosts && !use.hosts->empty()) {
        network = ", network only to ";
        for (std::size_t i = 0; i < use.hosts->size(); ++i)
            network += (i ? ", " : "") + (*use.hosts)[i];
    }
    return "sandboxed: " + use.profile.name() + network + environment;
}

void to_json(Json& j, const NetworkGrant& grant) {
    if (grant.everything)
        j = true;
    else if (!grant.items.empty())
        j = grant.items;
    else
        j = false;
}

} // namespace rio
