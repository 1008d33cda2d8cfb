// Streamable HTTP (MCP 2025-11-25): every message a POST to the one URL; the answer is one
// JSON message or an SSE stream of them; 202 for notifications and responses. The session
// id the server hands out with initialize goes on every later request, and the negotiated
// protocol version too. No standalone GET stream: rio needs nothing servers start on their
// own except list changes, which a server may also send on a response's stream.
#include "host/http/http_client.hpp"
#include "host/mcp/mcp_transport.hpp"
#include "host/http/sse.hpp"

#include <map>

namespace rio {
namespace {

using Json = nlohmann::json;

class HttpMcpTransport final : public McpTransport {
public:
    HttpMcpTransport(HttpClient& http, const McpServerConfig& config, McpTransportHandlers handlers)
        : http_(http), url_(config.url), headers_(config.headers),
          idle_timeout_(config.timeout + std::chrono::seconds(5)), handlers_(std::move(handlers)),
          alive_(std::make_shared<bool>(true)) {}

    ~HttpMcpTransport() override {
        *alive_ = false;
        for (const auto& [id, post] : posts_)
            http_.cancel(id);
        end_session();
    }

    void send(const Json& message) override {
        if (closed_) return;
        HttpRequest request;
        request.url = url_;
        request.body = message.dump(-1, ' ', false, Json::error_handler_t::replace);
        request.headers = {{"Content-Type", "application/json"},
                           {"Accept", "application/json, text/event-stream"}};
        request.idle_timeout = idle_timeout_;
        add_session_headers(request);
        auto post = std::make_shared<Post>();
        auto alive = alive_;
        HttpClient::Id id = http_.start(
            std::move(request),
            {[this, alive, post](const HttpHead& head) {
                 if (!*alive) return;
                 post->status = head.status;
                 post->sse = head.header("content-type").value_or("").find("text/event-stream") !=
                             std::string::npos;
                 if (auto session = head.header("mcp-session-id")) session_ = *session;
             },
             [this, alive, post](std::string_view bytes) {
                 if (!*alive) return;
                 if (post->status != 200 || !post->sse) {
                     post->body.append(
                         bytes.substr(0, max_body - std::min(max_body, post->body.size())));
                     return;
                 }
                 for (SseEvent& event : post->parser.feed(bytes))
                     if (!event.data.empty() && event.type == "message") deliver(event.data);
             },
             [this, alive, post](std::optional<Error> error) {
                 if (!*alive) return;
                 finished(*post, error);
             }});
        post->id = id;
        posts_.emplace(id, post);
    }

    void close() override {
        if (closed_) return;
        closed_ = true;
        for (const auto& [id, post] : posts_)
            http_.cancel(id);
        posts_.clear();
        end_session();
        auto on_closed = handlers_.on_closed;
        if (on_closed) on_closed("");
    }

    pid_t pid() const override { return -1; }

private:
    static constexpr std::size_t max_body = std::size_t{16} << 20;

    struct Post {
        HttpClient::Id id = 0;
        int status = 0;
        bool sse = false;
        std::string body;
        SseParser parser;
    };

    void add_session_headers(HttpRequest& request) const {
        for (const auto& [name, value] : headers_)
            request.headers.emplace_back(name, value);
        if (!session_.empty()) request.headers.emplace_back("Mcp-Session-Id", session_);
        if (!version_.empty()) request.headers.emplace_back("MCP-Protocol-Version", version_);
    }

    // The version initialize's answer names goes on every later request.
    void deliver(const std::string& text) {
        if (version_.empty()) {
            auto parsed = Json::parse(text, nullptr, false);
            if (parsed.is_object() && parsed.contains("result") && parsed["result"].is_object() &&
                parsed["result"].value("protocolVersion", Json()).is_string())
                version_ = parsed["result"]["protocolVersion"];
        }
        if (handlers_.on_message) handlers_.on_message(text);
    }

    void finished(Post& post, const std::optional<Error>& error) {
        posts_.erase(post.id);
        if (closed_) return;
        if (error) return fail("cannot reach " + url_ + ": " + error->message);
        if (post.status == 202) return;
        if (post.status == 200 && !post.sse) {
            std::string body = post.body;
            while (!body.empty() && (body.back() == '\n' || body.back() == '\r'))
                body.pop_back();
            if (!body.empty()) deliver(body);
            return;
        }
        if (post.status == 200) {
            if (post.parser.overflowed()) fail("sent an event past 16 MB");
            return;
        }
        if (post.status == 404 && !session_.empty())
            return fail("ended the session (HTTP 404); restart the server to begin a new one");
        fail("answered HTTP " + std::to_string(post.status) +
             (post.body.empty() ? std::string() : ": " + wire_excerpt(post.body)));
    }

    void fail(const std::string& why) {
        if (closed_) return;
        closed_ = true;
        for (const auto& [id, post] : posts_)
            http_.cancel(id);
        posts_.clear();
        if (handlers_.on_closed) handlers_.on_closed(why);
    }

    // DELETE ends the server's session; whatever it answers, nothing waits for it.
    void end_session() {
        if (session_.empty()) return;
        HttpRequest request;
        request.method = "DELETE";
        request.url = url_;
        add_session_headers(request);
        session_.clear();
        http_.start(std::move(request), {});
    }

    HttpClient& http_;
    std::string url_;
    NameValues headers_;
    // A tool's answer may take as long as the client waits for it: the client's timeout ends
    // the call first, with its own words.
    std::chrono::milliseconds idle_timeout_;
    McpTransportHandlers handlers_;
    std::shared_ptr<bool> alive_;
    std::map<HttpClient::Id, std::shared_ptr<Post>> posts_;
    std::string session_, version_;
    bool closed_ = false;
};

} // namespace

std::unique_ptr<McpTransport> open_http_transport(HttpClient& http, const McpServerConfig& config,
                                                  McpTransportHandlers handlers) {
    return std::make_unique<HttpMcpTransport>(http, config, std::move(handlers));
}

} // namespace rio
