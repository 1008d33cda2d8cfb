// UTF-8 as rio checks and repairs it: well-formedness (RFC 3629), replacement of what is
// not, and character boundaries. Shared by the core (file decoding) and every painter.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rio {

// Offset of the first byte that is not part of well-formed UTF-8 (overlongs, surrogates and
// code points above U+10FFFF are ill-formed), or nullopt when the whole text is valid.
std::optional<std::size_t> find_invalid_utf8(std::string_view text);

// Text that must travel as UTF-8 (JSON, a model's context) from bytes that may not be:
// each maximal ill-formed subsequence becomes one U+FFFD.
std::string to_valid_utf8(std::string_view bytes);

bool is_char_boundary(std::string_view text, std::size_t offset);

// One code point of UTF-8 text, decoded by the same rules as find_invalid_utf8. Not UTF-8 (a
// stray byte, a truncated, overlong or surrogate sequence): U+FFFD for one byte, `valid`
// false, so that callers step past it bytewise.
struct DecodedChar {
    char32_t cp;
    std::size_t length; // bytes
    bool valid;
};

// `at` < text.size().
DecodedChar decode_utf8(std::string_view text, std::size_t at);

// The code point at `at`, and `at` advanced past it (one byte for what is not UTF-8).
char32_t next_code_point(std::string_view text, std::size_t& at);

// `cp` (at most U+10FFFF) appended as UTF-8.
void append_utf8(std::string& out, char32_t cp);

} // namespace rio
