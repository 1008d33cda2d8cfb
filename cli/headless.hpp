// rio-cli -p: one task, run to the end without ever waiting on a person (DESIGN §9, §11).
// Gates are decided by the run's flags, else rejected with a message the model sees.
#pragma once

#include "cli/terminal.hpp"
#include "client/core_link.hpp"

#include <optional>
#include <string>

namespace rio {

struct HeadlessOptions {
    std::string task;
    std::optional<std::string> mode;          // "plan" or "build"; unset: the core's
    std::optional<std::string> approve_plans; // "review", "auto" or "never"
    bool approve_edits = false;
    bool allow_commands = false;
    std::string output = "text"; // text, json, stream-json
    // Connected to a core someone else started (--connect): a plan left waiting stays
    // pending for the person at that core, so leaving must not stop the turn.
    bool shared_core = false;
    // --trust-project: the project's power-granting files apply as they are (DESIGN §12);
    // without it a headless run never trusts them.
    bool trust_project = false;
};

// Exit codes of DESIGN §11.
enum ExitCode {
    exit_done = 0,
    exit_other = 1,
    exit_plan_waiting = 2,
    exit_rejected = 3,
    exit_provider_error = 4,
};

// Runs the task over `link` (the loop must be running it); `finish(code)` is called once.
class HeadlessRun {
public:
    HeadlessRun(client::CoreLink& link, HeadlessOptions options, Terminal out, Terminal err);
    void start(std::function<void(int)> finish);

private:
    void on_event(const client::CoreEvent& event);
    void show(const client::CoreEvent& event);
    void decide(const Proposal& proposal);
    void reject(const Proposal& proposal, const std::string& why_for_user);
    void fail(const client::Reply& reply);
    void end(int code);
    void say(const std::string& line); // progress, to stderr in text mode

    client::CoreLink& link_;
    HeadlessOptions options_;
    Terminal out_, err_;
    std::function<void(int)> finish_;
    std::optional<std::uint64_t> turn_; // agent.send's answer
    bool rejected_ = false;
    bool ended_ = false;
    Json error_;
    Json plan_;
    Json messages_ = Json::array();
    Json refusals_ = Json::array();
    bool line_open_ = false; // streamed text without its newline yet
};

} // namespace rio
