#include "protocol/sandbox_use.hpp"

namespace rio {

std::string sandbox_text(const SandboxUse& use) {
    std::string environment = use.environment.value_or(false) ? ", with your environment" : "";
    if (use.profile.name().empty() || use.profile == SandboxProfile::none)
        return "not sandboxed" + environment;
    return "sandboxed: " + use.profile.name() +
           (use.network ? ", network allowed" : ", no network") + environment;
}

} // namespace rio
