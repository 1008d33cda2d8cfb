// rio-cli -p: one task, run to the end without ever waiting on a person (DESIGN §9, §11).
// Gates are decided by the run's flags, else rejected with a message the model sees.
#pragma once

#include "cli/claude_shapes.hpp"
#include "cli/terminal.hpp"
#include "client/core_link.hpp"

#include <asio/steady_timer.hpp>
#include <memory>
#include <optional>
#include <string>

namespace rio {

enum class HeadlessOutput {
    text,          // the answer on stdout, progress on stderr
    json,          // rio's result object (--output json)
    events,        // rio's own event stream (--output events)
    claude_json,   // Claude Code's result object (--output-format json)
    claude_stream, // Claude Code's line shapes (--output-format stream-json)
};

struct HeadlessOptions {
    std::string task;
    std::optional<std::string> mode;          // "plan" or "build"; unset: the core's
    std::optional<std::string> approve_plans; // "review", "auto" or "never"
    bool approve_edits = false;
    bool allow_commands = false;
    HeadlessOutput output = HeadlessOutput::text;
    // A saved session to continue (DESIGN §14): its id, or "" for this project's latest.
    // Without a task the run carries out what the session left pending.
    std::optional<std::string> resume;
    // Connected to a core someone else started (--connect): a plan left waiting stays
    // pending for the person at that core, so leaving must not stop the turn.
    bool shared_core = false;
    // The --connect ssh://… address the run used, for the resume hint ("" otherwise).
    std::string remote;
    // --trust-project: the project's power-granting files apply as they are (DESIGN §12);
    // without it a headless run never trusts them.
    bool trust_project = false;
};

// Exit codes of DESIGN §11 (5–9: decision 0060).
enum ExitCode {
    exit_done = 0,
    exit_other = 1,
    exit_plan_waiting = 2,
    exit_rejected = 3,
    exit_provider_error = 4,
    // --connect ssh://… failed before the far core answered (decision 0060).
    exit_host_unreachable = 5,
    exit_login_refused = 6,
    exit_host_key = 7,
    exit_far_core_missing = 8,
    exit_far_protocol = 9,
    // The work finished, but a step the model declared with the approved plan failed its check
    // or stayed unverified (issue 43).
    exit_unverified = 10,
};

inline int remote_exit_code(client::RemoteFailure failure) {
    switch (failure) {
    case client::RemoteFailure::host_unreachable:
        return exit_host_unreachable;
    case client::RemoteFailure::auth_refused:
        return exit_login_refused;
    case client::RemoteFailure::host_key:
        return exit_host_key;
    case client::RemoteFailure::core_missing:
        return exit_far_core_missing;
    case client::RemoteFailure::version_mismatch:
        return exit_far_protocol;
    case client::RemoteFailure::other:
        break;
    }
    return exit_other;
}

// Runs the task over `link` (the loop must be running it); `finish(code)` is called once.
class HeadlessRun {
public:
    HeadlessRun(asio::io_context& io, client::CoreLink& link, HeadlessOptions options, Terminal out,
                Terminal err);
    void start(std::function<void(int)> finish);

private:
    friend struct TerminalOutputProbe; // tests/unit/terminal_output_test.cpp drives on_event

    // Echo standing in for a model that was never connected fails the run (exit 4), naming
    // how to connect one; a provider named or configured goes on.
    void check_provider(std::function<void()> next);
    // The `cwd` of Claude Code's shapes: ours, or over ssh the far project's root.
    std::string working_folder() const;
    void configure();
    // The first request waits for MCP servers still starting (at most mcp_wait), so their
    // tools are offered from the start; `next` runs once none is starting.
    void wait_for_mcp(std::function<void()> next);
    void mcp_changed(const McpListResult& list);
    void resume_then(std::function<void()> next);
    void begin();
    void go_live();
    void on_event(const client::CoreEvent& event);
    void print_line(const Json& line);
    void show(const client::CoreEvent& event);
    void decide(const Proposal& proposal);
    void reject(const Proposal& proposal, const std::string& why_for_user);
    void fail(const client::Reply& reply);
    // The core went away before the run ended: said in every format, as the error
    // `connection_lost` with how to go on (decision 0072).
    void connection_lost(const std::string& why);
    // Claude Code's shapes for a run that ends before it began (no session, no tools yet).
    void claude_without_start(const std::string& model);
    void end(int code);
    void say(const std::string& line); // progress, to stderr in text mode
    void show_output(const ToolResultEvent& result);
    // After agent.done: a round trip, so that what the core says after the turn (an approved
    // plan's plans.report) is shown before the run ends.
    void end_after_turn(int code);
    bool unverified();

    client::CoreLink& link_;
    asio::steady_timer mcp_timer_;
    std::function<void()> after_mcp_; // set while waiting for MCP servers
    std::vector<McpServerInfo> mcp_servers_;
    std::string api_key_source_ = "none";
    HeadlessOptions options_;
    Terminal out_, err_;
    std::function<void(int)> finish_;
    std::optional<std::uint64_t> turn_; // agent.send's answer
    bool live_ = false; // events before the run's own turn (a resume's replay) are not its
    std::string session_;
    std::string root_; // the core's project, as session.hello named it (over ssh: the far one)
    std::unique_ptr<ClaudeShapes> claude_;
    std::chrono::steady_clock::time_point began_ = std::chrono::steady_clock::now();
    bool rejected_ = false;
    bool ended_ = false;
    Json context_;        // agent.status's context {used, window, estimated}, as last heard
    bool ending_ = false; // the turn is done; the run ends after one more round trip
    Json error_;
    Json plan_;
    Json receipt_; // the last plans.report's receipt, or null
    Json messages_ = Json::array();
    Json refusals_ = Json::array();
    bool line_open_ = false; // streamed text without its newline yet
    std::string plan_line_;  // the approved plan's progress line as last said
    std::optional<PlanProgressEvent> plan_progress_; // as last reported: exit 10 reads it
};

} // namespace rio
