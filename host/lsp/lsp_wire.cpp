#include "host/lsp/lsp_wire.hpp"

#include "host/http/sse.hpp"
#include "protocol/json_parse.hpp"

#include <charconv>

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

std::string text_field(const Json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
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
    std::string body = message.dump(-1, ' ', false, Json::error_handler_t::replace);
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

LspMessage parse_lsp_message(std::string_view body) {
    auto parsed = parse_json(body);
    if (!parsed) return LspMalformed{parsed.error().message + ": " + wire_excerpt(body, 120)};
    const Json& m = *parsed;
    if (!m.is_object() || m.value("jsonrpc", Json()) != "2.0")
        return LspMalformed{"not a JSON-RPC 2.0 message: " + wire_excerpt(body, 120)};
    if (auto method = m.find("method"); method != m.end()) {
        if (!method->is_string())
            return LspMalformed{"a method that is not a string: " + wire_excerpt(body, 120)};
        Json params = m.value("params", Json());
        if (m.contains("id")) return LspServerRequest{m["id"], method->get<std::string>(), params};
        return LspNotification{method->get<std::string>(), params};
    }
    LspResponse response;
    // rio's ids are whole numbers from 1: any other answers nothing it sent.
    auto id = m.find("id");
    response.id = id != m.end() && id->is_number_integer() ? id->get<std::int64_t>() : -1;
    if (auto result = m.find("result"); result != m.end()) {
        response.result = *result;
        return response;
    }
    auto error = m.find("error");
    if (error == m.end() || !error->is_object())
        return LspMalformed{"a response with neither result nor error: " + wire_excerpt(body, 120)};
    response.ok = false;
    auto code = error->find("code");
    response.code =
        code != error->end() && code->is_number_integer() ? code->get<std::int64_t>() : 0;
    response.message = text_field(*error, "message");
    return response;
}

Json lsp_request(std::int64_t id, std::string_view method, Json params) {
    Json m{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (!params.is_null()) m["params"] = std::move(params);
    return m;
}

Json lsp_notification(std::string_view method, Json params) {
    Json m{{"jsonrpc", "2.0"}, {"method", method}};
    if (!params.is_null()) m["params"] = std::move(params);
    return m;
}

Json lsp_reply(const Json& id, Json result) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json lsp_error_reply(const Json& id, int code, std::string message) {
    return {{"jsonrpc", "2.0"},
            {"id", id},
            {"error", {{"code", code}, {"message", std::move(message)}}}};
}

} // namespace rio
