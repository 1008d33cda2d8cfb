// The agent's tools (DESIGN §5): names, kinds, the JSON Schemas a model sees, and which
// ones a mode offers. Core-owned and the same for every provider.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

enum class Mode { build, plan };
enum class ToolKind { read, edit, command, plan };

std::string_view to_string(Mode mode);
std::optional<Mode> mode_from_string(std::string_view name);
std::string_view to_string(ToolKind kind);

struct ToolSpec {
    std::string name;
    ToolKind kind;
    std::string description;
    nlohmann::json input_schema;
};

const std::vector<ToolSpec>& all_tools();
const ToolSpec* find_tool(std::string_view name);

// Plan mode offers the read tools and present_plan; build mode offers everything.
// present_plan is offered in every mode.
std::vector<ToolSpec> offered_tools(Mode mode);

nlohmann::json to_json(const ToolSpec& spec);

} // namespace rio
