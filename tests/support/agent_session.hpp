// An agent end-to-end fixture: a project folder, private XDG folders, a script for the
// script provider, and a real rio-core driving them; the script's log shows what the
// provider was given on every call.
#pragma once

#include "tests/support/core_process.hpp"

#include <memory>
#include <vector>

namespace rio::test {

class AgentSession {
public:
    // `steps` is the script's "steps" array. Without a project the core starts with none.
    // Without the log (benchmarks) provider_calls() is empty.
    explicit AgentSession(const Json& steps, bool with_project = true, bool log = true);

    LineClient& client() { return core_->stdio(); }
    CoreProcess& core() { return *core_; }
    const TempDir& project() const { return project_; }
    const TempDir& home() const { return home_; }
    std::filesystem::path config() const { return home_ / "config/rio"; }

    // Every provider call so far: {call, tools[], system, conversation[]}.
    std::vector<Json> provider_calls() const;
    std::vector<std::string> tools_of_call(std::size_t index) const;

    Json request(std::string_view op, const Json& params = Json::object()) {
        return client().request(op, params);
    }
    // agent.send, returning the turn.
    long send(const std::string& text);
    Json wait(std::string_view event) { return client().next_event(event)["params"]; }

private:
    TempDir home_, project_;
    std::unique_ptr<CoreProcess> core_;
};

} // namespace rio::test
