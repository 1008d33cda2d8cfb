// The provider registry: choosing a provider (what was remembered, a key in the environment,
// a local Ollama, else echo), the models that answer, and the providers as frontends list them.
// Options, keys and the calls it makes itself are registry_options, registry_keys and
// registry_calls.
#include "providers/registry.hpp"

#include "host/files/json_file.hpp"
#include "host/http/loopback_get.hpp"
#include "host/store/secrets.hpp"
#include "protocol/json_parse.hpp"
#include "providers/registry_detail.hpp"

#include <cstdlib>

namespace rio {

using registry_detail::api_base;
using registry_detail::as_text;
using registry_detail::env;

namespace {

// Ollama's own convention: OLLAMA_HOST ("host:port", "http://host:port"), else 11434. Only
// the port is used: DESIGN §10 looks for a *local* Ollama, on loopback.
std::uint16_t ollama_port() {
    std::string host = std::getenv("OLLAMA_HOST") ? std::getenv("OLLAMA_HOST") : "";
    auto colon = host.rfind(':');
    if (colon != std::string::npos) {
        int port = std::atoi(host.c_str() + colon + 1);
        if (port > 0 && port < 65536) return static_cast<std::uint16_t>(port);
    }
    return 11434;
}

// How long start-up waits for a local Ollama's model list: 300 ms (decision 0007), unless
// RIO_OLLAMA_PROBE_MS says otherwise (1–10000) — for a machine too loaded to answer on
// loopback that fast, such as a test run beside others.
std::chrono::milliseconds ollama_probe_time() {
    const char* set = std::getenv("RIO_OLLAMA_PROBE_MS");
    const int ms = set ? std::atoi(set) : 0;
    return std::chrono::milliseconds(ms >= 1 && ms <= 10'000 ? ms : 300);
}

// The first model id of an OpenAI-style {"data": [{"id": ...}]} list.
std::string first_model(const std::string& body) {
    auto list = parse_json(body);
    if (!list || !list->is_object() || !list->contains("data") || !(*list)["data"].is_array() ||
        (*list)["data"].empty() || !(*list)["data"][0].is_object())
        return "";
    const Json& id = (*list)["data"][0].value("id", Json());
    return id.is_string() ? id.get<std::string>() : "";
}

} // namespace

ProviderRegistry::ProviderRegistry(asio::io_context& io, HttpClient& http, UserDirs dirs)
    : io_(io), http_(http), dirs_(std::move(dirs)) {
    local_ = make_echo_provider(io_);
    learn_secrets();
}

Status ProviderRegistry::select(std::string_view spec, bool remember) {
    std::string name(spec.substr(0, spec.find(':')));
    if (name == "echo" || name == "script") {
        auto provider = make_provider(io_, spec);
        if (!provider) return provider.error();
        local_ = std::move(*provider);
    } else if (find_provider_spec(name)) {
        local_.reset();
    } else {
        return make_error(ErrorCode::not_configured,
                          "unknown provider '" + std::string(spec) +
                              "' (known: echo, script:FILE, anthropic, openai)");
    }
    name_ = name;
    fallback_ = false;
    if (remember && name != "script") {
        auto config = load_json_file(dirs_.settings_file());
        Json updated = config ? *config : Json::object();
        updated["provider"] = name_;
        if (Status s = save_json_file(dirs_.settings_file(), updated); !s) return s;
    }
    return Ok{};
}

Status ProviderRegistry::select_default() {
    std::optional<std::string> found = found_spec();
    Status selected = select(found.value_or("echo"), /*remember=*/false);
    fallback_ = !found;
    return selected;
}

std::optional<std::string> ProviderRegistry::found_spec() {
    if (auto config = load_json_file(dirs_.settings_file()); config && config->contains("provider"))
        return as_text((*config)["provider"]);
    for (const char* name : {"anthropic", "openai"}) {
        const ProviderSpec* spec = find_provider_spec(name);
        if (!env(spec->key_env).empty()) return name;
    }
    std::uint16_t port = ollama_port();
    if (auto models = loopback_get(port, "/v1/models", ollama_probe_time())) {
        ollama_ = {"http://127.0.0.1:" + std::to_string(port) + "/v1", first_model(*models)};
        return "openai";
    }
    return std::nullopt;
}

std::string ProviderRegistry::model() const {
    if (local_) return local_->model;
    return option(name_, "model");
}

std::optional<PlanModel> ProviderRegistry::plan_model() const {
    auto config = load_json_file(dirs_.settings_file());
    if (!config || !config->contains("plan_model")) return std::nullopt;
    const Json& chosen = (*config)["plan_model"];
    if (!chosen.is_object()) return std::nullopt;
    PlanModel m{as_text(chosen.value("provider", Json())), as_text(chosen.value("model", Json()))};
    const ProviderSpec* spec = find_provider_spec(m.provider);
    if (!spec || spec->default_base_url.empty()) return std::nullopt; // edited by hand
    return m;
}

Status ProviderRegistry::set_plan_model(std::optional<PlanModel> choice) {
    const ProviderSpec* spec = choice ? find_provider_spec(choice->provider) : nullptr;
    if (choice && (!spec || spec->default_base_url.empty()))
        return make_error(ErrorCode::bad_request,
                          "plan_model needs a network provider (anthropic or openai), not '" +
                              choice->provider + "'");
    auto config = load_json_file(dirs_.settings_file());
    Json updated = config ? *config : Json::object();
    if (choice)
        updated["plan_model"] = Json{{"provider", choice->provider}, {"model", choice->model}};
    else
        updated.erase("plan_model");
    return save_json_file(dirs_.settings_file(), updated);
}

std::optional<PlanModel> ProviderRegistry::planner() const {
    std::optional<PlanModel> chosen = plan_model();
    if (chosen && chosen->model.empty()) chosen->model = option(chosen->provider, "model");
    return chosen;
}

PlanModel ProviderRegistry::answering(bool planning) const {
    if (std::optional<PlanModel> chosen = planning ? planner() : std::nullopt) return *chosen;
    return {name_, model()};
}

CancelFn ProviderRegistry::start(ProviderRequest request, ProviderReportFn report,
                                 const PlanModel& who) {
    if (local_ && who.provider == name_)
        return local_->start(std::move(request), std::move(report));
    return start_http_call(
        io_, http_,
        [this, who]() -> Result<HttpProviderSettings> {
            return http_settings(who.provider, who.model);
        },
        std::move(request), std::move(report));
}

Result<const ProviderSpec*> ProviderRegistry::network_spec(std::string_view provider) const {
    const ProviderSpec* spec = find_provider_spec(provider);
    if (!spec)
        return make_error(ErrorCode::bad_request,
                          "unknown provider '" + std::string(provider) + "'");
    return spec;
}

bool ProviderRegistry::lacks_key(const ProviderSpec& spec, bool has_key) const {
    return !spec.key_env.empty() && !has_key &&
           api_base(spec.name, option(spec.name, "base_url")) ==
               api_base(spec.name, spec.default_base_url);
}

ProvidersResult ProviderRegistry::providers() const {
    ProvidersResult out{name_, model(), {}, fallback_, plan_model()};
    for (const ProviderSpec& spec : provider_specs()) {
        KeySource key = KeySource::not_needed;
        if (!spec.key_env.empty()) {
            auto found = load_key(dirs_, spec.name, spec.key_env);
            key = found ? found->source : KeySource::none;
        }
        ProviderInfo info{spec.name,
                          spec.description,
                          key,
                          std::nullopt,
                          !lacks_key(spec, key != KeySource::none),
                          spec.name == name_};
        if (!spec.key_env.empty()) info.key_variable = spec.key_env;
        out.providers.push_back(std::move(info));
    }
    return out;
}

} // namespace rio
