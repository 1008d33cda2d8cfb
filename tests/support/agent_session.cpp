#include "tests/support/agent_session.hpp"

#include <csignal>
#include <fstream>
#include <stdexcept>

namespace rio::test {

AgentSession::AgentSession(const Json& steps, bool with_project, bool log) {
    Json script{{"steps", steps}};
    if (log) script["log"] = "calls.jsonl";
    write_bytes(home_ / "script.json", script.dump(2));
    start({"--provider", "script:" + (home_ / "script.json").string()}, {}, with_project);
}

std::unique_ptr<AgentSession> AgentSession::with_env(const Json& steps, const EnvFor& env) {
    std::unique_ptr<AgentSession> session(new AgentSession());
    Json script{{"steps", steps}, {"log", "calls.jsonl"}};
    write_bytes(session->home_ / "script.json", script.dump(2));
    session->start({"--provider", "script:" + (session->home_ / "script.json").string()},
                   env(*session), true);
    return session;
}

std::unique_ptr<AgentSession> AgentSession::listening(const Json& steps) {
    std::unique_ptr<AgentSession> session(new AgentSession());
    Json script{{"steps", steps}, {"log", "calls.jsonl"}};
    write_bytes(session->home_ / "script.json", script.dump(2));
    session->start({"--provider", "script:" + (session->home_ / "script.json").string(), "--stdio",
                    "--listen", "unix:" + (session->home_ / "core.sock").string()},
                   {}, true);
    session->core().wait_for_stderr("listening on unix:");
    return session;
}

LineClient AgentSession::connect() const {
    return LineClient::connect_unix((home_ / "core.sock").string());
}

std::unique_ptr<AgentSession> AgentSession::prepared(const Setup& setup) {
    std::unique_ptr<AgentSession> session(new AgentSession());
    Json steps = setup(*session);
    write_bytes(session->home_ / "script.json",
                Json{{"steps", steps}, {"log", "calls.jsonl"}}.dump(2));
    session->start({"--provider", "script:" + (session->home_ / "script.json").string()}, {}, true);
    return session;
}

std::unique_ptr<AgentSession> AgentSession::with_provider(const std::vector<std::string>& args,
                                                          const std::vector<std::string>& env) {
    std::unique_ptr<AgentSession> session(new AgentSession());
    session->start(args, env, true);
    return session;
}

std::unique_ptr<AgentSession> AgentSession::through(const std::string& wrapper, const Json& steps,
                                                    const EnvFor& env) {
    std::unique_ptr<AgentSession> session(new AgentSession());
    session->wrapper_ = wrapper;
    write_bytes(session->home_ / "script.json",
                Json{{"steps", steps}, {"log", "calls.jsonl"}}.dump(2));
    session->start({"--provider", "script:" + (session->home_ / "script.json").string()},
                   env ? env(*session) : std::vector<std::string>{}, true);
    return session;
}

void AgentSession::start(std::vector<std::string> args, std::vector<std::string> env,
                         bool with_project) {
    std::filesystem::create_directories(home_ / "config");
    // Language servers are programs of their own: a session that is not about them starts
    // none (an edit's result would wait for their diagnostics). Tests of them write theirs.
    if (!std::filesystem::exists(config() / "lsp.json")) {
        Json off = Json::object();
        for (const char* name : {"clangd", "pylsp", "typescript", "rust-analyzer", "gopls"})
            off[name] = {{"disabled", true}};
        std::filesystem::create_directories(config());
        write_bytes(config() / "lsp.json", Json{{"servers", off}}.dump(2));
    }
    std::filesystem::create_directories(home_ / "data");
    if (with_project) {
        args.push_back("--project");
        args.push_back(project_.path().string());
    }
    // Nothing of the developer's own setup may leak in: keys, endpoints, provider choice.
    // The caller's `env` comes first, so it wins over these defaults.
    std::vector<std::string> isolated{"XDG_CONFIG_HOME=" + (home_ / "config").string(),
                                      "XDG_DATA_HOME=" + (home_ / "data").string(),
                                      "XDG_STATE_HOME=" + (home_ / "state").string(),
                                      "XDG_RUNTIME_DIR=" + (home_ / "runtime").string(),
                                      "RIO_PROVIDER=", "ANTHROPIC_API_KEY=", "OPENAI_API_KEY=",
                                      "ANTHROPIC_BASE_URL=", "OPENAI_BASE_URL=",
                                      // Port 1: nothing answers, so no local Ollama is found.
                                      "OLLAMA_HOST=127.0.0.1:1"};
    for (const std::string& entry : isolated) {
        std::string name = entry.substr(0, entry.find('=') + 1);
        bool overridden = false;
        for (const std::string& e : env)
            overridden |= e.rfind(name, 0) == 0;
        if (!overridden) env.push_back(entry);
    }
    if (!wrapper_.empty()) args.insert(args.begin(), core_binary());
    args_ = args;
    env_ = env;
    core_ = std::make_unique<CoreProcess>(args, env, wrapper_.empty() ? core_binary() : wrapper_);
}

void AgentSession::restart(const Json& steps, int signal) {
    ::kill(core_->pid(), signal);
    if (!core_->wait_exit()) throw std::runtime_error("rio-core did not exit on a signal");
    write_bytes(home_ / "script.json", Json{{"steps", steps}, {"log", "calls.jsonl"}}.dump(2));
    core_ = std::make_unique<CoreProcess>(args_, env_, wrapper_.empty() ? core_binary() : wrapper_);
}

void AgentSession::trust_project() {
    Json shown = request("project.trust.get")["result"];
    Json files = Json::array();
    for (const Json& f : shown["files"])
        files.push_back({{"path", f["path"]}, {"sha256", f["sha256"]}});
    Json set = request("project.trust.set", {{"trust", true}, {"files", files}});
    if (set["ok"] != true) throw std::runtime_error("project.trust.set failed: " + set.dump());
}

std::vector<Json> AgentSession::provider_calls() const {
    std::vector<Json> calls;
    std::ifstream in(home_ / "calls.jsonl");
    for (std::string line; std::getline(in, line);)
        calls.push_back(Json::parse(line));
    return calls;
}

std::vector<std::string> AgentSession::tools_of_call(std::size_t index) const {
    auto calls = provider_calls();
    if (index >= calls.size())
        throw std::runtime_error("the provider was called only " + std::to_string(calls.size()) +
                                 " times");
    return calls[index]["tools"].get<std::vector<std::string>>();
}

long AgentSession::send(const std::string& text) {
    Json r = request("agent.send", {{"text", text}});
    if (r["ok"] != true) throw std::runtime_error("agent.send failed: " + r.dump());
    return r["result"]["turn"].get<long>();
}

} // namespace rio::test
