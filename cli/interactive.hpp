// rio-cli's interactive session (DESIGN §9): a prompt that shows the mode, streamed replies
// and a tool trace, slash commands, Ctrl+C to stop a turn (twice to quit), and a single-key
// choice for every proposal — a plan rendered for the terminal (with comments on its numbered
// lines and, for a revision, what changed), a coloured diff, a command.
//
// One class in five files, one concept each: interactive.cpp (its life: start, trust, events,
// sending, stopping), interactive_display.cpp (what it prints), interactive_plan.cpp (deciding
// a proposal), interactive_commands.cpp (slash commands), interactive_input.cpp (reading the
// terminal).
#pragma once

#include "cli/line_input.hpp"
#include "cli/markdown_blocks.hpp"
#include "cli/pick_list.hpp"
#include "cli/spinner.hpp"
#include "cli/terminal.hpp"
#include "cli/word_stream.hpp"
#include "client/activity.hpp"
#include "client/core_link.hpp"
#include "client/session.hpp"

#include <asio/io_context.hpp>
#include <asio/posix/stream_descriptor.hpp>
#include <asio/signal_set.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rio {

// How a person lets a command out of the sandbox's defaults, for this one call (DESIGN §19):
// the network (all of it, or the hosts it asked for, maybe kept for good), no sandbox at all, or
// the user's whole environment.
struct CommandLet {
    NetworkGrant network{};
    bool keep_hosts = false;
    bool unsandboxed = false;
    bool environment = false;
};

class InteractiveSession {
public:
    InteractiveSession(asio::io_context& io, client::CoreLink& link, Terminal out);
    ~InteractiveSession();
    // `resume`: a saved session to continue first, by id, or "" for the project's latest.
    void start(std::function<void(int)> finish, std::optional<std::string> resume = {});
    // The ssh:// address the far core was reached at: a lost connection then says how to pick
    // the far conversation up.
    void set_remote(std::string address) { remote_ = std::move(address); }

private:
    friend struct TerminalOutputProbe; // tests/unit/terminal_output_test.cpp drives on_event

    // What stdin is for right now: a line (libedit), one key, or a line typed unseen.
    enum class Input { none, line, key, secret };

    void greet(std::function<void()> then);
    void on_event(const client::CoreEvent& event);
    void show(const client::CoreEvent& event);
    void on_propose(const Proposal& proposal);
    void on_line(const std::string& line);
    void command(const std::string& line);
    void send(const std::string& text);
    // A user's or the project's command (DESIGN §23): the core expands and sends it.
    void run_command(const CommandsRunParams& run);
    // /help: the built-in commands, then the user's and the project's, and files skipped.
    void show_help();
    void interrupt();
    void wait_for_signal();
    void quit(int code);

    std::string turn_summary() const;
    std::string status_text() const;
    void set_plan_model(std::string words);
    void prompt();
    void ask_trust_then_prompt();
    void ask_line(const std::string& question, std::function<void(std::string)> then,
                  LineInput::ReadOptions options = {});
    // Sets the core's mode (and auto-accept) to `choice`, then prompts again.
    void choose_mode(client::ModeChoice choice);
    void set_mode(const ModeSetParams& mode); // then prompts again
    void ask_key(const std::string& question, const std::string& keys,
                 std::function<void(char)> then);
    // A line read without echo (an API key): nothing of it reaches the screen or the history.
    void ask_secret(const std::string& question, std::function<void(std::string)> then);
    void watch_stdin();
    void stdin_ready();
    void secret_ready();
    void stop_input();
    void end_open_line(); // the spinner off, thinking finished, a streamed line ended
    void print(const std::string& text); // ends a streamed line first
    void show_thinking(const std::string& text);
    void show_answer(const std::string& markdown); // complete blocks, painted
    void end_answer();                             // what is held of the reply, painted
    void busy_line();                              // the spinner, when nothing else is up
    int width() const;
    // A numbered list and a question; `then` gets the entry picked, and an empty answer
    // goes back to the prompt.
    void pick(const std::vector<PickEntry>& entries, const std::string& question,
              std::function<void(std::size_t)> then);
    void ask_pick(const std::string& question, std::size_t count,
                  std::function<void(std::size_t)> then);
    void undo(const std::string& arg);
    // /rewind: the conversation's messages to pick from, what returning there changes, then
    // the rewind; the message comes back at the prompt to send again or change.
    void rewind();
    void switch_wire(const std::string& provider, const std::string& wire);
    void rewind_to(std::uint64_t turn, bool overwrite);
    void show_output(const std::string& arg); // /output [N]
    void list_plans();
    // /steps: the approved plan's steps as a checklist.
    void show_steps();
    void check_step(const std::string& arg);
    void list_sessions();
    void list_mcp(const std::string& arg);
    void list_problems(const std::string& path);
    void show_git_diff(const std::string& paths);
    // /key [NAME], /key clear [NAME]: the provider's key, stored by the core.
    void key_command(const std::string& arg);
    void store_key(const ProviderInfo& provider);
    // /model: the provider's models, numbered, to pick one.
    void pick_model();
    // After a switch: a provider that cannot be called yet says what it needs.
    void say_if_not_ready(const ProvidersResult& providers);
    void show_plan(const Proposal& plan);
    void show_revision(const Proposal& plan, std::function<void()> then);
    void decide_plan(const Proposal& plan);
    void comment_on(const Proposal& plan);
    // The plan's review threads (issue 44): listed, then a reply or a resolve typed.
    void reply_or_resolve(const Proposal& plan);
    // Approving a plan with comments still open asks first (issue 44).
    void approve_plan(const Proposal& plan, ApprovalPolicy policy, bool fresh);
    void edit_plan(const Proposal& plan);
    void show_edited_plan(const Proposal& plan, const std::string& rel, bool keep_open);
    void approve(const Proposal& proposal, std::optional<ApprovalPolicy> policy,
                 bool fresh = false);
    // A command, for this one call: with the network, or without the sandbox.
    void approve_command(const Proposal& proposal, const CommandLet& let);
    void reject_with_reason(const Proposal& proposal);
    void report(const client::Reply& reply); // a refused request, in words
    void then_prompt(const client::Reply& reply);

    client::CoreLink& link_;
    client::Session session_;
    Terminal out_;
    asio::posix::stream_descriptor stdin_;
    asio::signal_set signals_;
    LineInput lines_;
    std::function<void(int)> finish_;
    Input input_ = Input::none;
    std::string typed_ahead_; // the line typed before Shift+Tab, for the next prompt
    // The turn this client asked to rewind to: the core's agent.rewound for it is not shown.
    std::optional<std::uint64_t> own_rewind_;
    std::unique_ptr<RawKeys> raw_;
    std::function<void(std::string)> line_then_;
    std::function<void(char)> key_then_;
    std::string keys_;
    std::function<void(std::string)> secret_then_;
    std::string secret_;         // typed so far, unseen
    bool secret_escape_ = false; // inside an escape sequence (a bracketed paste's markers)
    bool sending_ = false;       // agent.send is on its way; the core has not said busy yet
    std::string root_;
    std::string remote_;               // --connect ssh://…, else empty
    std::vector<std::string> outputs_; // what each command printed, /output's 1, 2, …
    // The approved plan's progress line as last printed, and how many files outside the plan
    // were said: a plans.progress prints only what changed.
    std::string plan_line_;
    std::size_t plan_unplanned_ = 0;
    std::vector<PlanComment> comments_; // on the plan being decided, sent with the decision
    std::string numbered_for_;          // the proposal whose numbered lines were printed
    // The pending plan's review threads as filed, kept up to date by plans.comments.
    std::vector<ReviewComment> threads_;
    std::string threads_for_; // that plan's path
    bool line_open_ = false;
    bool in_thinking_ = false;
    WordStream thinking_{80};
    MarkdownBlocks answer_;
    bool answer_started_ = false; // a block of this reply is on the screen: the next one
                                  // comes after a blank line
    Spinner spinner_;
    client::Activity activity_;                  // what the spinner says the agent is doing
    std::optional<QuietControlKeys> quiet_keys_; // while a turn runs, on a terminal
    bool stopping_ = false;                      // "stopping…" is said for this turn
    std::chrono::steady_clock::time_point last_interrupt_{};
    bool done_ = false;
};

} // namespace rio
