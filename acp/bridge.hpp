// rio-acp's bridge (DESIGN §15): an ACP agent on one side (JSON-RPC lines from and to the
// editor), a client of rio-core on the other — a private core per ACP session, or one
// shared core (--connect). The core decides and enforces everything; the bridge translates
// events into session/update and proposals into session/request_permission.
#pragma once

#include "acp/acp_lines.hpp"
#include "client/core_link.hpp"
#include "client/session.hpp"

#include <asio/io_context.hpp>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rio::acp {

struct BridgeOptions {
    std::string core_binary; // the rio-core to start per session
    std::string provider;    // passed to it as --provider (empty: the core's default)
    std::string connect;     // share this running core instead
    // --connect ssh://…: each session gets a core of its own on that machine, in the
    // address's folder (the editor's cwd is a local path; DESIGN §22).
    std::optional<client::RemoteAddress> remote;
    client::RemoteLaunch remote_launch;
    std::string token;             // its token, for a TCP core
    std::string version = "0.0.0"; // agentInfo.version
};

class Bridge {
public:
    using Write = std::function<void(std::string line)>;
    Bridge(asio::io_context& io, BridgeOptions options, Write write);
    ~Bridge();

    void take(std::string_view line); // one line from the ACP client
    // The client went away: running turns are stopped and private cores told to exit.
    void client_gone();

private:
    struct AcpSession {
        std::string id;
        std::string root;         // the project's absolute path
        std::string cwd;          // as session/new or session/load gave it: a new core's --project
        Json servers;             // the editor's MCP servers, started again in a new core
        std::string core_session; // the core's id of the conversation, which resume takes
        std::unique_ptr<client::CoreLink> link;
        // Counts the links: an answer from the editor to what an earlier core asked is
        // not sent to a later one.
        std::uint64_t generation = 0;
        bool named = false;   // the id is final (session/new renames it after the core's)
        bool opened = false;  // session/new or session/load answered: the editor knows it
        bool opening = false; // a core is being started or reached and the session resumed
        std::optional<std::string> lost; // why its core went away; nullopt while it has one
        client::Session state;
        client::ModeChoice shown_mode = client::ModeChoice::review; // as the client last heard
        ReplyTo prompt_id;       // the session/prompt being answered, if any
        std::uint64_t turn = 0;  // its turn
        bool cancelled = false;  // session/cancel came for it
        bool compacting = false; // the prompt is /compact: agent.compacted answers it
        Json plan_sent;          // the last `plan` update: one only when the entries change
        // A task call's subagent steps so far, shown as that call's content (DESIGN §23).
        std::map<std::string, std::vector<std::string>> subagent_lines;
        std::uint64_t shown_used = 0, shown_window = 0; // the last usage_update sent
        std::optional<ErrorEvent> error;
        std::set<std::int64_t> asking; // its requests the client has not answered yet
        // session/new waits for the editor's MCP servers to leave `starting`, so the first
        // prompt is offered their tools: this answers it, and says so by returning true.
        std::function<bool(const McpListResult&)> on_servers;
    };
    using Handler = std::function<void(const Json& params)>;

    void request(const jsonrpc::Request& r);
    void initialize(const jsonrpc::Request& r);
    void authenticate(const jsonrpc::Request& r);
    void open_session(const jsonrpc::Request& r, std::optional<std::string> resume);
    // A core for the session: started (a private or far one) or reached (--connect), in
    // place of any earlier one; `then` gets nullopt once it said hello, else why not.
    using Then = std::function<void(std::optional<std::string> error)>;
    void attach_core(AcpSession& s, Then then);
    // On its (new) core: the conversation resumed, the editor's servers started again.
    void resume_on_core(AcpSession& s, Then then);
    void core_lost(AcpSession& s, const std::string& why);
    std::string lost_words(const AcpSession& s) const;
    void answer_session(AcpSession& s, const ReplyTo& id);
    void start_editor_servers(AcpSession& s, const Json& servers, std::function<void()> then);
    void announce_commands(AcpSession& s);
    void replay_history(AcpSession& s, std::function<void()> then);
    void replay_entry(AcpSession& s, const HistoryMessage& m,
                      const std::map<std::string, Wire<ToolKind>>& kinds);
    void set_mode(const jsonrpc::Request& r, client::ModeChoice choice, bool config_option);
    void prompt(const jsonrpc::Request& r, AcpSession& s);
    void send_prompt(AcpSession& s, const std::string& text);
    // "/check N": plans.check, answered as one message (issue 43).
    void check_step(AcpSession& s, const std::string& arg);
    void prompt_on_new_core(AcpSession& s, const std::string& text);
    void cancel(AcpSession& s);
    void cancel_request(const Json& request_id);
    void withdraw_questions(AcpSession& s);
    AcpSession* session_for(const jsonrpc::Request& r); // answers the error itself when none

    void on_event(AcpSession& s, const client::CoreEvent& event);
    void context_may_have_changed(AcpSession& s);
    void mode_may_have_changed(AcpSession& s);
    void read_for_core(AcpSession& s, const EditorReadEvent& read);
    void ask_permission(AcpSession& s, const Proposal& proposal);
    void send_permission(AcpSession& s, const Proposal& proposal);
    void finish_prompt(AcpSession& s, const char* stop_reason);
    void update(const AcpSession& s, Json update);

    void reply(const ReplyTo& id, const Json& result);
    void fail(const ReplyTo& id, int code, std::string message, Json data = nullptr);
    // A request to the client on behalf of `s`: $/cancel_request withdraws it when the turn
    // that asked ends first.
    void ask_client(AcpSession& s, std::string_view method, const Json& params,
                    std::function<void(const jsonrpc::Response&)> then);

    asio::io_context& io_;
    BridgeOptions options_;
    Write write_;
    bool initialized_ = false;
    bool reads_editor_ = false; // the client offers fs/read_text_file: the core reads through it
    std::map<std::string, std::unique_ptr<AcpSession>> sessions_;
    std::uint64_t next_session_ = 1;
    std::map<std::int64_t, std::function<void(const jsonrpc::Response&)>> waiting_; // on the client
    std::int64_t next_request_ = 1;
};

} // namespace rio::acp
