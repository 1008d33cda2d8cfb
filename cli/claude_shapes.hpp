// rio-cli -p --output-format json|stream-json: rio's events in the line shapes of Claude
// Code's headless mode (DESIGN §14), so scripts written for `claude -p` read rio's output
// unchanged: `system/init` first, `assistant` / `user` messages, `result` last.
#pragma once

#include "client/events.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace rio {

// What the run knows when it starts.
struct RunStart {
    std::string session_id;
    std::string model;
    std::string permission_mode; // default, plan, acceptEdits
    std::string cwd;
    std::vector<std::string> tools;
    std::vector<McpServerInfo> mcp_servers; // listed as Claude Code lists them
    std::string api_key_source = "none";    // the key variable's name, "file" (stored), "none"
};

// How the run ended, for the result object.
struct RunEnd {
    int exit_code = 0;
    std::string result;           // the final answer (or the plan awaiting approval)
    Json error;                   // {code, message} or null
    Json plan;                    // the plan left awaiting approval, or null
    Json denials = Json::array(); // gated actions nobody could approve
    Json context;                 // {used, window, estimated}, or null
    Json receipt = nullptr;       // the approved plan's receipt (issue 43), or null
};

class ClaudeShapes {
public:
    ClaudeShapes(RunStart start, std::chrono::steady_clock::time_point began);

    Json init() const;
    // The stream-json lines this event becomes (often none).
    std::vector<Json> lines(const client::CoreEvent& event);
    Json result(const RunEnd& end) const;

private:
    // `parent`: the Task call a subagent's message belongs to (Claude Code's
    // parent_tool_use_id), "" for the agent's own.
    Json assistant(Json content, const std::string& parent = "") const;
    Json user(Json content, const std::string& parent = "") const;

    RunStart start_;
    std::chrono::steady_clock::time_point began_;
    Json usage_ = Json::object();
    std::uint64_t model_calls_ = 0;
    std::string stop_reason_;
};

} // namespace rio
