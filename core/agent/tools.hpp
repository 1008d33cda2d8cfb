// The agent's tools as the loop knows them (DESIGN §5): names, kinds and the JSON Schemas a
// model sees, and which ones a mode offers. The list itself is agent_tools/'s table, handed
// to the loop: adding a tool is one file there and one line in that table.
#pragma once

#include "protocol/closed_sets.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

// Mode and ToolKind, with their names, are the protocol's (protocol/closed_sets.hpp).

struct ToolSpec {
    std::string name;
    ToolKind kind;
    std::string description;
    nlohmann::json input_schema;
    // How a cleared output (compaction) names the call, from its input: "read `a.py` lines
    // 1–50". Without it: the tool's name and its input.
    std::string (*recalled_as)(const nlohmann::json& input) = nullptr;
    // Offered only while the turn that approved a plan carries it out (plan_progress).
    bool while_carrying_out_a_plan = false;
    // Starts a subagent (task, DESIGN §23): never offered to a subagent, and a step's calls of
    // it start together.
    bool starts_subagent = false;
};

// What a mode allows: everything in build; read tools and present_plan in plan mode.
bool allowed_in(Mode mode, ToolKind kind);

// What a tool is in `mode`: a command is a read tool in plan mode when commands run in the
// read-only sandbox (`sandboxed`, DESIGN §19) — it cannot change anything, so it needs no gate.
ToolKind kind_in(Mode mode, ToolKind kind, bool sandboxed);

// The tools a step offers: those `mode` allows, commands as read tools (and told so) in plan
// mode when `sandboxed`.
std::vector<ToolSpec> offered_tools(const std::vector<ToolSpec>& all, Mode mode,
                                    bool sandboxed = false);
const ToolSpec* find_tool(const std::vector<ToolSpec>& all, std::string_view name);

nlohmann::json to_json(const ToolSpec& spec);

// Schema pieces the tool files share.
nlohmann::json object_schema(nlohmann::json properties, std::vector<std::string> required);
nlohmann::json string_prop(const char* description);

} // namespace rio
