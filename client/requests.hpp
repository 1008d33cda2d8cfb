// Request/response matching for a client of rio-core: each request gets its own id and its
// reply goes to the handler given with it; a line that is not a reply is an event, handed
// back typed (client/events.hpp). No transport: the desktop's Qt glue and the terminal's
// Asio link both write the lines this makes and feed in the lines they read.
#pragma once

#include "client/events.hpp"
#include "protocol/error.hpp"
#include "protocol/wire.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace rio::client {

struct Reply {
    Json result; // null on error
    std::optional<Error> error;
    bool ok() const { return !error; }
};
using ReplyHandler = std::function<void(const Reply&)>;

// A typed reply: the op's result struct (protocol/messages.hpp), or the error.
template <typename P> using Typed = Result<typename P::Result>;

// A reply decoded into its result struct. A result that does not match its struct is a
// bad_response error.
template <typename R> Result<R> typed_reply(const Reply& reply) {
    if (reply.error) return *reply.error;
    try {
        return reply.result.get<R>();
    } catch (const std::exception& e) {
        return make_error(ErrorCode::bad_response,
                          std::string("the core's reply did not match: ") + e.what());
    }
}

// A typed reply as its JSON again, for handlers that only say whether a request failed.
template <typename R> Reply reply_of(const Result<R>& typed) {
    if (!typed) return Reply{nullptr, typed.error()};
    return Reply{Json(*typed), std::nullopt};
}

class Requests {
public:
    // The line (with its '\n') asking for `op`; `done` (if any) gets the reply.
    std::string encode(std::string_view op, const Json& params, ReplyHandler done = nullptr);

    // The same from a params struct, with its result decoded. A result that does not match
    // its struct is a bad_response error.
    template <typename P>
    std::string encode(const P& params, std::function<void(const Typed<P>&)> done) {
        return encode(P::op, Json(params), [done = std::move(done)](const Reply& reply) {
            if (done) done(typed_reply<typename P::Result>(reply));
        });
    }

    // One line from the core. A reply is handed to its handler (and nullopt returned); an
    // event comes back decoded, an event of a kind this client does not know as nullopt.
    // A line that is neither (or not JSON), or a known event whose params do not fit its
    // struct, is counted in malformed().
    std::optional<CoreEvent> take(std::string_view line);

    // The core went away: every waiting handler gets `why`, once.
    void fail_all(const Error& why);

    std::size_t pending() const { return waiting_.size(); }
    std::size_t malformed() const { return malformed_; }

private:
    std::map<std::uint64_t, ReplyHandler> waiting_;
    std::uint64_t next_id_ = 1;
    std::size_t malformed_ = 0;
};

} // namespace rio::client
