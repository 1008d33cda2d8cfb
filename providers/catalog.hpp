// The built-in providers and the options each declares (DESIGN §10): plain data that the
// registry, the option ops and the frontends read.
#pragma once

#include "protocol/closed_sets.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace rio {

struct OptionSpec {
    std::string name;
    std::string description;
    std::vector<std::string> choices; // empty: free text
};

struct ProviderSpec {
    std::string name;
    std::string title; // what a person calls it: "Anthropic"
    std::string description;
    std::string key_env;      // "" when the provider takes no key
    std::string base_url_env; // "" when it has no endpoint
    std::string default_base_url;
    std::string default_model;
    std::vector<OptionSpec> options;
};

const std::vector<ProviderSpec>& provider_specs();
const ProviderSpec* find_provider_spec(std::string_view name);

// OpenAI's models that answer only on the Responses API, not on Chat Completions: the Codex
// models, the pro ones, deep research, computer use. A router's "vendor/model" id is served
// on Chat Completions by the router, so only bare ids count.
bool answers_only_on_responses(std::string_view model);

// The wire an OpenAI-compatible provider speaks (decision 0097): its `wire` option, "chat" or
// "responses"; when empty, chosen by the model.
WireFormat openai_wire(std::string_view wire_option, std::string_view model);

inline constexpr int default_max_tokens = 8192;
inline constexpr double default_idle_timeout_s = 90;

} // namespace rio
