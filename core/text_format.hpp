// How a file's bytes become editable text and back, byte for byte: UTF-8 with or without a
// BOM; line endings are kept exactly as they are in the text (see docs/decisions/0002).
#pragma once

#include "protocol/closed_sets.hpp"
#include "protocol/error.hpp"
#include "text/utf8.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rio {

// Encoding and Eol, with their names, are the protocol's (protocol/closed_sets.hpp).

struct DecodedText {
    std::string text; // the bytes after the BOM, unchanged
    Encoding encoding = Encoding::utf8;
};

// Refuses (ErrorCode::refused) bytes that rio cannot edit without rewriting them: invalid
// UTF-8 and NUL bytes (binary files). `name` appears in the message.
Result<DecodedText> decode_text(std::string_view bytes, std::string_view name);

std::string encode_text(std::string_view text, Encoding encoding);

Eol detect_eol(std::string_view text);

} // namespace rio
