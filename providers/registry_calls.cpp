// What the registry sends a call with, and the two calls it makes itself: the model list
// and Test.
#include "host/store/secrets.hpp"
#include "protocol/json_parse.hpp"
#include "providers/registry.hpp"
#include "providers/registry_detail.hpp"

#include <cstdlib>

namespace rio {

using registry_detail::api_base;
using registry_detail::as_text;

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
