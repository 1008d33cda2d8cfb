#include "host/lsp/lsp_server.hpp"

#include "core/version.hpp"
#include "host/http/sse.hpp"
#include "host/process/piped_process.hpp"
#include "host/process/server_environment.hpp"

#include <algorithm>
#include <asio/post.hpp>
#include <unistd.h>

namespace rio {
namespace {

using Json = nlohmann::json;

// What a server's stderr keeps for the Settings page and for the reason it failed.
constexpr std::size_t stderr_kept = 16 * 1024;

std::string seconds(std::chrono::milliseconds ms) {
    auto count = ms.count();
    std::string n = count % 1000 == 0
                        ? std::to_string(count / 1000)
                        : std::to_string(count / 1000) + "." + std::to_string(count % 1000 / 100);
    return n + (count == 1000 ? " second" : " seconds");
}

Json text_document(const std::string& uri) {
    return {{"uri", uri}};
}

} // namespace

LspServer::LspServer(asio::io_context& io, LspServerConfig config, std::filesystem::path root,
                     Handlers handlers)
    : io_(io), config_(std::move(config)), root_(std::move(root)), handlers_(std::move(handlers)),
      quiet_(io) {}

// Requests still waiting are answered: whoever waits on one must go on.
LspServer::~LspServer() {
    *alive_ = false;
    if (process_) {
        process_->forget();
        process_->stop();
    }
    answer_all("was stopped");
}

pid_t LspServer::pid() const {
    return process_ ? process_->pid() : -1;
}

std::string LspServer::stderr_tail() const {
    return process_ ? process_->stderr_tail() : last_stderr_;
}

void LspServer::start() {
    stop();
    ++generation_;
    if (!config_.error.empty()) {
        set(ServerState::failed, config_.error);
        return;
    }
    PipedSpec spec;
    spec.argv = config_.argv;
    spec.cwd = root_;
    spec.env = server_environment();
    spec.stderr_tail = stderr_kept;
    std::uint64_t run = generation_;
    auto alive = alive_;
    PipedHandlers handlers;
    handlers.on_bytes = [this, alive, run](std::string_view bytes) {
        if (*alive && run == generation_) on_bytes(bytes);
    };
    handlers.on_exit = [this, alive, run](PipedExit exit) {
        if (!*alive || run != generation_) return;
        last_stderr_ = exit.stderr_tail;
        process_.reset();
        std::string why = exit_words(exit);
        if (std::string err = last_line(exit.stderr_tail); !err.empty()) why += ": " + err;
        exited(why);
    };
    framer_ = LspFramer();
    capabilities_ = {};
    auto process = start_piped(io_, std::move(spec), std::move(handlers));
    if (!process) {
        set(ServerState::failed, "could not start: " + process.error().message);
        return;
    }
    process_ = std::move(*process);
    set(ServerState::starting, "");
    // A run that failed meanwhile has said why; its initialize answer says nothing new.
    send_request(
        "initialize",
        lsp_initialize_params(::getpid(), root_, version, config_.initialization_options),
        [this, run](Result<Json> result) {
            if (run == generation_) initialized(result);
        },
        config_.initialize_timeout());
}

void LspServer::stop() {
    ++generation_;
    bool was_running = process_ != nullptr;
    if (process_) {
        last_stderr_ = process_->stderr_tail();
        process_->forget();
        process_->stop();
        process_.reset();
    }
    answer_all("was stopped");
    if (was_running) set(ServerState::stopped, "");
}

void LspServer::send(const Json& message) {
    if (process_) process_->write(lsp_frame(message));
}

std::int64_t LspServer::send_request(std::string method, Json params, Answer answer,
                                     std::chrono::milliseconds timeout) {
    std::int64_t id = next_id_++;
    Pending pending{method, std::move(answer), std::make_unique<asio::steady_timer>(io_)};
    pending.timer->expires_after(timeout);
    pending.timer->async_wait([this, alive = alive_, id](std::error_code ec) {
        if (!ec && *alive) on_timeout(id);
    });
    pending_.emplace(id, std::move(pending));
    send(jsonrpc::request(id, method, std::move(params)));
    return id;
}

std::uint64_t LspServer::request(std::string method, Json params, Answer answer) {
    auto later = [this](Answer answer, Result<Json> result) {
        asio::post(io_,
                   [answer = std::move(answer), result = std::move(result)] { answer(result); });
    };
    if (state_ == ServerState::starting) {
        auto handle = static_cast<std::uint64_t>(next_id_++);
        queued_.push_back({handle, std::move(method), std::move(params), std::move(answer)});
        return handle;
    }
    if (state_ != ServerState::ready) {
        later(std::move(answer),
              make_error(ErrorCode::server, config_.name + " is " + std::string(to_wire(state_)) +
                                                (error_.empty() ? "" : ": " + error_)));
        return 0;
    }
    // The server answers about the text it has: the newest, whatever typing is under way.
    flush_all();
    // Answers come on io, after request() returned, since they arrive from the server.
    return static_cast<std::uint64_t>(send_request(
        std::move(method), std::move(params),
        [later, answer = std::move(answer)](Result<Json> r) { later(answer, std::move(r)); },
        config_.timeout));
}

void LspServer::cancel(std::uint64_t handle) {
    std::erase_if(queued_, [handle](const Queued& q) { return q.handle == handle; });
    auto it = pending_.find(static_cast<std::int64_t>(handle));
    if (it == pending_.end()) return;
    pending_.erase(it);
    send(jsonrpc::notification("$/cancelRequest", {{"id", static_cast<std::int64_t>(handle)}}));
}

void LspServer::initialized(const Result<Json>& result) {
    if (!result) {
        fail("refused initialize: " + result.error().message);
        return;
    }
    capabilities_ = parse_capabilities(*result);
    send(jsonrpc::notification("initialized", Json::object()));
    if (!config_.settings.is_null())
        send(jsonrpc::notification("workspace/didChangeConfiguration",
                                   {{"settings", config_.settings}}));
    set(ServerState::ready, "");
    for (auto& [uri, doc] : documents_)
        send_open(uri, doc);
    std::vector<Queued> queued = std::move(queued_);
    queued_.clear();
    for (Queued& q : queued) {
        std::int64_t id = static_cast<std::int64_t>(q.handle);
        Pending pending{q.method,
                        [this, answer = std::move(q.answer)](Result<Json> r) {
                            asio::post(io_, [answer, r = std::move(r)] { answer(r); });
                        },
                        std::make_unique<asio::steady_timer>(io_)};
        pending.timer->expires_after(config_.timeout);
        pending.timer->async_wait([this, alive = alive_, id](std::error_code ec) {
            if (!ec && *alive) on_timeout(id);
        });
        pending_.emplace(id, std::move(pending));
        send(jsonrpc::request(id, q.method, std::move(q.params)));
    }
}

const LspDocument* LspServer::document(const std::string& uri) const {
    auto it = documents_.find(uri);
    return it == documents_.end() ? nullptr : &it->second;
}

void LspServer::send_open(const std::string& uri, LspDocument& doc) {
    if (state_ != ServerState::ready) return;
    send(jsonrpc::notification("textDocument/didOpen", {{"textDocument",
                                                         {{"uri", uri},
                                                          {"languageId", doc.language},
                                                          {"version", doc.version},
                                                          {"text", doc.text}}}}));
    doc.sent = doc.version;
    doc.changes = {};
}

void LspServer::open(const std::string& uri, std::string rel, std::string language,
                     std::string text, bool buffer) {
    if (auto it = documents_.find(uri); it != documents_.end()) {
        it->second.buffer = it->second.buffer || buffer;
        if (it->second.text != text) replace(uri, std::move(text));
        return;
    }
    LspDocument& doc = documents_[uri];
    doc.rel = std::move(rel);
    doc.language = std::move(language);
    doc.text = std::move(text);
    doc.lines = LineTable(doc.text);
    doc.version = 1;
    doc.buffer = buffer;
    send_open(uri, doc);
}

// The change is noted in the server's positions against the text before it (the lines kept
// in step make that a search, not a scan), and goes out when typing pauses.
bool LspServer::change(const std::string& uri, std::size_t start, std::size_t end,
                       const std::string& text) {
    auto it = documents_.find(uri);
    if (it == documents_.end()) return false;
    LspDocument& doc = it->second;
    if (start > end || end > doc.text.size()) return false;
    const bool told = state_ == ServerState::ready && capabilities_.sync != 0;
    if (told && capabilities_.sync == 2 && config_.sync == LspSync::incremental)
        doc.changes.edit(LineIndex(doc.text, doc.lines), start, end, text);
    else if (told)
        doc.changes.whole();
    doc.text.replace(start, end - start, text);
    doc.lines.edit(doc.text, start, end, text.size());
    ++doc.version;
    if (told) changes_made();
    return true;
}

void LspServer::replace(const std::string& uri, std::string text) {
    auto it = documents_.find(uri);
    if (it == documents_.end()) return;
    LspDocument& doc = it->second;
    doc.text = std::move(text);
    doc.lines = LineTable(doc.text);
    ++doc.version;
    if (state_ != ServerState::ready || capabilities_.sync == 0) return;
    doc.changes.whole();
    changes_made();
}

void LspServer::flush(const std::string& uri) {
    if (auto it = documents_.find(uri); it != documents_.end()) send_changes(uri, it->second);
}

void LspServer::send_changes(const std::string& uri, LspDocument& doc) {
    if (state_ != ServerState::ready || doc.changes.empty()) return;
    send(jsonrpc::notification("textDocument/didChange",
                               {{"textDocument", {{"uri", uri}, {"version", doc.version}}},
                                {"contentChanges", doc.changes.take(doc.text)}}));
    doc.sent = doc.version;
}

void LspServer::flush_all() {
    for (auto& [uri, doc] : documents_)
        send_changes(uri, doc);
}

// One timer for all documents: it fires change_delay after the first change, and again
// until change_delay has passed since the last one.
void LspServer::changes_made() {
    if (config_.change_delay.count() <= 0) return flush_all();
    quiet_at_ = std::chrono::steady_clock::now() + config_.change_delay;
    if (!quiet_armed_) wait_quiet();
}

void LspServer::wait_quiet() {
    quiet_armed_ = true;
    quiet_.expires_at(quiet_at_);
    quiet_.async_wait([this, alive = alive_](std::error_code ec) {
        if (ec || !*alive) return;
        quiet_armed_ = false;
        if (std::chrono::steady_clock::now() < quiet_at_) return wait_quiet();
        flush_all();
    });
}

void LspServer::save(const std::string& uri) {
    auto it = documents_.find(uri);
    if (it == documents_.end() || state_ != ServerState::ready) return;
    send_changes(uri, it->second); // the saved text is the one the server has
    if (!capabilities_.save) return;
    Json params{{"textDocument", text_document(uri)}};
    if (capabilities_.save_text) params["text"] = it->second.text;
    send(jsonrpc::notification("textDocument/didSave", std::move(params)));
}

// Changes not sent yet go with the document: the server forgets it.
void LspServer::close(const std::string& uri) {
    if (documents_.erase(uri) == 0 || state_ != ServerState::ready) return;
    send(jsonrpc::notification("textDocument/didClose", {{"textDocument", text_document(uri)}}));
}

void LspServer::on_bytes(std::string_view bytes) {
    std::vector<std::string> bodies;
    bool ok = framer_.feed(bytes, bodies);
    std::uint64_t run = generation_;
    for (const std::string& body : bodies) {
        on_message(body);
        if (run != generation_) return; // it failed on that message
    }
    if (!ok) fail(framer_.error());
}

void LspServer::on_message(const std::string& body) {
    jsonrpc::Message message = jsonrpc::parse(body);
    if (auto* response = std::get_if<jsonrpc::Response>(&message)) {
        on_response(*response);
    } else if (auto* bad = std::get_if<jsonrpc::Invalid>(&message)) {
        fail("sent something that is not JSON-RPC: " + bad->why + ": " + wire_excerpt(body, 120));
    } else {
        const auto& request = std::get<jsonrpc::Request>(message);
        if (request.notification())
            on_notification(request);
        else
            on_server_request(request);
    }
}

void LspServer::on_response(const jsonrpc::Response& response) {
    // Answered after its timeout or cancel, or never asked: nothing waits on it.
    auto it = pending_.find(response.own_id().value_or(-1));
    if (it == pending_.end()) return;
    Pending pending = std::move(it->second);
    pending_.erase(it);
    if (!response.ok()) {
        pending.answer(make_error(ErrorCode::server, config_.name + " could not answer " +
                                                         pending.method + ": " +
                                                         response.error->message));
        return;
    }
    pending.answer(response.result);
}

void LspServer::on_server_request(const jsonrpc::Request& request) {
    const std::string& m = request.method;
    if (m == "workspace/configuration") {
        send(jsonrpc::result(*request.id, configuration(request.params)));
    } else if (m == "workspace/workspaceFolders") {
        send(jsonrpc::result(*request.id, Json::array({{{"uri", path_to_uri(root_)},
                                                        {"name", root_.filename().string()}}})));
    } else if (m == "workspace/applyEdit") {
        send(jsonrpc::result(
            *request.id,
            {{"applied", false}, {"failureReason", "rio applies no edits a server asks for"}}));
    } else if (m == "window/workDoneProgress/create" || m == "client/registerCapability" ||
               m == "client/unregisterCapability" || m == "window/showMessageRequest" ||
               m == "window/showDocument" || m.ends_with("/refresh")) {
        send(jsonrpc::result(*request.id, nullptr));
    } else {
        send(jsonrpc::error(*request.id,
                            {jsonrpc::code::method_not_found, "rio does not offer " + m, nullptr}));
    }
}

void LspServer::on_notification(const jsonrpc::Request& note) {
    if (note.method != "textDocument/publishDiagnostics") return; // progress, logs: not shown
    // Past this many a file's list is a flood, not help.
    constexpr std::size_t max_diagnostics = 200; // of one file: more than any panel shows
    auto published = parse_published(note.params, max_diagnostics);
    if (published && handlers_.published) handlers_.published(*published);
}

// Each section is looked up in the entry's settings by its dotted path; an unknown one is
// null, which servers read as "use your default".
Json LspServer::configuration(const Json& params) const {
    Json out = Json::array();
    const Json items = params.is_object() ? params.value("items", Json::array()) : Json::array();
    if (!items.is_array()) return out;
    for (const Json& item : items) {
        std::string section;
        if (item.is_object() && item.value("section", Json()).is_string())
            section = item["section"].get<std::string>();
        const Json* at = &config_.settings;
        std::size_t from = 0;
        while (at->is_object() && from < section.size()) {
            std::size_t dot = section.find('.', from);
            std::string key = section.substr(from, dot == std::string::npos ? dot : dot - from);
            auto it = at->find(key);
            at = it == at->end() ? nullptr : &*it;
            if (!at) break;
            from = dot == std::string::npos ? section.size() : dot + 1;
        }
        out.push_back(at && from >= section.size() ? *at : Json());
    }
    return out;
}

void LspServer::on_timeout(std::int64_t id) {
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
    std::string method = it->second.method;
    if (method == "initialize") {
        fail("did not answer initialize within " + seconds(config_.initialize_timeout()));
        return;
    }
    Pending pending = std::move(it->second);
    pending_.erase(it);
    send(jsonrpc::notification("$/cancelRequest", {{"id", id}}));
    std::string why =
        config_.name + " did not answer " + method + " within " + seconds(config_.timeout);
    error_ = "the last request timed out: " + why;
    notify_changed();
    pending.answer(make_error(ErrorCode::server, why));
}

void LspServer::fail(std::string why) {
    ++generation_;
    if (process_) {
        last_stderr_ = process_->stderr_tail();
        process_->forget();
        process_->stop();
        process_.reset();
    }
    answer_all(why);
    set(ServerState::failed, std::move(why));
}

void LspServer::exited(const std::string& why) {
    fail(state_ == ServerState::starting ? "could not start: it " + why : "stopped: it " + why);
}

void LspServer::answer_all(const std::string& why) {
    std::map<std::int64_t, Pending> pending = std::move(pending_);
    pending_.clear();
    std::vector<Queued> queued = std::move(queued_);
    queued_.clear();
    Error error = make_error(ErrorCode::server, config_.name + " " + why);
    for (auto& [id, p] : pending)
        p.answer(error);
    for (Queued& q : queued)
        asio::post(io_, [answer = std::move(q.answer), error] { answer(error); });
}

void LspServer::set(ServerState state, std::string error) {
    state_ = state;
    error_ = std::move(error);
    notify_changed();
}

void LspServer::notify_changed() {
    asio::post(io_, [alive = alive_, changed = handlers_.changed] {
        if (*alive && changed) changed();
    });
}

} // namespace rio
