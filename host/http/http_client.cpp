#include "host/http/http_client.hpp"

#include "host/http/http_module.hpp"
#include "host/http/http_transport.hpp"

#include <asio/executor_work_guard.hpp>
#include <asio/post.hpp>
#include <unordered_map>

namespace rio {

// The io-thread side of the requests in flight: their callbacks, nothing the transport
// touches.
struct HttpLive {
    struct Entry {
        HttpCallbacks callbacks;
        // Keeps io.run() going while the request is in flight, as a pending read would.
        asio::executor_work_guard<asio::io_context::executor_type> work;
        std::shared_ptr<HttpFlow> flow;
    };
    // Shared, so that a callback that cancels its own request, or destroys the client, does
    // not destroy the function that is running.
    std::unordered_map<HttpClient::Id, std::shared_ptr<Entry>> requests;
    HttpTransport* transport = nullptr; // valid whenever a started request is found here
    std::function<bool()> readers_behind;
    bool client_gone = false; // a sync() answer posted before then is not delivered
};

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// Posts a request's events to io, where they reach its callbacks unless it was cancelled or
// the client destroyed meanwhile: both remove it from `live`. Events posted from the one
// transport thread run in the order they were posted.
class Reporter final : public HttpEvents {
public:
    Reporter(asio::io_context& io, std::shared_ptr<HttpLive> live, HttpClient::Id id)
        : io_(&io), live_(std::move(live)), id_(id) {}

    void head(HttpHead head) override {
        deliver([head = std::move(head)](HttpCallbacks& callbacks) {
            if (callbacks.on_head) callbacks.on_head(head);
        });
    }

    void body(std::string bytes) override {
        asio::post(*io_, [live = live_, id = id_, bytes = std::move(bytes)]() mutable {
            auto found = live->requests.find(id);
            if (found == live->requests.end()) return;
            std::shared_ptr<HttpLive::Entry> entry = found->second;
            if (entry->callbacks.on_body) entry->callbacks.on_body(bytes);
            HttpFlow& flow = *entry->flow;
            flow.queued -= bytes.size();
            if (live->readers_behind && live->readers_behind()) flow.held = true;
            if (flow.paused && flow.io_may_resume() && live->requests.count(id))
                live->transport->resume(id);
        });
    }

    void done(std::optional<Error> error) override {
        asio::post(*io_, [live = live_, id = id_, error = std::move(error)]() mutable {
            auto found = live->requests.find(id);
            if (found == live->requests.end()) return;
            std::shared_ptr<HttpLive::Entry> entry = std::move(found->second);
            live->requests.erase(found);
            entry->work.reset();
            if (entry->callbacks.on_done) entry->callbacks.on_done(std::move(error));
        });
    }

private:
    template <typename Event> void deliver(Event event) const {
        asio::post(*io_, [live = live_, id = id_, event = std::move(event)]() mutable {
            auto found = live->requests.find(id);
            if (found == live->requests.end()) return;
            std::shared_ptr<HttpLive::Entry> entry = found->second;
            event(entry->callbacks);
        });
    }

    asio::io_context* io_;
    std::shared_ptr<HttpLive> live_;
    HttpClient::Id id_;
};

} // namespace

std::optional<std::string> HttpHead::header(std::string_view name) const {
    std::string wanted = lower(name);
    for (const auto& [key, value] : headers)
        if (key == wanted) return value;
    return std::nullopt;
}

HttpClient::HttpClient(asio::io_context& io, HttpIdleClock idle_clock)
    : io_(io), live_(std::make_shared<HttpLive>()), idle_clock_(std::move(idle_clock)) {}

HttpClient::~HttpClient() {
    live_->requests.clear();
    live_->client_gone = true;
    transport_.reset();
}

HttpClient::Id HttpClient::start(HttpRequest request, HttpCallbacks callbacks) {
    Id id = next_id_++;
    auto flow = std::make_shared<HttpFlow>();
    live_->requests.emplace(id, std::make_shared<HttpLive::Entry>(HttpLive::Entry{
                                    std::move(callbacks), asio::make_work_guard(io_), flow}));
    Reporter report(io_, live_, id);
    if (!transport_ && !unavailable_) {
        // The first request pays for loading libcurl and TLS; a core that never makes one
        // never does.
        auto loaded = load_http_transport(idle_clock_);
        if (loaded) {
            transport_ = std::move(*loaded);
            live_->transport = transport_.get();
        } else {
            unavailable_ = loaded.error();
        }
    }
    // Errors are posted, like every event: the caller has its id before it hears.
    if (!transport_) {
        report.done(*unavailable_);
        return id;
    }
    if (Status started =
            transport_->start(id, std::move(request), std::make_unique<Reporter>(report), flow);
        !started)
        report.done(started.error());
    return id;
}

void HttpClient::hold_while(std::function<bool()> readers_behind) {
    live_->readers_behind = std::move(readers_behind);
}

void HttpClient::readers_caught_up() {
    for (auto& [id, entry] : live_->requests) {
        HttpFlow& flow = *entry->flow;
        if (!flow.held.exchange(false)) continue;
        if (flow.paused && flow.io_may_resume() && transport_) transport_->resume(id);
    }
}

void HttpClient::sync(std::function<void()> then) {
    auto back = [live = live_, then = std::move(then), work = asio::make_work_guard(io_)] {
        if (!live->client_gone) then();
    };
    if (!transport_) { // no transfer thread: nothing can be on its way
        asio::post(io_, std::move(back));
        return;
    }
    transport_->sync([io = &io_, back = std::move(back)] { asio::post(*io, back); });
}

void HttpClient::cancel(Id id) {
    if (live_->requests.erase(id) == 0) return;
    if (transport_) transport_->cancel(id);
}

} // namespace rio
