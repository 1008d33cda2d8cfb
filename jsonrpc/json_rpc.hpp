// JSON-RPC 2.0 as rio speaks it to language servers, MCP servers and ACP editors: one parse
// that tells a request, a notification and a response apart, or says how a message is
// invalid with the code the spec gives; and the four kinds of message written. Framing is
// apart: LSP's Content-Length headers (host/lsp/lsp_wire), MCP's and ACP's lines. Pure.
// (Helix keeps the same in one module, helix-lsp/src/jsonrpc.rs.)
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace rio::jsonrpc {

using Json = nlohmann::json;

namespace code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
} // namespace code

struct Error {
    std::int64_t code = code::internal_error;
    std::string message;
    Json data; // null: none
};

// A request, or a notification when there is no id at all. An id may be null (JSON-RPC
// allows it, and so does ACP): such a request is still answered, with null.
struct Request {
    std::optional<Json> id; // an integer, a string or null
    std::string method;     // never empty
    Json params;            // an object or an array; null when absent
    bool notification() const { return !id.has_value(); }
};

// The answer to a request this side sent: a result, or an error.
struct Response {
    Json id;
    Json result; // may be null ("nothing here")
    std::optional<Error> error;
    bool ok() const { return !error.has_value(); }
    // rio numbers its requests from 1: any other id answers nothing it sent.
    std::optional<std::int64_t> own_id() const;
};

// What is no usable message: the id to answer to (null unless the message carried a valid
// one), the spec's code, and why in words.
struct Invalid {
    Json id;
    int code = code::invalid_request;
    std::string why; // "jsonrpc must be \"2.0\"", "invalid JSON: …"
    // The error to answer with, in the spec's words: "Invalid request: jsonrpc must be …".
    Error error() const;
};

using Message = std::variant<Request, Response, Invalid>;

// One message. A batch is refused: none of the three protocols rio speaks sends one.
Message parse(std::string_view text);

Json request(const Json& id, std::string_view method, Json params); // null params left out
Json notification(std::string_view method, Json params = nullptr);
Json result(const Json& id, Json result);
Json error(const Json& id, const Error& error);

// A message as one line of compact JSON (without the newline); text that is not UTF-8 is
// replaced, never thrown at, since a server's or an editor's words pass through.
std::string dump(const Json& message);

} // namespace rio::jsonrpc
