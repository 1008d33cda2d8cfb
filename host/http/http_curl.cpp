// The transport module: every use of libcurl in rio, loaded by host/http_module on the first
// request. Transfers run on one thread in curl_multi_poll; what they bring goes back through
// HttpEvents, which HttpClient takes over to io.
#include "host/http/http_transport.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <curl/curl.h>
#include <functional>
#include <mutex>
#include <new>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rio {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// The worker sleeps this long at most when no idle deadline is near; start, cancel and
// curl's own timers wake it sooner.
constexpr auto longest_sleep = 10s;

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' ||
                             text.back() == '\n'))
        text.remove_suffix(1);
    return text;
}

std::string seconds(std::chrono::milliseconds duration) {
    char text[32];
    std::snprintf(text, sizeof text, "%g s", static_cast<double>(duration.count()) / 1000.0);
    return text;
}

// The time as the idle timers see it: the client's clock when it gave one (a test's), else
// steady_clock's.
Clock::time_point idle_now(const HttpIdleClock& clock) {
    return clock ? clock() : Clock::now();
}

// One request as the worker thread sees it. Built on io's thread, then owned by the worker.
struct Transfer {
    Transfer(std::uint64_t id_, HttpRequest request_, std::unique_ptr<HttpEvents> events_,
             std::shared_ptr<HttpFlow> flow_, const HttpIdleClock& clock_)
        : id(id_), request(std::move(request_)), events(std::move(events_)), flow(std::move(flow_)),
          clock(clock_) {}
    ~Transfer() {
        if (easy) curl_easy_cleanup(easy);
        curl_slist_free_all(header_list);
    }
    Transfer(const Transfer&) = delete;
    Transfer& operator=(const Transfer&) = delete;

    void touch() { last_activity = idle_now(clock); }

    void report_head() {
        long status = 0;
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
        head.status = static_cast<int>(status);
        head_reported = true;
        events->head(std::move(head));
    }

    std::uint64_t id;
    HttpRequest request; // curl reads the body from here while sending it
    std::unique_ptr<HttpEvents> events;
    std::shared_ptr<HttpFlow> flow;
    const HttpIdleClock& clock; // the worker's, which outlives every transfer
    bool curl_paused = false;   // worker only: the write callback returned CURL_WRITEFUNC_PAUSE
    // From the URL, for messages. Never the URL itself: it may carry a key.
    std::string host;
    std::string peer;    // "host:port"
    std::string ca_file; // and where it came from, when not the system's: for messages
    std::string ca_source;
    CURL* easy = nullptr;
    curl_slist* header_list = nullptr;
    char error_text[CURL_ERROR_SIZE] = {};
    HttpHead head; // being collected until head_reported
    bool head_reported = false;
    bool connected = false; // the idle timer runs only from here on
    Clock::time_point last_activity{};
    curl_off_t sent = 0;
};

// curl calls these on the worker thread, from inside curl_multi_perform.

std::size_t on_header_line(char* data, std::size_t size, std::size_t count, void* user) noexcept {
    auto& t = *static_cast<Transfer*>(user);
    std::size_t n = size * count;
    t.touch();
    if (t.head_reported) return n; // trailers after a chunked body
    std::string_view line(data, n);
    if (line.starts_with("HTTP/")) {
        // A new status line: whatever came before was an interim 1xx response.
        t.head = {};
        return n;
    }
    if (trim(line).empty()) {
        long status = 0;
        curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
        if (status >= 200) t.report_head();
        return n;
    }
    if ((line.front() == ' ' || line.front() == '\t') && !t.head.headers.empty()) {
        // An obsolete folded continuation of the previous header.
        t.head.headers.back().second += ' ';
        t.head.headers.back().second += trim(line);
        return n;
    }
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return n;
    t.head.headers.emplace_back(lower(trim(line.substr(0, colon))),
                                std::string(trim(line.substr(colon + 1))));
    return n;
}

std::size_t on_body_bytes(char* data, std::size_t size, std::size_t count, void* user) noexcept {
    auto& t = *static_cast<Transfer*>(user);
    std::size_t n = size * count;
    t.touch();
    if (!t.head_reported) t.report_head();
    if (t.flow->worker_should_pause()) {
        // Marked before the second look, so io, lowering `queued` or clearing `held`
        // meanwhile, sees the mark and asks for a resume: no wake-up is lost.
        t.flow->paused = true;
        if (t.flow->worker_should_pause()) {
            t.curl_paused = true;
            return CURL_WRITEFUNC_PAUSE;
        }
        t.flow->paused = false;
    }
    t.flow->queued += n;
    t.events->body(std::string(data, n));
    return n;
}

// Sending counts as activity too: a large request body on a slow link is not a stall.
int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t sent) noexcept {
    auto& t = *static_cast<Transfer*>(user);
    if (sent != t.sent) {
        t.sent = sent;
        t.touch();
    }
    return 0;
}

// Connected, or handed a pooled connection, and about to send the request.
int on_connected(void* user, char*, char*, int, int) noexcept {
    auto& t = *static_cast<Transfer*>(user);
    t.connected = true;
    t.touch();
    return CURL_PREREQFUNC_OK;
}

Error bad_request(std::string message) {
    return make_error(ErrorCode::bad_request, std::move(message));
}

struct Peer {
    std::string host, port;
};

Result<Peer> peer_of(const std::string& url) {
    std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> parsed(curl_url(), curl_url_cleanup);
    if (!parsed) return make_error(ErrorCode::internal, "out of memory");
    if (curl_url_set(parsed.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK)
        return bad_request("not an http:// or https:// URL");
    auto part = [&](CURLUPart which, unsigned flags) {
        char* text = nullptr;
        std::string out;
        if (curl_url_get(parsed.get(), which, &text, flags) == CURLUE_OK) out = text;
        curl_free(text);
        return out;
    };
    std::string scheme = lower(part(CURLUPART_SCHEME, 0));
    if (scheme != "http" && scheme != "https") return bad_request("not an http:// or https:// URL");
    return Peer{part(CURLUPART_HOST, 0), part(CURLUPART_PORT, CURLU_DEFAULT_PORT)};
}

bool has_line_break(std::string_view text) {
    return text.find_first_of("\r\n") != std::string_view::npos;
}

bool has_header(const HttpRequest& request, std::string_view name) {
    return std::any_of(request.headers.begin(), request.headers.end(),
                       [&](const auto& header) { return lower(header.first) == name; });
}

// Checks the request and sets up its easy handle. Runs on io's thread, so a request rio
// cannot send fails before it reaches the worker.
Status prepare(Transfer& t) {
    const HttpRequest& r = t.request;
    Result<Peer> peer = peer_of(r.url);
    if (!peer) return peer.error();
    t.host = peer->host;
    t.peer = peer->host + ":" + peer->port;
    if (r.method.empty() || r.method.find_first_of(" \t\r\n") != std::string::npos)
        return bad_request("bad HTTP method: " + r.method);
    if (r.method == "GET" && !r.body.empty()) return bad_request("a GET request has no body");
    for (const auto& [name, value] : r.headers) {
        if (name.empty() || name.find_first_of(": \t\r\n") != std::string::npos ||
            has_line_break(value))
            return bad_request("bad HTTP header: " + name);
        // curl sends "Name: value" as given, except that an empty value needs "Name;".
        std::string line = name;
        line += value.empty() ? ";" : ": ";
        line += value;
        curl_slist* longer = curl_slist_append(t.header_list, line.c_str());
        if (!longer) return make_error(ErrorCode::internal, "out of memory");
        t.header_list = longer;
    }
    // "Expect: 100-continue", which curl adds to large bodies, costs a round trip or, with a
    // server that ignores it, a second. An empty value removes a header curl would add.
    std::vector<std::string> removals;
    if (!has_header(r, "expect")) removals.emplace_back("Expect:");
    // Without a type of the caller's, curl would label the body a submitted HTML form.
    if (r.method != "GET" && !has_header(r, "content-type")) removals.emplace_back("Content-Type:");
    for (const std::string& line : removals) {
        curl_slist* longer = curl_slist_append(t.header_list, line.c_str());
        if (!longer) return make_error(ErrorCode::internal, "out of memory");
        t.header_list = longer;
    }

    if (!r.ca_file.empty()) {
        t.ca_file = r.ca_file;
        t.ca_source = "ca_file";
    } else if (const char* from_env = std::getenv("SSL_CERT_FILE"); from_env && *from_env) {
        t.ca_file = from_env;
        t.ca_source = "SSL_CERT_FILE";
    }
    // Checked here, so that a mistyped path reads as that and not as a TLS failure.
    if (!t.ca_file.empty() && ::access(t.ca_file.c_str(), R_OK) != 0)
        return make_error(ErrorCode::not_configured, "cannot read the CA file " + t.ca_file + " (" +
                                                         t.ca_source +
                                                         "): " + std::strerror(errno));

    t.easy = curl_easy_init();
    if (!t.easy) return make_error(ErrorCode::internal, "cannot set up an HTTP transfer");
    CURL* e = t.easy;
    curl_easy_setopt(e, CURLOPT_PRIVATE, &t);
    curl_easy_setopt(e, CURLOPT_URL, r.url.c_str());
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.error_text);
    // curl must not raise SIGALRM or SIGPIPE in a process with other threads.
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(r.connect_timeout.count()));
    // HTTP/2 is negotiated over TLS only; http:// stays HTTP/1.1. A curl without HTTP/2
    // refuses the option.
    if (curl_easy_setopt(e, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS) != CURLE_OK)
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
    // Left at curl's defaults on purpose: peer and host verification against the system CA
    // bundle; the proxy, from http_proxy, https_proxy, all_proxy and no_proxy; no redirects
    // followed; and no Accept-Encoding, since a compressed event stream arrives in lumps.
    curl_easy_setopt(e, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L); // a proxy's answer is no head
    // libcurl reads no SSL_CERT_FILE of its own: Debian's is built with a bundle path, which
    // wins over OpenSSL's variable.
    if (!t.ca_file.empty()) curl_easy_setopt(e, CURLOPT_CAINFO, t.ca_file.c_str());
    if (r.method == "GET") {
        curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    } else {
        curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
        curl_easy_setopt(e, CURLOPT_POSTFIELDS, r.body.data());
        if (r.method != "POST") curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, r.method.c_str());
    }
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, t.header_list);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header_line);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body_bytes);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(e, CURLOPT_XFERINFODATA, &t);
    curl_easy_setopt(e, CURLOPT_PREREQFUNCTION, on_connected);
    curl_easy_setopt(e, CURLOPT_PREREQDATA, &t);
    return Ok{};
}

bool is_tls_failure(CURLcode code) {
    switch (code) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_USE_SSL_FAILED:
        return true;
    default:
        return false;
    }
}

Error failure(const Transfer& t, CURLcode code) {
    std::string detail = t.error_text[0] ? t.error_text : curl_easy_strerror(code);
    auto network = [](std::string message) {
        return make_error(ErrorCode::network, std::move(message));
    };
    switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
        return network("cannot resolve " + t.host);
    case CURLE_COULDNT_RESOLVE_PROXY:
        return network("cannot resolve the proxy for " + t.peer + ": " + detail);
    case CURLE_COULDNT_CONNECT: {
        long os_error = 0;
        curl_easy_getinfo(t.easy, CURLINFO_OS_ERRNO, &os_error);
        return network("cannot connect to " + t.peer + ": " +
                       (os_error ? std::strerror(static_cast<int>(os_error)) : detail));
    }
    case CURLE_OPERATION_TIMEDOUT:
        // No overall timeout is set, so curl times out only while connecting.
        if (!t.connected)
            return network("cannot connect to " + t.peer + " within " +
                           seconds(t.request.connect_timeout));
        return network("timed out talking to " + t.peer + ": " + detail);
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
        return bad_request(detail);
    case CURLE_OUT_OF_MEMORY:
        return make_error(ErrorCode::internal, "out of memory");
    case CURLE_SSL_CACERT_BADFILE:
        if (!t.ca_file.empty())
            return make_error(ErrorCode::not_configured,
                              "the CA file " + t.ca_file + " (" + t.ca_source +
                                  ") holds no usable certificate: " + detail);
        return network("TLS failure with " + t.peer + ": " + detail);
    default:
        if (is_tls_failure(code)) return network("TLS failure with " + t.peer + ": " + detail);
        return network("connection to " + t.peer + " failed: " + detail);
    }
}

// Runs every transfer of one client on its own thread, in curl_multi_poll. start and cancel
// reach it through a queue and curl_multi_wakeup; everything else it owns alone.
class HttpWorker final : public HttpTransport {
public:
    explicit HttpWorker(HttpIdleClock idle_clock) : idle_clock_(std::move(idle_clock)) {
        // curl_global_init must run once in the process before curl is used, and is never
        // undone: library setup (OpenSSL's included) that carries no state of rio's, which is
        // why a once-flag, not a client, owns it.
        static std::once_flag curl_ready;
        std::call_once(curl_ready, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
        multi_ = curl_multi_init();
        if (!multi_) throw std::bad_alloc();
        thread_ = std::thread([this] { run(); });
    }

    // Every transfer still in flight is torn down and its connection closed, and the
    // connections kept for reuse are closed by curl_multi_cleanup.
    ~HttpWorker() override {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        curl_multi_wakeup(multi_);
        thread_.join();
        curl_multi_cleanup(multi_);
    }

    HttpWorker(const HttpWorker&) = delete;
    HttpWorker& operator=(const HttpWorker&) = delete;

    Status start(std::uint64_t id, HttpRequest request, std::unique_ptr<HttpEvents> events,
                 std::shared_ptr<HttpFlow> flow) override {
        auto transfer = std::make_unique<Transfer>(id, std::move(request), std::move(events),
                                                   std::move(flow), idle_clock_);
        if (Status ready = prepare(*transfer); !ready) return ready;
        send(Command{id, std::move(transfer), false, {}});
        return Ok{};
    }

    void cancel(std::uint64_t id) override { send(Command{id, nullptr, false, {}}); }
    void resume(std::uint64_t id) override { send(Command{id, nullptr, true, {}}); }
    void sync(std::function<void()> then) override {
        send(Command{0, nullptr, false, std::move(then)});
    }

private:
    struct Command {
        std::uint64_t id;
        std::unique_ptr<Transfer> start; // null: cancel, resume or sync
        bool resume = false;
        std::function<void()> sync; // set: a sync
    };

    void send(Command command) {
        {
            std::lock_guard lock(mutex_);
            commands_.push_back(std::move(command));
        }
        curl_multi_wakeup(multi_);
    }

    void run() {
        while (take_commands()) {
            int running = 0;
            curl_multi_perform(multi_, &running);
            finish_completed();
            auto wait = expire_idle();
            // Every command before a sync has been taken up and this pass has reported what
            // it found (the idle check included): the syncs are answered after all of it.
            for (auto& then : std::exchange(syncs_, {}))
                then();
            curl_multi_poll(multi_, nullptr, 0, static_cast<int>(wait.count()), nullptr);
        }
        while (!transfers_.empty())
            drop(transfers_.begin()->first);
    }

    // Applies start and cancel in the order they were made; false once the client is going.
    bool take_commands() {
        std::vector<Command> commands;
        {
            std::lock_guard lock(mutex_);
            if (stopping_) return false;
            commands.swap(commands_);
        }
        for (Command& command : commands) {
            if (command.sync) {
                syncs_.push_back(std::move(command.sync));
                continue;
            }
            if (command.resume) {
                unpause(command.id);
                continue;
            }
            if (!command.start) {
                drop(command.id);
                continue;
            }
            Transfer& t = *command.start;
            if (curl_multi_add_handle(multi_, t.easy) != CURLM_OK) {
                t.events->done(make_error(ErrorCode::internal, "cannot start an HTTP transfer"));
                continue;
            }
            transfers_.emplace(command.id, std::move(command.start));
        }
        return true;
    }

    // May run the write callback at once, which may pause again.
    void unpause(std::uint64_t id) {
        auto found = transfers_.find(id);
        if (found == transfers_.end() || !found->second->curl_paused) return;
        Transfer& t = *found->second;
        t.curl_paused = false;
        t.flow->paused = false;
        t.touch(); // waiting for io is no silence of the server's
        curl_easy_pause(t.easy, CURLPAUSE_CONT);
    }

    // Ends a transfer that has not completed, closing its connection: what is left of a
    // half-read response cannot be reused, and a stop must reach the server. curl closes an
    // HTTP/1.1 connection removed mid-response by itself; forbidding reuse covers HTTP/2,
    // where removal alone would only reset the stream, and a transfer still connecting.
    std::unique_ptr<Transfer> drop(std::uint64_t id) {
        auto found = transfers_.find(id);
        if (found == transfers_.end()) return nullptr; // finished meanwhile
        std::unique_ptr<Transfer> t = std::move(found->second);
        transfers_.erase(found);
        curl_easy_setopt(t->easy, CURLOPT_FORBID_REUSE, 1L);
        curl_multi_remove_handle(multi_, t->easy);
        return t;
    }

    void finish_completed() {
        int left = 0;
        while (CURLMsg* message = curl_multi_info_read(multi_, &left)) {
            if (message->msg != CURLMSG_DONE) continue;
            Transfer* found = nullptr;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &found);
            CURLcode code = message->data.result; // `message` dies with the removal
            std::unique_ptr<Transfer> t = std::move(transfers_.at(found->id));
            transfers_.erase(found->id);
            // A complete transfer's connection goes back to curl's pool for the next request.
            curl_multi_remove_handle(multi_, t->easy);
            if (code != CURLE_OK) {
                t->events->done(failure(*t, code));
                continue;
            }
            if (!t->head_reported) t->report_head();
            t->events->done(std::nullopt);
        }
    }

    // Fails the transfers that have received nothing for their idle timeout; returns how
    // long the poll may sleep before the next one could be due.
    std::chrono::milliseconds expire_idle() {
        auto now = idle_now(idle_clock_);
        std::chrono::milliseconds wait = longest_sleep;
        std::vector<std::uint64_t> idle;
        for (const auto& [id, t] : transfers_) {
            if (!t->connected) continue;  // curl's connect timeout applies until then
            if (t->curl_paused) continue; // held back by us, not by the server
            auto due = t->last_activity + t->request.idle_timeout;
            if (due <= now)
                idle.push_back(id);
            else
                wait = std::min(wait, std::chrono::ceil<std::chrono::milliseconds>(due - now));
        }
        for (std::uint64_t id : idle) {
            std::unique_ptr<Transfer> t = drop(id);
            t->events->done(make_error(ErrorCode::network, "no data from " + t->peer + " for " +
                                                               seconds(t->request.idle_timeout)));
        }
        return wait;
    }

    const HttpIdleClock idle_clock_;
    CURLM* multi_ = nullptr;
    std::mutex mutex_;
    std::vector<Command> commands_;                                          // guarded by mutex_
    bool stopping_ = false;                                                  // guarded by mutex_
    std::unordered_map<std::uint64_t, std::unique_ptr<Transfer>> transfers_; // worker only
    std::vector<std::function<void()>> syncs_;                               // worker only
    std::thread thread_;
};

} // namespace
} // namespace rio

extern "C" __attribute__((visibility("default"))) rio::HttpTransport*
rio_http_transport_create(int version, const rio::HttpIdleClock& idle_clock) {
    if (version != rio::http_transport_version) return nullptr;
    try {
        return new rio::HttpWorker(idle_clock);
    } catch (...) { // out of memory, or no thread: the caller reports it as unavailable
        return nullptr;
    }
}
