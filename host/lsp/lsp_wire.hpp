// The Language Server Protocol's wire as rio's client reads and writes it: messages framed by
// a `Content-Length` header over a byte stream, each a JSON-RPC 2.0 object classified into a
// plain struct. Pure: host/lsp/lsp_server does the I/O. (Kate's lspclientserver and
// lspclientprotocol split the same way: bytes and JSON here, typed LSP values in
// lsp_protocol.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rio {

// Past this a message is refused and the server stopped: no answer rio asks for is near it.
inline constexpr std::size_t lsp_max_message = std::size_t{32} << 20;

// Splits a byte stream into message bodies. Headers other than Content-Length (such as
// Content-Type) are read and ignored; a header block without a usable length, or a length
// past the cap, is an error from which the stream cannot recover.
class LspFramer {
public:
    explicit LspFramer(std::size_t max_message = lsp_max_message) : max_(max_message) {}

    // Appends `bytes` and moves every complete body into `bodies`. False once the stream is
    // broken; error() then says why in words, and later calls do nothing.
    bool feed(std::string_view bytes, std::vector<std::string>& bodies);
    const std::string& error() const { return error_; }

private:
    bool take_header(std::size_t& at);

    std::size_t max_;
    std::string pending_;       // bytes not yet part of a complete message
    std::size_t body_size_ = 0; // of the message whose header was read, while waiting for it
    bool in_body_ = false;
    std::string error_;
};

// One message as it goes out: header and body.
std::string lsp_frame(const nlohmann::json& message);

struct LspResponse {
    std::int64_t id = 0;
    bool ok = true;
    nlohmann::json result; // ok: may be null ("nothing here")
    std::int64_t code = 0; // !ok: the JSON-RPC error
    std::string message;
};
struct LspServerRequest { // asked of the client: workspace/configuration, …
    nlohmann::json id;    // integer or string, echoed in the answer
    std::string method;
    nlohmann::json params;
};
struct LspNotification {
    std::string method;
    nlohmann::json params;
};
struct LspMalformed {
    std::string why; // in words, with an excerpt of what came
};
using LspMessage = std::variant<LspResponse, LspServerRequest, LspNotification, LspMalformed>;

// One body. A response whose id is not a whole number answers nothing rio sent (rio's ids
// are), and is malformed.
LspMessage parse_lsp_message(std::string_view body);

nlohmann::json lsp_request(std::int64_t id, std::string_view method, nlohmann::json params);
nlohmann::json lsp_notification(std::string_view method, nlohmann::json params);
nlohmann::json lsp_reply(const nlohmann::json& id, nlohmann::json result);
nlohmann::json lsp_error_reply(const nlohmann::json& id, int code, std::string message);

inline constexpr int lsp_method_not_found = -32601;
inline constexpr int lsp_request_cancelled = -32800;
inline constexpr int lsp_content_modified = -32801;

} // namespace rio
