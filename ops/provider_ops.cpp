// The provider ops (DESIGN §3, §10): which providers exist, switching, options, keys and the
// model list, and a test call. A key goes in and never comes out: no response or event
// carries one.
#include "ops/agent_ops.hpp"

namespace rio {

void register_provider_ops(Dispatcher& dispatcher, AgentRuntime& agent) {
    ProviderRegistry& providers = agent.providers();
    auto chosen = [&providers](const std::optional<std::string>& provider) {
        return provider.value_or(providers.current());
    };

    dispatcher.on<ProvidersParams>([&providers](const ProvidersParams&) -> Result<ProvidersResult> {
        return providers.providers();
    });

    dispatcher.on<ProviderSetParams>(
        [&agent, &providers](const ProviderSetParams& p) -> Result<ProvidersResult> {
            if (Status s = providers.select(p.name, p.remember.value_or(true)); !s)
                return s.error();
            agent.provider_changed();
            return providers.providers();
        });

    dispatcher.on<PlanModelSetParams>(
        [&agent, &providers](const PlanModelSetParams& p) -> Result<ProvidersResult> {
            std::optional<PlanModel> choice;
            if (p.provider && !p.provider->empty())
                choice = PlanModel{*p.provider, p.model.value_or("")};
            if (Status s = providers.set_plan_model(choice); !s) return s.error();
            agent.provider_changed();
            return providers.providers();
        });

    dispatcher.on_async<ProviderTestParams>(
        [&providers, chosen](const ProviderTestParams& p,
                             std::function<void(Result<ProviderTestResult>)> done) {
            Status started = providers.test(chosen(p.provider), [done](ProviderCheck check) {
                std::optional<std::string> code;
                if (check.code) code = std::string(to_string(*check.code));
                done(ProviderTestResult{check.ok, code, check.message});
            });
            if (!started) done(started.error());
        });

    dispatcher.on<OptionsListParams>(
        [&providers, chosen](const OptionsListParams& p) -> Result<OptionsResult> {
            auto options = providers.options_json(chosen(p.provider));
            if (!options) return options.error();
            return options->get<OptionsResult>();
        });

    dispatcher.on<OptionsSetParams>(
        [&agent, &providers, chosen](const OptionsSetParams& p) -> Result<OptionsResult> {
            std::string provider = chosen(p.provider);
            if (Status s = providers.set_option(provider, p.name, p.value); !s) return s.error();
            agent.provider_changed();
            auto options = providers.options_json(provider);
            if (!options) return options.error();
            return options->get<OptionsResult>();
        });

    dispatcher.on<KeySetParams>([&providers](const KeySetParams& p) -> Result<KeyResult> {
        if (Status s = providers.set_key(p.provider, p.key); !s) return s.error();
        return KeyResult{p.provider, true};
    });

    dispatcher.on<KeyClearParams>([&providers](const KeyClearParams& p) -> Result<KeyResult> {
        if (Status s = providers.forget_key(p.provider); !s) return s.error();
        return KeyResult{p.provider, false};
    });

    dispatcher.on_async<ModelsParams>(
        [&providers, chosen](const ModelsParams& p,
                             std::function<void(Result<ModelsResult>)> done) {
            providers.list_models(chosen(p.provider), [done](Result<Json> models) {
                if (!models) return done(models.error());
                done(models->get<ModelsResult>());
            });
        });
}

} // namespace rio
