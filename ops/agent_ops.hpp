// Registers the agent.*, provider and plans.* ops on top of a running AgentRuntime.
#pragma once

#include "core/dispatch.hpp"
#include "ops/agent_runtime.hpp"
#include "ops/ops.hpp"

namespace rio {

void register_agent_ops(Dispatcher& dispatcher, AgentRuntime& agent, OpContext& context);
void register_plan_ops(Dispatcher& dispatcher, OpContext& context);
void register_provider_ops(Dispatcher& dispatcher, AgentRuntime& agent);
void register_command_ops(Dispatcher& dispatcher, AgentRuntime& agent, OpContext& context);

} // namespace rio
