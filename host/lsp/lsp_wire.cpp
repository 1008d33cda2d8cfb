#include "host/lsp/lsp_wire.hpp"

#include "host/http/sse.hpp"
#include "jsonrpc/json_rpc.hpp"

#include <charconv>
#include <optional>

namespace rio {
namespace {

using Json = nlohmann::json;

// A header block this long without its blank line is not LSP.
constexpr std::size_t max_header_block = 8 * 1024;

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string_view trim_spaces(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

std::string megabytes(std::size_t bytes) {
    return std::to_string((bytes + (std::size_t{1} << 20) - 1) >> 20) + " MiB";
}

} // namespace

bool LspFramer::feed(std::string_view bytes, std::vector<std::string>& bodies) {
    if (!error_.empty()) return false;
    pending_.append(bytes);
    // Messages are taken from `at` on and the rest moved down once: a flood of small
    // messages in one read costs one move, not one per message.
    std::size_t at = 0;
    bool ok = true;
    while (true) {
        if (!in_body_ && !take_header(at)) {
            ok = error_.empty();
            break;
        }
        if (pending_.size() - at < body_size_) break;
        bodies.push_back(pending_.substr(at, body_size_));
        at += body_size_;
        in_body_ = false;
    }
    pending_.erase(0, at);
    return ok;
}

// Reads one header block at `at`, moving past it; false while it is incomplete or broken.
bool LspFramer::take_header(std::size_t& at) {
    std::size_t end = pending_.find("\r\n\r\n", at);
    if (end == std::string::npos) {
        if (pending_.size() - at > max_header_block)
            error_ = "sent a header block without an end: " +
                     wire_excerpt(std::string_view(pending_).substr(at), 120);
        return false;
    }
    std::optional<std::size_t> length;
    std::string_view block(pending_.data() + at, end - at);
    while (!block.empty()) {
        std::size_t nl = block.find("\r\n");
        std::string_view line = block.substr(0, nl);
        block.remove_prefix(nl == std::string_view::npos ? block.size() : nl + 2);
        std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) {
            error_ = "sent a header line without a colon: " + wire_excerpt(line, 120);
            return false;
        }
        if (lower(trim_spaces(line.substr(0, colon))) != "content-length") continue;
        std::string_view value = trim_spaces(line.substr(colon + 1));
        std::size_t n = 0;
        auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (ec != std::errc() || ptr != value.data() + value.size()) {
            error_ = "sent a Content-Length that is not a number: " + wire_excerpt(value, 60);
            return false;
        }
        length = n;
    }
    if (!length) {
        error_ = "sent a message without a Content-Length header";
        return false;
    }
    if (*length > max_) {
        error_ = "sent a message of " + megabytes(*length) + ", more than the " + megabytes(max_) +
                 " rio accepts";
        return false;
    }
    at = end + 4;
    body_size_ = *length;
    in_body_ = true;
    return true;
}

std::string lsp_frame(const Json& message) {
    std::string body = jsonrpc::dump(message);
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

} // namespace rio
