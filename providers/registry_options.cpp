// The registry's options: each provider's stored in its own file, the value in effect, the
// context budget they make, and setting one after checking it.
#include "host/files/json_file.hpp"
#include "host/store/secrets.hpp"
#include "providers/registry.hpp"
#include "providers/registry_detail.hpp"

#include <algorithm>
#include <cstdlib>

namespace rio {

using registry_detail::api_base;
using registry_detail::as_text;
using registry_detail::env;

namespace registry_detail {

// A variable's value; key variables come from where rio-core put them at start.
std::string env(const std::string& name) {
    return key_variable(name).value_or("");
}

std::string as_text(const Json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_null()) return "";
    return value.dump();
}

// The base URL as the wire joins it: no trailing '/', and for Anthropic no trailing "/v1"
// (its paths start with /v1/, and its documentation's URLs end in /v1 as often as not);
// OpenAI-style servers keep theirs, their paths follow it.
std::string api_base(std::string_view provider, std::string url) {
    while (!url.empty() && url.back() == '/')
        url.pop_back();
    if (provider == "anthropic" && url.size() >= 3 && url.compare(url.size() - 3, 3, "/v1") == 0)
        url.resize(url.size() - 3);
    return url;
}

} // namespace registry_detail

namespace {

std::filesystem::path options_file(const UserDirs& dirs, std::string_view provider) {
    return dirs.config / "providers" / (std::string(provider) + ".json");
}

// The `wire` option's word for a wire.
std::string wire_option_name(WireFormat wire) {
    return wire == WireFormat::responses ? "responses" : "chat";
}

Status check_option(const OptionSpec& spec, const std::string& value) {
    if (value.empty()) return Ok{}; // back to the default
    if (!spec.choices.empty() &&
        std::find(spec.choices.begin(), spec.choices.end(), value) == spec.choices.end()) {
        std::string named;
        for (const std::string& choice : spec.choices)
            if (!choice.empty()) named += (named.empty() ? "" : ", ") + choice;
        return make_error(ErrorCode::bad_request,
                          spec.name + " must be one of " + named + ", or empty for the default");
    }
    if (spec.name == "base_url" && value.rfind("http://", 0) != 0 &&
        value.rfind("https://", 0) != 0)
        return make_error(ErrorCode::bad_request, "base_url must start with http:// or https://");
    if (spec.name == "ca_file") {
        if (value.front() != '/')
            return make_error(ErrorCode::bad_request, "ca_file must be an absolute path");
        if (::access(value.c_str(), R_OK) != 0)
            return make_error(ErrorCode::bad_request,
                              "cannot read the CA file " + value + ": " + std::strerror(errno));
    }
    if (spec.name == "compact_at") {
        char* end = nullptr;
        double share = std::strtod(value.c_str(), &end);
        if (end == value.c_str() || *end != '\0' || share < 0.2 || share > 0.95)
            return make_error(ErrorCode::bad_request,
                              "compact_at must be a share of the window from 0.2 to 0.95");
    }
    if (spec.name == "max_tokens" || spec.name == "idle_timeout_s" ||
        spec.name == "context_window") {
        char* end = nullptr;
        double number = std::strtod(value.c_str(), &end);
        if (end == value.c_str() || *end != '\0' || number <= 0)
            return make_error(ErrorCode::bad_request, spec.name + " must be a positive number");
    }
    return Ok{};
}

} // namespace

Json ProviderRegistry::stored_options(std::string_view provider) const {
    auto stored = load_json_file(options_file(dirs_, provider));
    return stored ? *stored : Json::object();
}

// The value in effect: --model for the model, the stored option, else the environment or Ollama
// found at start, else the provider's default.
std::string ProviderRegistry::option(std::string_view provider, std::string_view name) const {
    if (name == "model" && !model_for_run_.empty()) return model_for_run_;
    Json stored = stored_options(provider);
    if (auto it = stored.find(name); it != stored.end() && !as_text(*it).empty())
        return as_text(*it);
    const ProviderSpec* spec = find_provider_spec(provider);
    if (!spec) return "";
    bool ollama = provider == "openai" && ollama_;
    if (name == "model")
        return ollama && !ollama_->second.empty() ? ollama_->second : spec->default_model;
    if (name == "base_url") {
        if (std::string from_env = env(spec->base_url_env); !from_env.empty()) return from_env;
        return ollama ? ollama_->first : spec->default_base_url;
    }
    if (name == "max_tokens") return std::to_string(default_max_tokens);
    if (name == "wire" && provider == "openai")
        return wire_option_name(openai_wire("", option(provider, "model")));
    if (name == "idle_timeout_s") return std::to_string(static_cast<int>(default_idle_timeout_s));
    return "";
}

ContextBudget ProviderRegistry::budget() const {
    ContextBudget b;
    std::string model = this->model();
    std::uint64_t known = known_context_window(model);
    b.window = known ? known : default_context_window;
    if (std::string set = option(name_, "context_window"); !set.empty())
        if (auto n = std::strtoull(set.c_str(), nullptr, 10); n > 0) b.window = n;
    if (std::string set = option(name_, "compact_at"); !set.empty())
        if (double share = std::strtod(set.c_str(), nullptr); share >= 0.2 && share <= 0.95)
            b.compact_at = share;
    return b;
}

Result<Json> ProviderRegistry::options_json(std::string_view provider) const {
    const ProviderSpec* spec = find_provider_spec(provider);
    if (!spec)
        return make_error(ErrorCode::bad_request,
                          "unknown provider '" + std::string(provider) + "'");
    Json stored = stored_options(provider);
    Json options = Json::array();
    for (const OptionSpec& o : spec->options) {
        Json entry{{"name", o.name},
                   {"value", option(provider, o.name)},
                   {"set", stored.contains(o.name)},
                   {"description", o.description}};
        if (!o.choices.empty()) entry["choices"] = o.choices;
        options.push_back(std::move(entry));
    }
    return Json{{"provider", provider}, {"options", options}};
}

Status ProviderRegistry::set_option(std::string_view provider, std::string_view name,
                                    const Json& value) {
    const ProviderSpec* spec = find_provider_spec(provider);
    if (!spec)
        return make_error(ErrorCode::bad_request,
                          "unknown provider '" + std::string(provider) + "'");
    auto declared = std::find_if(spec->options.begin(), spec->options.end(),
                                 [&](const OptionSpec& o) { return o.name == name; });
    if (declared == spec->options.end())
        return make_error(ErrorCode::bad_request,
                          std::string(provider) + " has no option '" + std::string(name) + "'");
    std::string text = as_text(value);
    if (Status s = check_option(*declared, text); !s) return s;
    if (name == "base_url" && !text.empty()) text = api_base(provider, text);
    Json stored = stored_options(provider);
    if (text.empty())
        stored.erase(std::string(name));
    else
        stored[std::string(name)] = text;
    return save_json_file(options_file(dirs_, provider), stored);
}

} // namespace rio
