#include "protocol/json_parse.hpp"

#include "protocol/jsonc.hpp"

#include <cstring>

namespace rio {
namespace {

constexpr std::string_view deeper_than = "JSON nested deeper than ";

// One pass over the bytes, skipping strings, before nlohmann builds anything. Brackets
// inside comments count too, which can only refuse text, never admit a deep value.
bool nested_deeper_than(std::string_view text, std::size_t max_depth) {
    std::size_t depth = 0;
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
        char c = *p++;
        if (c == '"') {
            while (p < end && *p != '"')
                p += *p == '\\' ? 2 : 1;
            ++p;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth) return true;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return false;
}

} // namespace

std::string json_error_text(const nlohmann::json::exception& e) {
    std::string_view what = e.what();
    if (auto end = what.find("] ");
        !what.empty() && what.front() == '[' && end != std::string_view::npos)
        what.remove_prefix(end + 2);
    return std::string(what);
}

std::string refusal_note(const Error& error) {
    return error.message.starts_with(deeper_than) ? " (" + error.message + ")" : std::string();
}

Result<nlohmann::json> parse_json(std::string_view text, JsonParseOptions options) {
    std::string plain;
    if (options.jsonc) {
        auto converted = jsonc_to_json(text);
        if (!converted) return converted.error();
        plain = std::move(*converted);
        text = plain;
    }
    // nlohmann's lexer takes a NUL byte for the end of its input and parses what came before
    // it: `{"op":"project.info"}\0{junk` would pass. A NUL is never part of JSON text.
    if (const void* nul = text.empty() ? nullptr : std::memchr(text.data(), '\0', text.size()))
        return make_error(ErrorCode::bad_request,
                          "invalid JSON: a NUL byte at byte " +
                              std::to_string(static_cast<const char*>(nul) - text.data()) +
                              " (JSON text never holds one)");
    if (nested_deeper_than(text, options.max_depth))
        return make_error(ErrorCode::bad_request,
                          std::string(deeper_than) + std::to_string(options.max_depth) + " levels");
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        // parse_error, and out_of_range for a number like 1E400 that overflows a double.
        return make_error(ErrorCode::bad_request, "invalid JSON: " + json_error_text(e));
    }
}

} // namespace rio
