// An agent end-to-end fixture: a project folder, private XDG folders, a script for the
// script provider, and a real rio-core driving them; the script's log shows what the
// provider was given on every call.
#pragma once

#include "tests/support/core_process.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace rio::test {

class AgentSession {
public:
    // `steps` is the script's "steps" array. Without a project the core starts with none.
    // Without the log (benchmarks) provider_calls() is empty.
    explicit AgentSession(const Json& steps, bool with_project = true, bool log = true);
    // The same with more environment for the core, worked out from the session's folders
    // (a test that puts rio's own folders inside the project, say).
    using EnvFor = std::function<std::vector<std::string>(const AgentSession&)>;
    static std::unique_ptr<AgentSession> with_env(const Json& steps, const EnvFor& env);

    // A session whose files are written by `setup` before the core starts; `setup` returns
    // the steps, which may name the session's own folders.
    using Setup = std::function<Json(const AgentSession&)>;
    static std::unique_ptr<AgentSession> prepared(const Setup& setup);

    // A session on another provider: `args` select it ("--provider", "anthropic"), `env`
    // points it at a fake server. The home and project folders are private as above.
    static std::unique_ptr<AgentSession> with_provider(const std::vector<std::string>& args,
                                                       const std::vector<std::string>& env);

    // A session whose core runs under `wrapper` (`wrapper rio-core ARGS…`): a kernel without
    // Landlock, say. The core starts in its configured mode (plan).
    // `env` as with_env's, called before the core starts.
    static std::unique_ptr<AgentSession> through(const std::string& wrapper, const Json& steps,
                                                 const EnvFor& env = {});

    // A session whose core also listens on a unix socket, for a second client (connect()).
    static std::unique_ptr<AgentSession> listening(const Json& steps);
    LineClient connect() const;

    LineClient& client() { return core_->stdio(); }
    CoreProcess& core() { return *core_; }
    const TempDir& project() const { return project_; }
    const TempDir& home() const { return home_; }
    std::filesystem::path config() const { return home_ / "config/rio"; }

    // Ends the core — SIGTERM as a user's logout would, or SIGKILL — and starts a new one on
    // the same folders with `steps` as its script (the log goes on).
    void restart(const Json& steps, int signal);

    // Every provider call so far: {call, tools[], system, conversation[]}.
    std::vector<Json> provider_calls() const;
    std::vector<std::string> tools_of_call(std::size_t index) const;

    Json request(std::string_view op, const Json& params = Json::object()) {
        return client().request(op, params);
    }
    // Trusts the project as project.trust.get shows it now, as a person answering the trust
    // question would: allow rules and the project's own files apply from then on.
    void trust_project();
    // agent.send, returning the turn.
    long send(const std::string& text);
    // Whether this core runs commands in the sandbox (agent.status's sandbox.available): plan
    // mode then offers run_command as a read tool (DESIGN §19).
    bool sandboxed() {
        return request("agent.status")["result"]["sandbox"].value("available", false);
    }
    Json wait(std::string_view event) { return client().next_event(event)["params"]; }

private:
    AgentSession() = default;
    void start(std::vector<std::string> args, std::vector<std::string> env, bool with_project);

    TempDir home_, project_;
    std::string wrapper_; // runs rio-core when set
    std::vector<std::string> args_, env_;
    std::unique_ptr<CoreProcess> core_;
};

} // namespace rio::test
