#include "acp/bridge.hpp"

#include "acp/mcp_servers.hpp"
#include "acp/updates.hpp"
#include "client/user_commands.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

namespace rio::acp {
namespace {

// The far core's stderr goes to ours, the ACP client's log: each line as a JSON string
// (ASCII only), so that no control character in it reaches whatever shows that log.
void far_stderr_line(std::string_view line) {
    if (line.ends_with('\n')) line.remove_suffix(1);
    std::cerr << "rio-acp: far stderr: "
              << Json(std::string(line)).dump(-1, ' ', true, Json::error_handler_t::replace) << "\n"
              << std::flush;
}

std::string text_param(const Json& params, const char* key) {
    auto it = params.find(key);
    return it != params.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

Bridge::Bridge(asio::io_context& io, BridgeOptions options, Write write)
    : io_(io), options_(std::move(options)), write_(std::move(write)) {}

Bridge::~Bridge() {
    client_gone();
}

void Bridge::take(std::string_view line) {
    jsonrpc::Message message = parse_line(line);
    if (auto* bad = std::get_if<jsonrpc::Invalid>(&message))
        return write_(line_of(jsonrpc::error(bad->id, bad->error())));
    if (auto* response = std::get_if<jsonrpc::Response>(&message)) {
        auto it = waiting_.find(response->own_id().value_or(-1));
        if (it == waiting_.end()) return;
        auto then = std::move(it->second);
        waiting_.erase(it);
        return then(*response);
    }
    request(std::get<jsonrpc::Request>(message));
}

void Bridge::request(const jsonrpc::Request& r) {
    if (r.method == "initialize") return initialize(r);
    if (!initialized_) {
        if (!r.notification())
            fail(r.id, jsonrpc::code::invalid_request,
                 "Invalid request: initialize must come before '" + r.method + "'");
        return;
    }
    if (r.method == "session/new") return open_session(r, std::nullopt);
    if (r.method == "session/load") {
        const std::string id = text_param(r.params, "sessionId");
        if (id.empty())
            return fail(r.id, jsonrpc::code::invalid_params,
                        "Invalid params: sessionId is required");
        return open_session(r, id);
    }
    if (r.method == "session/prompt") {
        if (AcpSession* s = session_for(r)) prompt(r, *s);
        return;
    }
    if (r.method == "session/cancel") {
        // A notification in ACP; sent as a request, it is answered as JSON-RPC requires.
        if (AcpSession* s = session_for(r)) {
            cancel(*s);
            reply(r.id, Json::object());
        }
        return;
    }
    if (r.method == "$/cancel_request") {
        // A notification; sent as a request, it is answered as JSON-RPC requires.
        if (auto it = r.params.find("requestId"); it != r.params.end()) cancel_request(*it);
        reply(r.id, Json::object());
        return;
    }
    if (r.method == "session/set_mode" || r.method == "session/set_config_option") {
        const bool config = r.method == "session/set_config_option";
        if (config && text_param(r.params, "configId") != "mode")
            return fail(r.id, jsonrpc::code::invalid_params,
                        "Invalid params: rio has one config option, \"mode\"");
        const std::string id = text_param(r.params, config ? "value" : "modeId");
        auto choice = mode_from_id(id);
        if (!choice)
            return fail(r.id, jsonrpc::code::invalid_params,
                        "Invalid params: no mode '" + id + "' (plan, review, auto)");
        if (session_for(r)) set_mode(r, *choice, config);
        return;
    }
    if (r.method == "authenticate") return authenticate(r);
    if (!r.notification())
        fail(r.id, jsonrpc::code::method_not_found, "Method not found: " + r.method,
             {{"method", r.method}});
}

void Bridge::initialize(const jsonrpc::Request& r) {
    if (!r.params.contains("protocolVersion") || !r.params["protocolVersion"].is_number_integer())
        return fail(r.id, jsonrpc::code::invalid_params,
                    "Invalid params: protocolVersion must be an integer");
    initialized_ = true;
    const Json& caps = r.params.value("clientCapabilities", Json::object());
    reads_editor_ = caps.is_object() && caps.contains("fs") && caps["fs"].is_object() &&
                    caps["fs"].value("readTextFile", false) == true;
    reply(r.id,
          {{"protocolVersion", 1},
           {"agentCapabilities",
            {{"loadSession", true},
             {"mcpCapabilities", {{"http", true}, {"sse", false}}},
             {"promptCapabilities",
              {{"image", false}, {"audio", false}, {"embeddedContext", false}}}}},
           {"authMethods", Json::array()},
           {"agentInfo", {{"name", "rio"}, {"title", "rio"}, {"version", options_.version}}}});
}

// rio advertises no authentication method (a provider's key is the core's business), so
// no method a client names can be one.
void Bridge::authenticate(const jsonrpc::Request& r) {
    auto method = r.params.find("methodId");
    if (method == r.params.end() || !method->is_string())
        return fail(r.id, jsonrpc::code::invalid_params,
                    "Invalid params: methodId is required (a string)", {{"field", "methodId"}});
    fail(r.id, jsonrpc::code::invalid_params,
         "Invalid params: no authentication method '" + method->get<std::string>() +
             "': rio advertises none (authMethods is empty)",
         {{"field", "methodId"}});
}

Bridge::AcpSession* Bridge::session_for(const jsonrpc::Request& r) {
    const std::string id = text_param(r.params, "sessionId");
    auto it = sessions_.find(id);
    // A session whose core went away is still found: what each request does then is its
    // own (a prompt resumes it on a new core).
    if (it != sessions_.end() && it->second->opened) return it->second.get();
    if (!r.notification()) {
        if (id.empty())
            fail(r.id, jsonrpc::code::invalid_params, "Invalid params: sessionId is required");
        else
            fail(r.id, resource_not_found, "Session not found: " + id, {{"sessionId", id}});
    }
    return nullptr;
}

// session/new, and session/load of a saved rio session (`resume`): its conversation is
// replayed as session/update before the answer, as ACP asks. A session this bridge has open
// is shown again from its core (a second core would write the same session file); one whose
// core went away is resumed on a new core.
void Bridge::open_session(const jsonrpc::Request& r, std::optional<std::string> resume) {
    const std::string cwd = text_param(r.params, "cwd");
    if (cwd.empty() || cwd.front() != '/')
        return fail(r.id, jsonrpc::code::invalid_params,
                    "Invalid params: cwd must be an absolute path");
    if (!r.params.contains("mcpServers") || !r.params["mcpServers"].is_array())
        return fail(r.id, jsonrpc::code::invalid_params,
                    "Invalid params: mcpServers must be an array (it may be empty)");
    std::error_code ec;
    if (!options_.remote && !std::filesystem::is_directory(cwd, ec))
        return fail(r.id, jsonrpc::code::invalid_params, "Invalid params: no folder " + cwd);
    McpServersError bad_server;
    Json servers = mcp_servers_of(r.params["mcpServers"], bad_server);
    if (!bad_server.field.empty())
        return fail(r.id, jsonrpc::code::invalid_params, "Invalid params: " + bad_server.message,
                    {{"field", bad_server.field}});

    ReplyTo id = r.id;
    AcpSession* known = nullptr;
    if (resume)
        if (auto it = sessions_.find(*resume); it != sessions_.end()) known = it->second.get();
    if (known && known->opening)
        return fail(id, jsonrpc::code::invalid_request,
                    "Invalid request: session " + *resume +
                        " is being opened already; wait for that answer");
    if (known && known->opened && !known->lost)
        return replay_history(*known, [this, known, id] { answer_session(*known, id); });
    if (!known) {
        auto session = std::make_unique<AcpSession>();
        session->id = resume ? *resume : "opening-" + std::to_string(next_session_++);
        session->named = resume.has_value();
        session->core_session = resume.value_or("");
        known = session.get();
        sessions_.emplace(session->id, std::move(session));
    }
    AcpSession& s = *known;
    s.cwd = cwd;
    s.servers = servers;
    s.opening = true;
    attach_core(s, [this, &s, id, resume](std::optional<std::string> error) {
        if (error) {
            s.opening = false;
            return fail(id, jsonrpc::code::internal_error, *error);
        }
        if (!resume)
            return start_editor_servers(s, s.servers, [this, &s, id] { answer_session(s, id); });
        resume_on_core(s, [this, &s, id](std::optional<std::string> error) {
            if (error) {
                s.opening = false;
                return fail(id, resource_not_found,
                            "Session not found: " + s.id + " (" + *error + ")",
                            {{"sessionId", s.id}});
            }
            replay_history(s, [this, &s, id] { answer_session(s, id); });
        });
    });
}

void Bridge::attach_core(AcpSession& s, Then then) {
    auto link = options_.remote
                    ? client::CoreLink::ssh(io_, *options_.remote, options_.remote_launch,
                                            "rio-acp", far_stderr_line)
                : options_.connect.empty()
                    ? client::CoreLink::spawn(
                          io_, options_.core_binary,
                          [&] {
                              // DESIGN §15: an ACP session starts in Review (build mode, each
                              // edit asked for), whatever the user's default_mode.
                              std::vector<std::string> args{"--stdio", "--mode", "build",
                                                            "--project", s.cwd};
                              if (!options_.provider.empty())
                                  args.insert(args.end(), {"--provider", options_.provider});
                              return args;
                          }())
                    : client::CoreLink::connect(io_, options_.connect, options_.token);
    if (!link) return then(link.error().message);
    s.link = std::move(*link); // an earlier one, whose core went away, is reaped here
    ++s.generation;
    s.lost.reset();
    // No turn of this session's is on the new core yet: a proposal a resumed session files
    // again is not this prompt's to ask (the next prompt supersedes it).
    s.turn = 0;
    s.root = options_.remote ? options_.remote->path : s.cwd;
    s.link->on_event([this, &s](const client::CoreEvent& event) { on_event(s, event); });
    s.link->on_lost([this, &s](const std::string& why) { core_lost(s, why); });
    HelloParams hello;
    hello.client = "rio-acp";
    s.link->call(hello, [this, &s, then = std::move(then)](const client::Typed<HelloParams>& h) {
        if (!h) {
            s.link->close();
            if (!s.lost) s.lost = h.error().message;
            return then("rio-core: " + h.error().message);
        }
        if (h->root) s.root = *h->root; // a shared core has its own project
        // Before any prompt on this link, so the first read already asks the editor.
        if (reads_editor_) s.link->call(EditorReaderSetParams{true});
        then(std::nullopt);
    });
}

void Bridge::resume_on_core(AcpSession& s, Then then) {
    s.link->call(SessionResumeParams{s.core_session},
                 [this, &s, then = std::move(then)](const client::Typed<SessionResumeParams>& r) {
                     if (!r) {
                         // Nothing was resumed: this core must not go on as a new
                         // conversation under the session's name.
                         s.link->close();
                         if (!s.lost)
                             s.lost = "it could not resume the session: " + r.error().message;
                         return then(r.error().message);
                     }
                     start_editor_servers(s, s.servers, [&s, then] {
                         if (s.link->lost()) return then("rio-core went away");
                         then(std::nullopt);
                     });
                 });
}

// The core went away (killed, crashed, its ssh connection dropped). The conversation is in
// its session file; the session stays known, to be resumed on a new core.
void Bridge::core_lost(AcpSession& s, const std::string& why) {
    s.lost = why;
    // A session opening waits for its servers no more: what comes next sees the core gone.
    if (auto waiting = std::exchange(s.on_servers, nullptr)) waiting(McpListResult{});
    withdraw_questions(s);
    if (!s.prompt_id) return;
    s.compacting = false;
    fail(std::exchange(s.prompt_id, std::nullopt), jsonrpc::code::internal_error, lost_words(s),
         {{"code", "connection_lost"}, {"sessionId", s.id}});
}

// What happened and what brings the session back. A private or far core is rio-acp's to
// start again; a shared one (--connect) is someone else's, so only the editor's
// session/load resumes the session there (decision 0072).
std::string Bridge::lost_words(const AcpSession& s) const {
    std::string words = "rio-core went away (" + s.lost.value_or("its connection closed") + ")";
    if (!options_.connect.empty() && !options_.remote)
        return words + "; the conversation is saved in session " + s.core_session +
               ": once rio-core at " + options_.connect +
               " runs again, load the session (session/load) to go on";
    return words + "; the conversation is saved: the next prompt resumes session " + s.id +
           " on a new rio-core";
}

// The editor's servers start in the core, which holds the gate over their tools. Whatever
// becomes of them (ready or failed) the session opens; mcp.list tells which.
void Bridge::start_editor_servers(AcpSession& s, const Json& servers, std::function<void()> then) {
    if (servers.empty()) return then();
    std::vector<std::string> names;
    for (const auto& [name, server] : servers.items())
        names.push_back(name);
    s.on_servers = [names, then](const McpListResult& list) {
        for (const McpServerInfo& server : list.servers)
            if (server.state == ServerState::starting &&
                std::find(names.begin(), names.end(), server.name) != names.end())
                return false;
        then();
        return true;
    };
    s.link->call(McpEditorSetParams{servers},
                 [&s, then](const client::Typed<McpEditorSetParams>& set) {
                     if (!s.on_servers) return;
                     if (!set) {
                         s.on_servers = nullptr;
                         return then();
                     }
                     if (s.on_servers(*set)) s.on_servers = nullptr;
                 });
}

// The ACP session is named after the core's: session/load of that id finds it again.
void Bridge::answer_session(AcpSession& s, const ReplyTo& id) {
    // A call on a link that is gone would never be answered.
    if (s.link->lost()) {
        s.opening = false;
        return fail(id, jsonrpc::code::internal_error,
                    "rio-core went away while the session opened (" +
                        s.lost.value_or("its connection closed") + ")");
    }
    s.link->call(StatusParams{}, [this, &s, id](const client::Typed<StatusParams>& status) {
        s.opening = false;
        if (!status) return fail(id, jsonrpc::code::internal_error, status.error().message);
        s.state.apply_status(*status);
        s.shown_mode = s.state.state().choice();
        if (!status->session.empty()) s.core_session = status->session;
        if (!s.named) {
            std::string name = status->session;
            if (name.empty() || sessions_.count(name))
                name = "rio-" + std::to_string(next_session_++);
            auto node = sessions_.extract(s.id);
            s.id = name;
            node.key() = name;
            sessions_.insert(std::move(node));
            s.named = true;
        }
        s.opened = true;
        reply(id, {{"sessionId", s.id},
                   {"modes", modes_state(s.shown_mode)},
                   {"configOptions", mode_config_options(s.shown_mode)}});
        // ACP's slash commands: /compact makes the conversation smaller (DESIGN §18); /check
        // runs an approved plan's step's check again (issue 43).
        announce_commands(s);
        context_may_have_changed(s);
    });
}

// ACP's slash commands: /compact makes the conversation smaller (DESIGN §18), /check runs an
// approved plan's step's check again (issue 43), then the user's and the project's own
// (DESIGN §23), which the core expands when one is prompted.
void Bridge::announce_commands(AcpSession& s) {
    s.link->call(CommandsListParams{}, [this, &s](const client::Typed<CommandsListParams>& listed) {
        Json commands = Json::array(
            {{{"name", "compact"},
              {"description", "Make the conversation smaller: old tool outputs are cleared and "
                              "older turns summarized"},
              {"input", {{"hint", "what the summary should keep"}}}},
             {{"name", "check"},
              {"description", "Run a step's check of the approved plan again"},
              {"input", {{"hint", "the step's number"}}}}});
        if (listed)
            for (const CommandInfo& c : listed->commands) {
                Json command{
                    {"name", c.name},
                    {"description",
                     c.description + (c.scope == DefinitionScope::project ? " (project)" : "")}};
                if (c.hint) command["input"] = {{"hint", *c.hint}};
                commands.push_back(std::move(command));
            }
        update(s, {{"sessionUpdate", "available_commands_update"},
                   {"availableCommands", std::move(commands)}});
    });
}

void Bridge::replay_history(AcpSession& s, std::function<void()> then) {
    s.link->call(ToolsParams{}, [this, &s, then](const client::Typed<ToolsParams>& tools) {
        std::map<std::string, Wire<ToolKind>> kinds;
        if (tools)
            for (const ToolInfo& t : tools->tools)
                kinds[t.name] = t.kind;
        if (s.link->lost()) return then(); // which says so
        s.link->call(HistoryParams{},
                     [this, &s, then, kinds](const client::Typed<HistoryParams>& history) {
                         if (history)
                             for (const HistoryMessage& m : history->messages)
                                 replay_entry(s, m, kinds);
                         then();
                     });
    });
}

void Bridge::replay_entry(AcpSession& s, const HistoryMessage& m,
                          const std::map<std::string, Wire<ToolKind>>& kinds) {
    for (const ResultInfo& r : m.results.value_or(std::vector<ResultInfo>{}))
        update(s, tool_call_update(ToolResultEvent{0, r.id, "", r.ok, r.content, r.exit, r.output,
                                                   std::nullopt}));
    if (!m.text.empty())
        update(s,
               text_chunk(m.role == "user" ? "user_message_chunk" : "agent_message_chunk", m.text));
    for (const CallInfo& c : m.calls.value_or(std::vector<CallInfo>{})) {
        auto kind = kinds.find(c.name);
        update(s, tool_call(ToolEvent{0,
                                      c.id,
                                      c.name,
                                      c.input,
                                      kind != kinds.end() ? kind->second
                                                          : Wire<ToolKind>::named("unknown"),
                                      {}},
                            s.root));
    }
}

void Bridge::set_mode(const jsonrpc::Request& r, client::ModeChoice choice, bool config_option) {
    AcpSession& s = *session_for(r);
    ReplyTo id = r.id;
    if (s.opening)
        return fail(id, jsonrpc::code::invalid_request,
                    "Invalid request: session " + s.id + " is being opened; wait for it");
    if (s.lost)
        return fail(id, jsonrpc::code::internal_error, lost_words(s),
                    {{"code", "connection_lost"}, {"sessionId", s.id}});
    const client::ModeRequests requests = client::mode_requests(choice);
    // One answer for both requests: the first failure, else the new mode.
    auto refused = std::make_shared<std::optional<std::string>>();
    if (requests.auto_accept)
        s.link->call(*requests.auto_accept,
                     [refused](const client::Typed<AutoAcceptSetParams>& set) {
                         if (!set) *refused = set.error().message;
                     });
    s.link->call(requests.mode, [this, &s, id, choice, config_option,
                                 refused](const client::Typed<ModeSetParams>& set) {
        if (!*refused && !set) *refused = set.error().message;
        if (*refused) return fail(id, jsonrpc::code::internal_error, **refused);
        // The answer precedes the events it causes: the client hears the new mode now, and
        // not again from those events.
        s.shown_mode = choice;
        reply(id, config_option ? Json{{"configOptions", mode_config_options(choice)}}
                                : Json::object());
    });
}

void Bridge::prompt(const jsonrpc::Request& r, AcpSession& s) {
    if (s.prompt_id)
        return fail(r.id, jsonrpc::code::invalid_request,
                    "Invalid request: this session is already answering a prompt");
    if (s.opening)
        return fail(r.id, jsonrpc::code::invalid_request,
                    "Invalid request: session " + s.id +
                        " is being opened; prompt once session/load has answered");
    const std::string text = prompt_text(r.params.value("prompt", Json()));
    if (text.empty())
        return fail(r.id, jsonrpc::code::invalid_params,
                    "Invalid params: prompt must hold a text block");
    if (s.lost && !options_.connect.empty() && !options_.remote)
        return fail(r.id, jsonrpc::code::internal_error, lost_words(s),
                    {{"code", "connection_lost"}, {"sessionId", s.id}});
    s.prompt_id = r.id;
    s.cancelled = false;
    s.error.reset();
    if (s.lost) return prompt_on_new_core(s, text);
    send_prompt(s, text);
}

void Bridge::send_prompt(AcpSession& s, const std::string& text) {
    if (text == "/compact" || text.rfind("/compact ", 0) == 0) {
        CompactParams compact;
        if (text.size() > 9) compact.instructions = text.substr(9);
        s.compacting = true;
        s.link->call(compact, [this, &s](const client::Typed<CompactParams>& done) {
            if (done || !s.prompt_id) return;
            s.compacting = false;
            fail(std::exchange(s.prompt_id, std::nullopt), jsonrpc::code::internal_error,
                 done.error().message, {{"code", std::string(to_string(done.error().code))}});
        });
        return;
    }
    if (text == "/check" || text.rfind("/check ", 0) == 0) return check_step(s, text.substr(6));
    auto failed = [this, &s](const Error& error) {
        if (s.prompt_id)
            fail(std::exchange(s.prompt_id, std::nullopt), jsonrpc::code::internal_error,
                 error.message);
    };
    if (auto call = client::command_call(text))
        return s.link->call(*call, [&s, failed](const client::Typed<CommandsRunParams>& r) {
            if (!r) return failed(r.error());
            s.turn = r->turn;
        });
    s.link->call(SendParams{text}, [&s, failed](const client::Typed<SendParams>& sent) {
        if (!sent) return failed(sent.error());
        s.turn = sent->turn;
    });
}

// The answer is one message; the plan update that follows from plans.progress shows the
// step's new status.
void Bridge::check_step(AcpSession& s, const std::string& arg) {
    char* end = nullptr;
    const std::string number = client::first_line(arg, 20);
    unsigned long long step = std::strtoull(number.c_str(), &end, 10);
    auto answer = [this, &s](const std::string& words) {
        if (!s.prompt_id) return;
        update(s, text_chunk("agent_message_chunk", words + "\n"));
        finish_prompt(s, "end_turn");
    };
    if (number.empty() || *end != '\0' || step == 0)
        return answer("Which step? /check N runs step N's check again.");
    s.link->call(PlansCheckParams{step}, [answer](const client::Typed<PlansCheckParams>& r) {
        answer(r ? client::recheck_text(*r) : r.error().message);
    });
}

// The session's own core went away before this prompt: it is resumed on a new one, and the
// prompt goes there, the answer's first line saying so (decision 0072).
void Bridge::prompt_on_new_core(AcpSession& s, const std::string& text) {
    const std::string why = *s.lost;
    s.opening = true;
    auto failed = [this, &s, why](const std::string& error) {
        s.opening = false;
        if (!s.lost) s.lost = error; // the new core is of no use either
        if (!s.prompt_id) return;
        fail(std::exchange(s.prompt_id, std::nullopt), jsonrpc::code::internal_error,
             "rio-core went away (" + why + "), and session " + s.id +
                 " could not be resumed on a new one: " + error +
                 "; the conversation is saved: prompt again, or load the session",
             {{"code", "connection_lost"}, {"sessionId", s.id}});
    };
    attach_core(s, [this, &s, text, why, failed](std::optional<std::string> error) {
        if (error) return failed(*error);
        resume_on_core(s, [this, &s, text, why, failed](std::optional<std::string> error) {
            if (error) return failed(*error);
            s.opening = false;
            if (!s.prompt_id) return;
            update(s, text_chunk("agent_message_chunk",
                                 "(rio-core had gone away (" + why +
                                     "); the session was resumed on a new rio-core)\n"));
            if (s.cancelled) return finish_prompt(s, "cancelled");
            send_prompt(s, text);
        });
    });
}

void Bridge::cancel(AcpSession& s) {
    if (!s.prompt_id) return;
    s.cancelled = true;
    // The turn's questions are moot: agent.stop decides them.
    withdraw_questions(s);
    if (s.opening || s.lost) return; // prompt_on_new_core ends the prompt cancelled
    s.link->call(StopParams{s.turn ? std::optional(s.turn) : std::nullopt});
}

// ACP's $/cancel_request: a prompt named is cancelled as by session/cancel, and answers
// `cancelled`. Other requests answer too soon to be worth cancelling, and an id nothing
// waits on is ignored, as the notification asks (decision 0073).
void Bridge::cancel_request(const Json& request_id) {
    if (!request_id.is_string() && !request_id.is_number_integer() && !request_id.is_null()) return;
    for (auto& [id, s] : sessions_)
        if (s->prompt_id && *s->prompt_id == request_id) return cancel(*s);
}

// What the session asked the client and is no longer waiting for: withdrawn with ACP's
// $/cancel_request, which the client answers (a permission request with `cancelled`).
void Bridge::withdraw_questions(AcpSession& s) {
    for (std::int64_t id : std::exchange(s.asking, {}))
        write_(line_of(jsonrpc::notification("$/cancel_request", {{"requestId", id}})));
}

void Bridge::on_event(AcpSession& s, const client::CoreEvent& event) {
    s.state.apply(event);
    if (auto* servers = std::get_if<McpChangedEvent>(&event)) {
        if (s.on_servers && s.on_servers(*servers)) s.on_servers = nullptr;
        return;
    }
    if (std::holds_alternative<AgentStatus>(event)) context_may_have_changed(s);
    if (std::holds_alternative<ModeEvent>(event) || std::holds_alternative<AgentStatus>(event))
        return mode_may_have_changed(s);
    if (auto* note = std::get_if<NoteEvent>(&event)) {
        if (s.prompt_id)
            update(s, text_chunk("agent_message_chunk", "\n(" + client::note_text(*note) + ")\n"));
        return;
    }
    if (auto* compacted = std::get_if<CompactedEvent>(&event)) {
        // ACP's compaction_update is for clients that advertise session.compaction; one line
        // of the agent's text reaches every client.
        if (!s.prompt_id) return;
        update(s,
               text_chunk("agent_message_chunk", "(" + client::compacted_text(*compacted) + ")\n"));
        if (s.compacting) {
            s.compacting = false;
            finish_prompt(s, "end_turn");
        }
        return;
    }
    if (auto* read = std::get_if<EditorReadEvent>(&event)) return read_for_core(s, *read);
    // The plan's progress is the conversation's state, not a turn's stream: a check a person
    // ran again (/check, which may answer before its event arrives) changes it outside any
    // turn, and on a shared core it is the same plan for every client.
    if (auto* plan = std::get_if<PlanProgressEvent>(&event)) {
        Json entries = plan_update(*plan);
        if (entries != s.plan_sent) update(s, s.plan_sent = std::move(entries));
        return;
    }
    // Only this session's own turn is streamed: on a shared core another client's turn is
    // that client's to show.
    if (!s.prompt_id || client::turn_of(event) != s.turn) return;
    if (auto* delta = std::get_if<DeltaEvent>(&event)) {
        update(s, text_chunk("agent_message_chunk", delta->text));
    } else if (auto* thinking = std::get_if<ThinkingEvent>(&event)) {
        update(s, text_chunk("agent_thought_chunk", thinking->text));
    } else if (auto* tool = std::get_if<ToolEvent>(&event)) {
        update(s, tool_call(*tool, s.root));
    } else if (auto* progress = std::get_if<ToolProgressEvent>(&event)) {
        update(s, tool_call_progress(*progress));
    } else if (auto* sub = std::get_if<SubagentEvent>(&event)) {
        if (std::string line = client::subagent_text(*sub); !line.empty()) {
            std::vector<std::string>& lines = s.subagent_lines[sub->id];
            lines.push_back(std::move(line));
            update(s, subagent_update(sub->id, lines));
        }
    } else if (auto* result = std::get_if<ToolResultEvent>(&event)) {
        s.subagent_lines.erase(result->id);
        update(s, tool_call_update(*result));
    } else if (auto* report = std::get_if<PlanReportEvent>(&event)) {
        // The steps' statuses went as plan updates; the receipt's summary closes the answer.
        if (std::string summary = client::receipt_summary_line(*report); !summary.empty())
            update(s, text_chunk("agent_message_chunk", "\n\nPlan receipt: " + summary));
    } else if (auto* proposal = std::get_if<Proposal>(&event)) {
        ask_permission(s, *proposal);
    } else if (auto* error = std::get_if<ErrorEvent>(&event)) {
        s.error = *error;
    } else if (std::holds_alternative<DoneEvent>(event)) {
        finish_prompt(s, "end_turn");
    } else if (std::holds_alternative<StoppedEvent>(event)) {
        finish_prompt(s, "cancelled");
    }
}

// ACP's usage_update {used, size}: how full the window is, when it changed.
void Bridge::context_may_have_changed(AcpSession& s) {
    const std::optional<ContextInfo>& context = s.state.state().context;
    if (!context || (context->used == s.shown_used && context->window == s.shown_window)) return;
    s.shown_used = context->used;
    s.shown_window = context->window;
    update(s,
           {{"sessionUpdate", "usage_update"}, {"used", context->used}, {"size", context->window}});
}

void Bridge::mode_may_have_changed(AcpSession& s) {
    const client::ModeChoice now = s.state.state().choice();
    if (now == s.shown_mode) return;
    s.shown_mode = now;
    update(s, {{"sessionUpdate", "current_mode_update"}, {"currentModeId", mode_id(now)}});
    update(s, {{"sessionUpdate", "config_option_update"},
               {"configOptions", mode_config_options(now)}});
}

// The core's read_file wants a file no core buffer holds: the editor's buffer, unsaved
// changes and all. An error (the client has no such file) sends the core to the disk.
void Bridge::read_for_core(AcpSession& s, const EditorReadEvent& read) {
    if (!reads_editor_) return; // another client of a shared core is the reader
    std::uint64_t request = read.request;
    ask_client(s, "fs/read_text_file", {{"sessionId", s.id}, {"path", read.path}},
               [&s, request, generation = s.generation](const jsonrpc::Response& response) {
                   if (s.lost || s.generation != generation) return;
                   EditorReadReplyParams reply{request, std::nullopt, std::nullopt};
                   const Json* content = response.result.is_object() &&
                                                 response.result.contains("content") &&
                                                 response.result["content"].is_string()
                                             ? &response.result["content"]
                                             : nullptr;
                   if (content && !response.error)
                       reply.text = content->get<std::string>();
                   else
                       reply.error = response.error ? response.error->message
                                                    : "fs/read_text_file answered no content";
                   s.link->call(reply);
               });
}

void Bridge::ask_permission(AcpSession& s, const Proposal& proposal) {
    if (!proposal.is(ProposalKind::edit)) return send_permission(s, proposal);
    // The diff is shown from the whole texts, which agent.proposal has.
    s.link->call(ProposalParams{}, [this, &s, proposal](const client::Typed<ProposalParams>& r) {
        const bool same = r && r->proposal && r->proposal->id == proposal.id;
        send_permission(s, same ? *r->proposal : proposal);
    });
}

void Bridge::send_permission(AcpSession& s, const Proposal& proposal) {
    const std::optional<SandboxState>& sandbox = s.state.state().sandbox;
    const bool by_host = sandbox && sandbox->network == NetworkReach::by_host;
    ask_client(s, "session/request_permission", permission_request(s.id, proposal, s.root, by_host),
               [&s, proposal, generation = s.generation](const jsonrpc::Response& response) {
                   if (s.lost || s.generation != generation) return;
                   ApproveParams decision;
                   decision.turn = proposal.turn;
                   decision.id = proposal.id;
                   const Json outcome = response.result.is_object()
                                            ? response.result.value("outcome", Json::object())
                                            : Json::object();
                   std::optional<Choice> choice;
                   if (!response.error && outcome.value("outcome", "") == "selected")
                       choice = choice_of(proposal, outcome.value("optionId", ""));
                   if (choice) {
                       decision.decision = choice->decision;
                       if (choice->policy) decision.policy = *choice->policy;
                       if (choice->network.any()) decision.network = choice->network;
                       if (choice->keep_hosts) decision.keep_hosts = true;
                       if (choice->unsandboxed) decision.unsandboxed = true;
                       if (choice->environment) decision.environment = true;
                   } else {
                       decision.decision = Verdict::reject;
                       if (!s.cancelled)
                           decision.feedback = "The person dismissed the request in their editor.";
                   }
                   if (s.cancelled) return; // agent.stop decides it: the turn is over
                   s.link->call(decision);
               });
}

void Bridge::finish_prompt(AcpSession& s, const char* stop_reason) {
    if (!s.prompt_id) return;
    ReplyTo id = std::exchange(s.prompt_id, std::nullopt);
    if (s.error && !s.cancelled)
        return fail(id, jsonrpc::code::internal_error, s.error->code + ": " + s.error->message,
                    {{"code", s.error->code}});
    reply(id, {{"stopReason", s.cancelled ? "cancelled" : stop_reason}});
}

void Bridge::update(const AcpSession& s, Json update) {
    write_(line_of(jsonrpc::notification("session/update",
                                         {{"sessionId", s.id}, {"update", std::move(update)}})));
}

void Bridge::reply(const ReplyTo& id, const Json& result) {
    if (id) write_(line_of(jsonrpc::result(*id, result)));
}

void Bridge::fail(const ReplyTo& id, int code, std::string message, Json data) {
    if (id) write_(line_of(jsonrpc::error(*id, {code, std::move(message), std::move(data)})));
}

void Bridge::ask_client(AcpSession& s, std::string_view method, const Json& params,
                        std::function<void(const jsonrpc::Response&)> then) {
    std::int64_t id = next_request_++;
    s.asking.insert(id);
    waiting_.emplace(id, [&s, id, then = std::move(then)](const jsonrpc::Response& response) {
        s.asking.erase(id);
        then(response);
    });
    write_(line_of(jsonrpc::request(id, method, params)));
}

void Bridge::client_gone() {
    for (auto& [id, s] : sessions_) {
        if (!s->link) continue; // a core that never started
        if (!s->lost && s->prompt_id) s->link->call(StopParams{});
        s->link->on_event(nullptr);
        s->link->on_lost(nullptr);
        s->link->close();
    }
    sessions_.clear(); // each private core sees its pipe close, stops and exits; reaped here
    waiting_.clear();
}

} // namespace rio::acp
