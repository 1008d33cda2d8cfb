// How a file's bytes become editable text and back, byte for byte: UTF-8 with or without a
// BOM; line endings are kept exactly as they are in the text (see docs/decisions/0002).
#pragma once

#include "core/error.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rio {

enum class Encoding { utf8, utf8_bom };
enum class Eol { none, lf, crlf, mixed };

std::string_view to_string(Encoding encoding);
std::string_view to_string(Eol eol);

struct DecodedText {
    std::string text; // the bytes after the BOM, unchanged
    Encoding encoding = Encoding::utf8;
};

// Offset of the first byte that is not part of well-formed UTF-8 (overlongs, surrogates and
// code points above U+10FFFF are ill-formed), or nullopt when the whole text is valid.
std::optional<std::size_t> find_invalid_utf8(std::string_view text);

// Text that must travel as UTF-8 (JSON, a model's context) from bytes that may not be:
// each maximal ill-formed subsequence becomes one U+FFFD.
std::string to_valid_utf8(std::string_view bytes);

bool is_char_boundary(std::string_view text, std::size_t offset);

// Refuses (ErrorCode::refused) bytes that rio cannot edit without rewriting them: invalid
// UTF-8 and NUL bytes (binary files). `name` appears in the message.
Result<DecodedText> decode_text(std::string_view bytes, std::string_view name);

std::string encode_text(std::string_view text, Encoding encoding);

Eol detect_eol(std::string_view text);

} // namespace rio
