#include "core/agent/tools.hpp"

namespace rio {

using Json = nlohmann::json;

Json object_schema(Json properties, std::vector<std::string> required) {
    return Json{{"type", "object"},
                {"properties", std::move(properties)},
                {"required", std::move(required)},
                {"additionalProperties", false}};
}

Json string_prop(const char* description) {
    return Json{{"type", "string"}, {"description", description}};
}

bool allowed_in(Mode mode, ToolKind kind) {
    return mode == Mode::build || kind == ToolKind::read || kind == ToolKind::plan;
}

const ToolSpec* find_tool(const std::vector<ToolSpec>& all, std::string_view name) {
    for (const ToolSpec& spec : all)
        if (spec.name == name) return &spec;
    return nullptr;
}

ToolKind kind_in(Mode mode, ToolKind kind, bool sandboxed) {
    return mode == Mode::plan && sandboxed && kind == ToolKind::command ? ToolKind::read : kind;
}

std::vector<ToolSpec> offered_tools(const std::vector<ToolSpec>& all, Mode mode, bool sandboxed) {
    std::vector<ToolSpec> offered;
    for (const ToolSpec& spec : all) {
        ToolKind kind = kind_in(mode, spec.kind, sandboxed);
        if (!allowed_in(mode, kind)) continue;
        offered.push_back(spec);
        if (kind == spec.kind) continue;
        offered.back().kind = kind;
        offered.back().description +=
            " In plan mode it runs at once, without asking, in a read-only sandbox without "
            "network: nothing is writable but its private $TMPDIR, so a write anywhere else "
            "fails by design, not by accident.";
    }
    return offered;
}

nlohmann::json to_json(const ToolSpec& spec) {
    return nlohmann::json{{"name", spec.name},
                          {"kind", to_wire(spec.kind)},
                          {"description", spec.description},
                          {"input_schema", spec.input_schema}};
}

} // namespace rio
