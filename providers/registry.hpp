// Which provider the core talks to, with each provider's options and key (DESIGN §10):
// choosing the default, switching, persisting options per provider, and starting calls.
#pragma once

#include "core/agent/context_budget.hpp"
#include "host/http/http_client.hpp"
#include "io/user_dirs.hpp"
#include "protocol/messages.hpp"
#include "protocol/wire.hpp"
#include "providers/catalog.hpp"
#include "providers/http_provider.hpp"
#include "providers/provider.hpp"
#include "providers/provider_check.hpp"

#include <optional>

namespace rio {

class ProviderRegistry {
public:
    ProviderRegistry(asio::io_context& io, HttpClient& http, UserDirs dirs);

    // "echo", "script:FILE", "anthropic" or "openai". `remember` writes it as the user's
    // configured provider, which the next core starts with.
    Status select(std::string_view spec, bool remember);
    // DESIGN §10: selects the configured provider; else the first of ANTHROPIC_API_KEY,
    // OPENAI_API_KEY, a local Ollama answering on 127.0.0.1:11434; else echo, as a fallback.
    // Probing for Ollama remembers its URL and first model for the openai provider.
    Status select_default();

    const std::string& current() const { return name_; }
    // Echo runs only because nothing was named, configured or found (agent.providers'
    // `fallback`): a headless run refuses it rather than pass off its echo as an answer.
    bool fallback() const { return fallback_; }
    std::string model() const;
    // The current model's window (the context_window option, else what rio knows of the
    // model, else the default) and the compact_at threshold (DESIGN §18).
    ContextBudget budget() const;
    // rio-core --model: this process's model, over the stored option, never saved.
    void use_model(std::string model) { model_for_run_ = std::move(model); }

    // DESIGN §20: the provider and model that answer in plan mode, when the person chose one
    // (settings.json's plan_model); the builder, current() and model(), takes over at
    // approval. `model` is "" for that provider's own model option.
    std::optional<PlanModel> plan_model() const;
    // Clears it when `choice` is empty; a local provider (echo, script) cannot plan.
    Status set_plan_model(std::optional<PlanModel> choice);
    // plan_model() with its model resolved (the provider's model option when "").
    std::optional<PlanModel> planner() const;
    // Who answers a request: the planner while planning, when one is set, else the builder.
    PlanModel answering(bool planning) const;

    CancelFn start(ProviderRequest request, ProviderReportFn report, const PlanModel& who);

    // providers.list: every provider, where its key comes from, and who answers now.
    ProvidersResult providers() const;
    Result<Json> options_json(std::string_view provider) const;
    Status set_option(std::string_view provider, std::string_view name, const Json& value);
    Status set_key(std::string_view provider, std::string_view key);
    Status forget_key(std::string_view provider);
    // The provider's model list endpoint; `done` runs on io's thread.
    void list_models(std::string_view provider, std::function<void(Result<Json>)> done);
    // agent.provider.test: one tiny call with the provider's key, URL and model as they are
    // now; `done` runs on io's thread. A provider rio does not know is bad_request.
    Status test(std::string_view provider, std::function<void(ProviderCheck)> done);

    // The settings of one call; `model` over the provider's model option (a plan model).
    Result<HttpProviderSettings> http_settings(std::string_view provider,
                                               std::optional<std::string> model = {}) const;

    // Every key rio knows, from the environment and from its own files: what redaction
    // removes from everything the core says (DESIGN §12).
    const std::vector<std::string>& secrets() const { return secrets_; }
    // The environment variables that hold keys, which commands do not inherit.
    static std::vector<std::string> key_variables();

private:
    void learn_secrets();
    std::optional<std::string> found_spec();
    Result<const ProviderSpec*> network_spec(std::string_view provider) const;
    // A hosted endpoint (the provider's default base URL) with no key: no call can be made.
    // Local servers (Ollama, llama.cpp) need none.
    bool lacks_key(const ProviderSpec& spec, bool has_key) const;
    Json stored_options(std::string_view provider) const;
    std::string option(std::string_view provider, std::string_view name) const;

    asio::io_context& io_;
    HttpClient& http_;
    UserDirs dirs_;
    std::string name_ = "echo";
    bool fallback_ = false;
    std::optional<Provider> local_; // echo or script; network providers start per call
    // The Ollama default: a base URL and model found at start, used until options say else.
    std::optional<std::pair<std::string, std::string>> ollama_;
    std::vector<std::string> secrets_;
    std::string model_for_run_;
};

} // namespace rio
