// The sandbox a command runs in (DESIGN §19), from what the loop decided (RunTool::sandbox)
// and what the core knows: the project, rio's own folders, its own pid. The loop chooses the
// profile; this says what the profile means here.
#pragma once

#include "agent_tools/tool_context.hpp"
#include "host/sandbox/sandbox_policy.hpp"
#include "host/store/command_settings.hpp"
#include "protocol/error.hpp"

#include <chrono>
#include <optional>

namespace rio {

// nullopt: the command runs unsandboxed (the loop said "none"). An error when it was to run
// sandboxed and cannot: it is then not run at all.
Result<std::optional<SandboxPolicy>> command_sandbox(const ToolContext& context,
                                                     const std::optional<SandboxUse>& use,
                                                     std::chrono::seconds timeout,
                                                     const CommandSettings& settings);

// The user's home folder ($HOME when it is absolute), "" when there is none.
std::filesystem::path home_folder();

// What the model is told after the output of a command that ran sandboxed, so that a write
// refused reads as the rule it is rather than a bug to work around.
// `in_namespace`: the command runs in a mount namespace, its project's top level writable
// (decision 0080).
std::string sandbox_note(const SandboxUse& use, bool in_namespace = false);

} // namespace rio
