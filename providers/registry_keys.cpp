// The registry's keys: where they come from, storing and forgetting one, and the secrets
// the core redacts (every key it has known).
#include "host/store/secrets.hpp"
#include "providers/registry.hpp"
#include "providers/registry_detail.hpp"

#include <algorithm>

namespace rio {

using registry_detail::env;

std::vector<std::string> ProviderRegistry::key_variables() {
    std::vector<std::string> names;
    for (const ProviderSpec& spec : provider_specs())
        if (!spec.key_env.empty()) names.push_back(spec.key_env);
    return names;
}

void ProviderRegistry::learn_secrets() {
    secrets_.clear();
    for (const ProviderSpec& spec : provider_specs()) {
        if (spec.key_env.empty()) continue;
        if (std::string from_env = env(spec.key_env); !from_env.empty())
            secrets_.push_back(from_env);
        if (auto stored = load_key(dirs_, spec.name, "")) secrets_.push_back(stored->value);
    }
}

Status ProviderRegistry::set_key(std::string_view provider, std::string_view key) {
    auto spec = network_spec(provider);
    if (!spec) return spec.error();
    if ((*spec)->key_env.empty())
        return make_error(ErrorCode::bad_request, std::string(provider) + " takes no key");
    Status stored = store_key(dirs_, provider, key);
    learn_secrets();
    return stored;
}

Status ProviderRegistry::forget_key(std::string_view provider) {
    auto spec = network_spec(provider);
    if (!spec) return spec.error();
    Status cleared = clear_key(dirs_, provider);
    // A key once known stays redacted: it may still sit in a conversation or a log.
    std::vector<std::string> before = std::move(secrets_);
    learn_secrets();
    for (std::string& old : before)
        if (std::find(secrets_.begin(), secrets_.end(), old) == secrets_.end())
            secrets_.push_back(std::move(old));
    return cleared;
}

} // namespace rio
