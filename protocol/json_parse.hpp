// JSON from outside the process — a client's line, a provider's stream, a file someone else
// wrote — parsed without ever throwing. Nesting is bounded because nlohmann copies and
// compares values recursively: a 100k-deep array parses fine and then overflows the stack
// the first time it is copied.
#pragma once

#include "protocol/error.hpp"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace rio {

inline constexpr std::size_t max_json_depth = 256;

struct JsonParseOptions {
    std::size_t max_depth = max_json_depth;
    // JSONC (protocol/jsonc.hpp): `//` and `/* */` comments and trailing commas, for the
    // settings files people write by hand.
    bool jsonc = false;
};

// The value, or bad_request with a message fit for a person ("invalid JSON: ...", "JSON
// nested deeper than 256 levels"); callers prefix where the text came from and may pick
// another code (a provider's garbage is bad_response).
Result<nlohmann::json> parse_json(std::string_view text, JsonParseOptions options = {});

// Why parse_json refused `text` when that is worth saying next to an excerpt of it: the
// depth limit, or "" for text that is simply not JSON (the excerpt shows that).
std::string refusal_note(const Error& error);

// A nlohmann message without its "[json.exception.parse_error.101] " tag.
std::string json_error_text(const nlohmann::json::exception& e);

} // namespace rio
