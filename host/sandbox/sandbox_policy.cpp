#include "host/sandbox/sandbox_policy.hpp"

namespace rio {

std::string_view to_string(SandboxProfile profile) {
    return profile == SandboxProfile::read_only ? "read-only" : "workspace-write";
}

std::vector<std::filesystem::path> credential_places(const std::filesystem::path& home) {
    if (home.empty() || !home.is_absolute()) return {};
    std::vector<std::filesystem::path> places;
    for (const char* name : {".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".netrc",
                             ".git-credentials", ".pgpass", ".pypirc", ".config/gcloud",
                             ".config/gh", ".password-store", ".local/share/keyrings"})
        places.push_back(home / name);
    return places;
}

} // namespace rio
