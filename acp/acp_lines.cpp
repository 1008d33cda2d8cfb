#include "acp/acp_lines.hpp"

namespace rio::acp {

jsonrpc::Message parse_line(std::string_view line) {
    jsonrpc::Message message = jsonrpc::parse(line);
    auto* request = std::get_if<jsonrpc::Request>(&message);
    if (!request) return message;
    if (request->params.is_null()) request->params = Json::object();
    if (request->params.is_object()) return message;
    return jsonrpc::Invalid{request->id.value_or(nullptr), jsonrpc::code::invalid_params,
                            "params must be an object"};
}

std::string line_of(const Json& message) {
    return jsonrpc::dump(message) + "\n";
}

} // namespace rio::acp
