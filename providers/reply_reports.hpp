// What a reply decoder (either wire format) tracks about the reports it has made: whether
// the user has seen output (a retry would then show a second, different reply) and whether
// the one terminal report (done or error) is out.
#pragma once

#include "core/agent/provider_contract.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rio {

// One tool call's arguments, as JSON text: far more than any real call (a whole file for
// create_file), little enough that a runaway reply cannot take the core's memory with it.
inline constexpr std::size_t max_tool_input_bytes = 16u * 1024 * 1024;

std::string tool_input_too_large(std::string_view who, std::string_view tool);

// A tool call's arguments as the server sent them (JSON text, empty or "null" for none): the
// input object, or bad_response saying why not, naming the tool.
Result<nlohmann::json> tool_input(std::string_view tool, std::string_view arguments);

struct ReplyReports {
    bool finished = false;
    bool output = false;

    // A delta, thinking or tool call.
    void emit(std::vector<ProviderReport>& out, ProviderReport report) {
        output = true;
        out.push_back(std::move(report));
    }
    // The terminal error: after it the decoder ignores everything.
    void fail(std::vector<ProviderReport>& out, ErrorCode code, std::string message) {
        out.push_back(ProviderReport::error(code, std::move(message)));
        finished = true;
    }
};

// One SSE event's data as a JSON object; data that is not one becomes the terminal
// bad_response error, naming `what` and quoting the data.
std::optional<nlohmann::json> event_object(ReplyReports& reply, std::string_view what,
                                           std::string_view data, std::vector<ProviderReport>& out);
// A shape the decoder did not expect (a nlohmann exception), as the terminal bad_response.
void event_refused(ReplyReports& reply, std::string_view what, std::string_view data,
                   const nlohmann::json::exception& e, std::vector<ProviderReport>& out);

// One SSE event's JSON object handed to `decode`, for every wire's decoder: data that is not
// a JSON object, or a shape `decode` did not expect, becomes the one terminal bad_response
// error, naming `what` ("event from Anthropic", "chunk from the server") and quoting the
// data. A template, so a decoder's lambda costs no allocation per event.
template <typename Decode>
void decode_event(ReplyReports& reply, std::string_view what, std::string_view data,
                  std::vector<ProviderReport>& out, Decode&& decode) {
    std::optional<nlohmann::json> object = event_object(reply, what, data, out);
    if (!object) return;
    try {
        decode(*object);
    } catch (const nlohmann::json::exception& e) { // still one clean error
        event_refused(reply, what, data, e, out);
    }
}

// What every wire's decoder (one reply, `on_event` per SSE event, `on_end_of_stream` when the
// body ends) answers about itself; the wire's class adds the decoding.
class ReplyDecoder {
public:
    // True only after the one terminal report (done or error); after it, everything is
    // ignored.
    bool finished() const { return reply_.finished; }

    // A delta, thinking or tool call has been reported, so retrying the request would show
    // the user a second, different reply.
    bool produced_output() const { return reply_.output; }

protected:
    ReplyReports reply_;
};

} // namespace rio
