#include "providers/registry.hpp"

#include "host/files/json_file.hpp"
#include "host/http/loopback_get.hpp"
#include "host/store/secrets.hpp"
#include "protocol/json_parse.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace rio {
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

// A variable's value; key variables come from where rio-core put them at start.
std::string env(const std::string& name) {
    return key_variable(name).value_or("");
}

std::filesystem::path options_file(const UserDirs& dirs, std::string_view provider) {
    return dirs.config / "providers" / (std::string(provider) + ".json");
}

std::string as_text(const Json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_null()) return "";
    return value.dump();
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

ProviderRegistry::ProviderRegistry(asio::io_context& io, HttpClient& http, UserDirs dirs)
    : io_(io), http_(http), dirs_(std::move(dirs)) {
    local_ = make_echo_provider(io_);
    learn_secrets();
}

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
    if (name == "wire") return wire_option_name(openai_wire("", option(provider, "model")));
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

Result<HttpProviderSettings>
ProviderRegistry::http_settings(std::string_view provider, std::optional<std::string> model) const {
    auto spec = network_spec(provider);
    if (!spec) return spec.error();
    auto format = from_wire<WireFormat>(provider);
    if (!format)
        return make_error(ErrorCode::internal,
                          "provider '" + std::string(provider) + "' speaks no known API");
    HttpProviderSettings s;
    s.format = *format;
    s.base_url = api_base(provider, option(provider, "base_url"));
    s.model = model ? std::move(*model) : option(provider, "model");
    // The wire follows the model that answers this call (a plan model may need another).
    if (s.format == WireFormat::openai)
        s.format = openai_wire(as_text(stored_options(provider).value("wire", Json())), s.model);
    s.effort = option(provider, "effort");
    s.ca_file = option(provider, "ca_file");
    s.max_tokens = std::atoi(option(provider, "max_tokens").c_str());
    s.idle_timeout = std::chrono::milliseconds(
        static_cast<long>(std::strtod(option(provider, "idle_timeout_s").c_str(), nullptr) * 1000));
    if (auto key = load_key(dirs_, provider, (*spec)->key_env)) s.key = key->value;
    if (lacks_key(**spec, s.key.has_value()))
        return make_error(ErrorCode::not_configured,
                          "No " + (*spec)->title + " key yet: add one in Settings ▸ Providers " +
                              "(in rio-cli, /key), or set " + (*spec)->key_env + ".");
    return s;
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

void ProviderRegistry::list_models(std::string_view provider,
                                   std::function<void(Result<Json>)> done) {
    auto settings = http_settings(provider);
    if (!settings) {
        done(settings.error());
        return;
    }
    HttpRequest get;
    get.method = "GET";
    get.idle_timeout = std::chrono::seconds(20);
    get.ca_file = settings->ca_file;
    std::string base = settings->base_url;
    while (!base.empty() && base.back() == '/')
        base.pop_back();
    if (settings->format == WireFormat::anthropic) {
        get.url = base + "/v1/models";
        get.headers = {{"anthropic-version", "2023-06-01"}};
        if (settings->key) get.headers.emplace_back("x-api-key", *settings->key);
    } else {
        get.url = base + "/models";
        if (settings->key) get.headers.emplace_back("authorization", "Bearer " + *settings->key);
    }
    auto state = std::make_shared<std::pair<int, std::string>>(0, "");
    HttpCallbacks callbacks;
    callbacks.on_head = [state](const HttpHead& head) { state->first = head.status; };
    callbacks.on_body = [state](std::string_view bytes) {
        if (state->second.size() < (4u << 20)) state->second.append(bytes);
    };
    callbacks.on_done = [state, done, format = settings->format](std::optional<Error> error) {
        if (error) return done(*error);
        if (state->first != 200)
            return done(make_error(ErrorCode::bad_response,
                                   "the model list answered HTTP " + std::to_string(state->first)));
        auto list = parse_json(state->second);
        if (!list || !list->is_object() || !list->contains("data") || !(*list)["data"].is_array())
            return done(
                make_error(ErrorCode::bad_response, "the model list is not the expected JSON"));
        Json models = Json::array();
        for (const Json& m : (*list)["data"])
            if (m.is_object() && m.contains("id") && m["id"].is_string()) models.push_back(m["id"]);
        done(Json{{"models", models}});
    };
    http_.start(std::move(get), std::move(callbacks));
}

Status ProviderRegistry::test(std::string_view provider, std::function<void(ProviderCheck)> done) {
    auto spec = network_spec(provider);
    if (!spec) return spec.error();
    if ((*spec)->key_env.empty()) { // echo and script answer from inside the core
        done({true, std::nullopt, (*spec)->title + " needs no model or network: it answers here."});
        return Ok{};
    }
    auto settings = http_settings(provider);
    if (!settings) {
        done({false, settings.error().code, settings.error().message});
        return Ok{};
    }
    check_provider(http_, std::move(*settings), std::move(done));
    return Ok{};
}

} // namespace rio
