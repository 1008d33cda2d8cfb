#include "host/mcp/mcp_client.hpp"

#include "core/version.hpp"
#include "host/http/sse.hpp"

#include <asio/post.hpp>

namespace rio {
namespace {

using Json = nlohmann::json;

std::string seconds(std::chrono::seconds s) {
    return std::to_string(s.count()) + (s.count() == 1 ? " second" : " seconds");
}

} // namespace

McpClient::McpClient(asio::io_context& io, HttpClient& http, McpServerConfig config,
                     std::filesystem::path cwd, std::function<void()> changed, Roots roots)
    : io_(io), http_(http), config_(std::move(config)), cwd_(std::move(cwd)),
      changed_(std::move(changed)), roots_(std::move(roots)) {}

// Calls still waiting are answered: the turn waiting on one must go on.
McpClient::~McpClient() {
    *alive_ = false;
    transport_.reset();
    answer_all("was removed from the configuration");
}

void McpClient::start() {
    stop();
    ++generation_;
    if (!config_.error.empty()) {
        set(ServerState::failed, config_.error);
        return;
    }
    std::uint64_t run = generation_;
    auto alive = alive_;
    McpTransportHandlers handlers{[this, alive, run](std::string line) {
                                      if (*alive && run == generation_) on_line(line);
                                  },
                                  [this, alive, run](std::string why) {
                                      if (*alive && run == generation_) closed(why);
                                  }};
    if (config_.http) {
        transport_ = open_http_transport(http_, config_, std::move(handlers));
    } else {
        auto transport = open_stdio_transport(io_, config_, cwd_, std::move(handlers));
        if (!transport) {
            set(ServerState::failed, "could not start: " + transport.error().message);
            return;
        }
        transport_ = std::move(*transport);
    }
    tools_.clear();
    set(ServerState::starting, "");
    request("initialize", mcp_initialize_params(version), "initialize",
            [this](const jsonrpc::Response& r) { initialized(r); });
}

void McpClient::stop() {
    ++generation_;
    roots_changed_ = false;
    bool was_running = transport_ != nullptr;
    transport_.reset();
    answer_all("was stopped");
    tools_.clear();
    listing_ = list_again_ = false;
    if (was_running) set(ServerState::stopped, "");
}

std::int64_t McpClient::request(std::string method, Json params, std::string what,
                                std::function<void(const jsonrpc::Response&)> done) {
    std::int64_t id = next_id_++;
    Pending pending{std::move(what), std::move(done), std::make_unique<asio::steady_timer>(io_),
                    nullptr};
    wait_for_answer(id, *pending.timer);
    pending_.emplace(id, std::move(pending));
    transport_->send(jsonrpc::request(id, method, std::move(params)));
    return id;
}

void McpClient::wait_for_answer(std::int64_t id, asio::steady_timer& timer) {
    timer.expires_after(config_.timeout);
    timer.async_wait([this, alive = alive_, id](std::error_code ec) {
        if (!ec && *alive) on_timeout(id);
    });
}

void McpClient::initialized(const jsonrpc::Response& response) {
    if (!response.ok()) {
        fail("refused initialize: " + response.error->message);
        return;
    }
    std::string version = response.result.value("protocolVersion", Json("")).is_string()
                              ? response.result.value("protocolVersion", std::string())
                              : std::string();
    if (!mcp_version_supported(version)) {
        fail("speaks MCP version \"" + version + "\", which rio does not (it speaks " +
             std::string(mcp_protocol_version) + ")");
        return;
    }
    transport_->send(jsonrpc::notification("notifications/initialized"));
    list_tools(std::nullopt, {});
}

void McpClient::list_tools(std::optional<std::string> cursor, std::vector<McpTool> so_far) {
    listing_ = true;
    Json params = Json::object();
    if (cursor) params["cursor"] = *cursor;
    request("tools/list", std::move(params), "tools/list",
            [this, so_far = std::move(so_far)](const jsonrpc::Response& r) mutable {
                if (!r.ok()) {
                    fail("could not list its tools: " + r.error->message);
                    return;
                }
                std::string why;
                auto page = parse_tools_page(r.result, why);
                if (!page) {
                    fail(why);
                    return;
                }
                for (McpTool& tool : page->tools)
                    so_far.push_back(std::move(tool));
                if (page->next_cursor) {
                    list_tools(page->next_cursor, std::move(so_far));
                    return;
                }
                listing_ = false;
                tools_ = std::move(so_far);
                std::string note = page->skipped.empty() ? "" : "skipped " + page->skipped.front();
                set(ServerState::ready, note);
                if (std::exchange(roots_changed_, false)) roots_changed();
                if (std::exchange(list_again_, false)) list_tools(std::nullopt, {});
            });
}

std::uint64_t McpClient::call(const std::string& tool, Json arguments, CallDone done,
                              CallProgress progress) {
    auto finish = [this, done](McpCallOutcome outcome) {
        asio::post(io_, [done, outcome = std::move(outcome)] { done(outcome); });
    };
    if (state_ != ServerState::ready || !transport_) {
        finish({true, "the server is " + std::string(to_wire(state_)) +
                          (error_.empty() ? "" : ": " + error_)});
        return 0;
    }
    Json params{{"name", tool},
                {"arguments", arguments.is_null() ? Json::object() : arguments},
                {"_meta", {{"progressToken", next_id_}}}}; // the request's own id
    std::int64_t id =
        request("tools/call", std::move(params), tool, [finish](const jsonrpc::Response& r) {
            if (!r.ok()) {
                finish({true, r.error->message});
                return;
            }
            finish(call_outcome(r.result));
        });
    if (auto it = pending_.find(id); it != pending_.end())
        it->second.progress = std::move(progress);
    return static_cast<std::uint64_t>(id);
}

// Before initialized, a notification is out of order: a server that is starting hears it
// once it is ready.
void McpClient::roots_changed() {
    if (state_ == ServerState::starting) roots_changed_ = true;
    if (state_ != ServerState::ready || !transport_) return;
    transport_->send(jsonrpc::notification("notifications/roots/list_changed"));
}

// The spec lets a client restart a request's timeout on progress: a long call that says how
// it goes is not cut off, one that goes silent still is.
void McpClient::on_progress(const McpProgress& progress) {
    auto it = pending_.find(progress.token);
    if (it == pending_.end()) return; // answered, cancelled, or a token this client never sent
    wait_for_answer(progress.token, *it->second.timer);
    if (it->second.progress) it->second.progress(progress);
}

void McpClient::cancel(std::uint64_t handle) {
    auto it = pending_.find(static_cast<std::int64_t>(handle));
    if (it == pending_.end()) return;
    pending_.erase(it);
    if (transport_)
        transport_->send(jsonrpc::notification("notifications/cancelled",
                                               {{"requestId", static_cast<std::int64_t>(handle)},
                                                {"reason", "the user stopped the turn"}}));
}

void McpClient::on_line(const std::string& line) {
    jsonrpc::Message message = jsonrpc::parse(line);
    if (auto* response = std::get_if<jsonrpc::Response>(&message)) {
        on_response(*response, line);
    } else if (auto* bad = std::get_if<jsonrpc::Invalid>(&message)) {
        fail("sent malformed JSON-RPC: " + bad->why + ": " + wire_excerpt(line, 120));
    } else if (const auto& request = std::get<jsonrpc::Request>(message); !request.notification()) {
        on_server_request(request);
    } else if (request.method == "notifications/progress") {
        if (auto progress = parse_progress(request.params)) on_progress(*progress);
    } else if (request.method == "notifications/tools/list_changed" &&
               state_ == ServerState::ready) {
        if (listing_)
            list_again_ = true;
        else
            list_tools(std::nullopt, {});
    }
}

void McpClient::on_response(const jsonrpc::Response& response, std::string_view line) {
    auto id = response.own_id();
    if (!id) {
        fail("sent malformed JSON-RPC: a response without an id this client sent: " +
             wire_excerpt(line, 120));
        return;
    }
    auto it = pending_.find(*id);
    if (it == pending_.end()) return; // answered after its timeout or cancel
    Pending pending = std::move(it->second);
    pending_.erase(it);
    pending.done(response);
}

void McpClient::on_server_request(const jsonrpc::Request& request) {
    if (request.method == "ping") {
        transport_->send(jsonrpc::result(*request.id, Json::object()));
        return;
    }
    if (request.method == "roots/list") {
        transport_->send(jsonrpc::result(*request.id, roots_ ? roots_() : mcp_roots(std::nullopt)));
        return;
    }
    // Sampling and elicitation would let a server drive the model or ask the person outside
    // the gate; rio declared neither, and says so to a server that asks anyway.
    transport_->send(jsonrpc::error(*request.id, {jsonrpc::code::method_not_found,
                                                  "rio does not offer " + request.method +
                                                      " (it declared only the roots capability)",
                                                  nullptr}));
}

void McpClient::on_timeout(std::int64_t id) {
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
    std::string what = it->second.what;
    if (what == "initialize" || what == "tools/list") {
        fail("did not answer " + what + " within " + seconds(config_.timeout));
        return;
    }
    Pending pending = std::move(it->second);
    pending_.erase(it);
    transport_->send(jsonrpc::notification("notifications/cancelled",
                                           {{"requestId", id}, {"reason", "no answer in time"}}));
    std::string why = "no answer from " + what + " within " + seconds(config_.timeout);
    error_ = "the last call timed out: " + why;
    notify_changed();
    pending.done(jsonrpc::Response{id, nullptr, jsonrpc::Error{-32001, why, nullptr}});
}

void McpClient::fail(std::string why) {
    ++generation_;
    transport_.reset();
    tools_.clear();
    listing_ = list_again_ = false;
    answer_all(why);
    set(ServerState::failed, std::move(why));
}

void McpClient::closed(const std::string& why) {
    if (why.empty()) return; // stop() asked for it and has said so
    fail(state_ == ServerState::starting ? "could not start: it " + why : "stopped: it " + why);
}

void McpClient::answer_all(const std::string& why) {
    std::map<std::int64_t, Pending> pending = std::move(pending_);
    pending_.clear();
    for (auto& [id, p] : pending)
        p.done(
            jsonrpc::Response{id, nullptr, jsonrpc::Error{-32000, "the server " + why, nullptr}});
}

void McpClient::set(ServerState state, std::string error) {
    state_ = state;
    error_ = std::move(error);
    notify_changed();
}

void McpClient::notify_changed() {
    asio::post(io_, [alive = alive_, changed = changed_] {
        if (*alive && changed) changed();
    });
}

} // namespace rio
