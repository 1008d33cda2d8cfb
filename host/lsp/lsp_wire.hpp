// The Language Server Protocol's framing: messages behind a `Content-Length` header over a
// byte stream. The messages themselves are JSON-RPC 2.0 (jsonrpc/json_rpc), the values in
// them LSP's (lsp_protocol). Pure: host/lsp/lsp_server does the I/O.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
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

} // namespace rio
