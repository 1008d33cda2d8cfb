// The provider ops (DESIGN §3, §10): which providers exist, switching, options, keys and the
// model list. A key goes in and never comes out: no response or event carries one.
#include "ops/agent_ops.hpp"
#include "protocol/params.hpp"

namespace rio {
namespace {

std::string provider_param(const Call& call, const AgentRuntime& agent) {
    return optional_string(call.params, "provider").value_or(agent.providers().current());
}

} // namespace

void register_provider_ops(Dispatcher& dispatcher, AgentRuntime& agent) {
    dispatcher.add("agent.providers", [&agent](const Call&) -> Result<Json> {
        return agent.providers().providers_json();
    });

    dispatcher.add("agent.provider.set", [&agent](const Call& call) -> Result<Json> {
        std::string name = require_string(call.params, "name");
        bool remember = optional_bool(call.params, "remember", true);
        if (Status s = agent.providers().select(name, remember); !s) return s.error();
        agent.provider_changed();
        return agent.providers().providers_json();
    });

    dispatcher.add("agent.options.list", [&agent](const Call& call) -> Result<Json> {
        return agent.providers().options_json(provider_param(call, agent));
    });

    dispatcher.add("agent.options.set", [&agent](const Call& call) -> Result<Json> {
        std::string provider = provider_param(call, agent);
        std::string name = require_string(call.params, "name");
        if (!call.params.contains("value"))
            return make_error(ErrorCode::bad_request, "params.value is required");
        if (Status s = agent.providers().set_option(provider, name, call.params["value"]); !s)
            return s.error();
        agent.provider_changed();
        return agent.providers().options_json(provider);
    });

    dispatcher.add("agent.key.set", [&agent](const Call& call) -> Result<Json> {
        std::string provider = require_string(call.params, "provider");
        if (Status s = agent.providers().set_key(provider, require_string(call.params, "key")); !s)
            return s.error();
        return Json{{"provider", provider}, {"stored", true}};
    });

    dispatcher.add("agent.key.clear", [&agent](const Call& call) -> Result<Json> {
        std::string provider = require_string(call.params, "provider");
        if (Status s = agent.providers().forget_key(provider); !s) return s.error();
        return Json{{"provider", provider}, {"stored", false}};
    });

    dispatcher.add_async("agent.models", [&agent](const Call& call, Reply reply) {
        agent.providers().list_models(provider_param(call, agent), std::move(reply));
    });
}

} // namespace rio
