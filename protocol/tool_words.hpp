// How every frontend speaks of a built-in tool (decision 0070): the verb of its trace line,
// what the busy line says while it runs, its kind in the Agent Client Protocol and which of
// its input an editor shows as a diff. The core's tool files (agent_tools/) take their names
// from these rows, and a test holds the rows and the core's tool table in step, so trace
// wording, rio-acp and the loop never spell a tool's name. A tool without a row (an MCP
// server's) keeps its name: "using mcp__fs__read", ACP kind "other".
#pragma once

#include <string_view>

namespace rio {

// What of a call's input an editor may show as a diff before the result.
enum class ToolDiff {
    none,
    replaced, // old_string → new_string at `path`
    whole,    // `content`, a new file at `path`
};

struct ToolWords {
    std::string_view name;  // as the model calls it
    std::string_view verb;  // a trace line's verb: "read", "run"
    std::string_view doing; // the busy line, before the call's detail: "reading"
    std::string_view
        acp_kind;       // ACP's tool kind: read, search, edit, execute, think, switch_mode, other
    bool detail = true; // whether the busy line names what the call is about
    ToolDiff diff = ToolDiff::none;
};

namespace tool_words {
inline constexpr ToolWords list_dir{"list_dir", "list", "listing", "read"};
inline constexpr ToolWords read_file{"read_file", "read", "reading", "read"};
inline constexpr ToolWords search{"search", "search", "searching", "search"};
inline constexpr ToolWords diagnostics{"diagnostics", "diagnostics", "using diagnostics", "other"};
inline constexpr ToolWords edit_file{"edit_file", "edit", "editing",
                                     "edit",      true,   ToolDiff::replaced};
inline constexpr ToolWords create_file{"create_file", "create", "creating",
                                       "edit",        true,     ToolDiff::whole};
inline constexpr ToolWords run_command{"run_command", "run", "running", "execute"};
inline constexpr ToolWords present_plan{"present_plan", "plan", "presenting the plan",
                                        "switch_mode", false};
inline constexpr ToolWords plan_progress{"plan_progress", "plan_progress", "using plan_progress",
                                         "other"};
inline constexpr ToolWords task{"task", "task", "delegating", "think"};
} // namespace tool_words

inline constexpr const ToolWords* builtin_tool_words[] = {
    &tool_words::list_dir,    &tool_words::read_file,    &tool_words::search,
    &tool_words::diagnostics, &tool_words::edit_file,    &tool_words::create_file,
    &tool_words::run_command, &tool_words::present_plan, &tool_words::plan_progress,
    &tool_words::task,
};

// The built-in tool's row; nullptr for any other name.
constexpr const ToolWords* find_tool_words(std::string_view name) {
    for (const ToolWords* words : builtin_tool_words)
        if (words->name == name) return words;
    return nullptr;
}

} // namespace rio
