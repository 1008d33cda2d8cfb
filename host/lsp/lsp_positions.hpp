// Positions between rio and a language server. LSP counts a position's character in UTF-16
// code units (the protocol's default encoding, the one every server speaks); rio counts bytes
// of UTF-8. Lines end at '\n' (a '\r' before it is not part of the line's text). A position
// past the end of its line or of the text is clamped there, and one that falls between the
// two halves of a surrogate pair is moved to the start of that character: a server's answer
// never puts an offset inside a character.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace rio {

struct LspPosition {
    std::int64_t line = 0;      // from 0
    std::int64_t character = 0; // UTF-16 code units from the start of the line
    friend bool operator==(const LspPosition&, const LspPosition&) = default;
};

// Where each line of a text starts, so many positions in one text convert without rescanning it.
class LineIndex {
public:
    explicit LineIndex(std::string_view text);

    std::size_t lines() const { return starts_.size(); }
    std::size_t line_start(std::size_t line) const { return starts_[line]; }
    // The line's text without its '\n' or "\r\n".
    std::string_view line_text(std::size_t line) const;
    std::size_t line_of(std::size_t offset) const; // the line the byte offset is on

    // The byte offset of `pos`, clamped into the text; `clamped` says whether it had to be.
    std::size_t offset(LspPosition pos, bool* clamped = nullptr) const;
    LspPosition position(std::size_t offset) const;

private:
    std::string_view text_;
    std::vector<std::size_t> starts_;
};

// UTF-16 code units in `utf8` (4-byte characters count 2).
std::int64_t utf16_length(std::string_view utf8);

// The byte offset within `line` of `units` UTF-16 code units, clamped to the line's end and
// moved back to a character's start when it splits a surrogate pair; `clamped` is set when
// it had to be (and left alone otherwise).
std::size_t utf16_to_byte(std::string_view line, std::int64_t units, bool* clamped = nullptr);

} // namespace rio
