// agent.provider.test (DESIGN §10): one tiny real call to a network provider — the request a
// turn sends, cut to a one-line question without tools and a handful of tokens, tried once —
// and what became of it in the person's words: it works, the key was refused, nothing
// answered, the address is not the API, rate limited, the provider's own failure.
#pragma once

#include "host/http/http_client.hpp"
#include "providers/http_provider.hpp"

#include <functional>
#include <optional>
#include <string>

namespace rio {

struct ProviderCheck {
    bool ok = false;
    std::optional<ErrorCode> code; // when it failed: auth, rate_limit, server, network, …
    std::string message;           // for the person
};

// `done` runs once, on io's thread (unless the client is destroyed first).
void check_provider(HttpClient& http, HttpProviderSettings settings,
                    std::function<void(ProviderCheck)> done);

} // namespace rio
