// The op registry: later features register ops here without touching any transport.
#pragma once

#include "protocol/messages.hpp"
#include "protocol/wire.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

using ClientId = std::uint64_t;

// `params` lives only during the handler call; an async handler copies what it needs.
struct Call {
    const Json& params;
    ClientId client;
};

using Handler = std::function<Result<Json>(const Call&)>;
// An op that answers later (it waits on the network, say) calls Reply exactly once.
using Reply = std::function<void(Result<Json>)>;
using AsyncHandler = std::function<void(const Call&, Reply)>;
// Receives the one response line of a request.
using Respond = std::function<void(std::string line)>;
// An op whose result is too large to build as a document (fs.search with every match)
// appends its result's JSON text to `line` (protocol/json_text.hpp); on an error, what it
// appended is dropped.
using TextHandler = std::function<Status(const Call&, std::string& line)>;

class Dispatcher {
public:
    // Registering an op twice is a programming error and throws std::logic_error.
    void add(std::string op, Handler handler);
    void add_async(std::string op, AsyncHandler handler);
    void add_text(std::string op, TextHandler handler);

    // A typed op (protocol/messages.hpp): its params parsed into P, a wrong or missing field
    // answered bad_request by name, the handler's P::Result sent back.
    template <typename P, typename F> void on(F handler) {
        add(std::string(P::op), [handler = std::move(handler)](const Call& call) -> Result<Json> {
            Result<typename P::Result> result = handler(parse_fields<P>(call.params));
            if (!result) return result.error();
            return Json(*result);
        });
    }
    // The same for an op whose answer depends on which client asks: `handler(params, client)`.
    template <typename P, typename F> void on_client(F handler) {
        add(std::string(P::op), [handler = std::move(handler)](const Call& call) -> Result<Json> {
            Result<typename P::Result> result = handler(parse_fields<P>(call.params), call.client);
            if (!result) return result.error();
            return Json(*result);
        });
    }
    // The same for an op that answers later: `handler(params, reply)`, reply called once.
    template <typename P, typename F> void on_async(F handler) {
        add_async(
            std::string(P::op), [handler = std::move(handler)](const Call& call, Reply reply) {
                handler(parse_fields<P>(call.params), [reply](Result<typename P::Result> result) {
                    if (!result) return reply(result.error());
                    reply(Json(*result));
                });
            });
    }

    // The same for an op that writes its result as text: `handler(params, line)`.
    template <typename P, typename F> void on_text(F handler) {
        add_text(std::string(P::op),
                 [handler = std::move(handler)](const Call& call, std::string& line) -> Status {
                     return handler(parse_fields<P>(call.params), line);
                 });
    }

    std::vector<std::string> ops() const;

    // One request line in; `respond` gets its one response line, at once for most ops,
    // later for async ones. Never throws.
    void handle(std::string_view line, ClientId client, const Respond& respond) const;

    std::string refuse_oversize(std::size_t length, std::size_t limit) const;

private:
    std::map<std::string, AsyncHandler, std::less<>> handlers_;
    std::map<std::string, TextHandler, std::less<>> text_handlers_;
};

} // namespace rio
