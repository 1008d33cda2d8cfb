#include "providers/reply_reports.hpp"

#include "host/http/sse.hpp"
#include "protocol/json_parse.hpp"

namespace rio {

std::string tool_input_too_large(std::string_view who, std::string_view tool) {
    return std::string(who) + " sent more than " +
           std::to_string(max_tool_input_bytes / (1024 * 1024)) + " MB of input for tool '" +
           std::string(tool) + "'; the reply was dropped";
}

std::optional<nlohmann::json> event_object(ReplyReports& reply, std::string_view what,
                                           std::string_view data,
                                           std::vector<ProviderReport>& out) {
    auto parsed = parse_json(data);
    if (parsed && parsed->is_object()) return std::move(*parsed);
    std::string why = parsed ? std::string() : refusal_note(parsed.error());
    reply.fail(out, ErrorCode::bad_response,
               "malformed " + std::string(what) + why + ": " + wire_excerpt(data));
    return std::nullopt;
}

void event_refused(ReplyReports& reply, std::string_view what, std::string_view data,
                   const nlohmann::json::exception& e, std::vector<ProviderReport>& out) {
    if (!reply.finished)
        reply.fail(out, ErrorCode::bad_response,
                   "unexpected " + std::string(what) + " (" + std::string(e.what()) +
                       "): " + wire_excerpt(data));
}

Result<nlohmann::json> tool_input(std::string_view tool, std::string_view arguments) {
    if (arguments.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return nlohmann::json::object();
    auto input = parse_json(arguments);
    if (input && input->is_null()) return nlohmann::json::object(); // "null": no arguments
    if (input && input->is_object()) return input;
    std::string note = input ? std::string() : refusal_note(input.error());
    std::string problem = note.empty() ? "' that is not a JSON object (was the reply cut short?)"
                                       : "' that is refused" + note;
    return make_error(ErrorCode::bad_response, "the server sent arguments for tool '" +
                                                   std::string(tool) + problem + ": " +
                                                   wire_excerpt(arguments));
}

} // namespace rio
