// Positions between rio and a language server. LSP counts a position's character in UTF-16
// code units (the protocol's default encoding, the one every server speaks); rio counts bytes
// of UTF-8. Lines end at '\n' (a '\r' before it is not part of the line's text). A position
// past the end of its line or of the text is clamped there, and one that falls between the
// two halves of a surrogate pair is moved to the start of that character: a server's answer
// never puts an offset inside a character.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace rio {

struct LspPosition {
    std::int64_t line = 0;      // from 0
    std::int64_t character = 0; // UTF-16 code units from the start of the line
    friend bool operator==(const LspPosition&, const LspPosition&) = default;
};

// Where each line of a text starts and whether it is all ASCII (its UTF-16 columns are then
// its byte columns), kept in step with the text's edits. An edit costs the lines it touches
// (scanned for ASCII) and moving a pending shift: the starts after one line are stored
// without the bytes inserted before them, as Scintilla's Partitioning does, so typing in one
// place does not rewrite every later line's start. Finding an offset's line is a binary
// search.
class LineTable {
public:
    LineTable() : LineTable(std::string_view()) {}
    explicit LineTable(std::string_view text);

    // `text` is the text after the bytes [start, end) of the one this table was in step with
    // were replaced by `inserted` bytes.
    void edit(std::string_view text, std::size_t start, std::size_t end, std::size_t inserted);

    std::size_t lines() const { return starts_.size(); }
    std::size_t line_start(std::size_t line) const {
        return line > step_ ? starts_[line] + shift_ : starts_[line];
    }
    bool ascii(std::size_t line) const { return ascii_[line] != 0; }
    std::size_t line_of(std::size_t offset) const; // the line the byte offset is on

private:
    void move_step(std::size_t line);
    void scan_ascii(std::string_view text, std::size_t line);

    std::vector<std::size_t> starts_;
    std::vector<std::uint8_t> ascii_;
    std::size_t step_ = 0;  // the starts of lines after this one lack `shift_`
    std::size_t shift_ = 0; // bytes, modulo 2^64 (a net deletion wraps; the sum is right)
};

// A text and its lines, to convert positions. Builds its own table, or reads one kept in
// step with the text (a document's): then a conversion costs a binary search and, on a line
// that is not all ASCII, a pass over that line.
class LineIndex {
public:
    explicit LineIndex(std::string_view text);
    LineIndex(std::string_view text, const LineTable& table);
    LineIndex(const LineIndex&) = delete;
    LineIndex& operator=(const LineIndex&) = delete;

    std::string_view text() const { return text_; }
    std::size_t lines() const { return table_->lines(); }
    std::size_t line_start(std::size_t line) const { return table_->line_start(line); }
    // The line's text without its '\n' or "\r\n".
    std::string_view line_text(std::size_t line) const;
    std::size_t line_of(std::size_t offset) const { return table_->line_of(offset); }

    // The byte offset of `pos`, clamped into the text; `clamped` says whether it had to be.
    std::size_t offset(LspPosition pos, bool* clamped = nullptr) const;
    LspPosition position(std::size_t offset) const;

private:
    std::string_view text_;
    std::optional<LineTable> own_;
    const LineTable* table_;
};

// UTF-16 code units in `utf8` (4-byte characters count 2).
std::int64_t utf16_length(std::string_view utf8);

// The byte offset within `line` of `units` UTF-16 code units, clamped to the line's end and
// moved back to a character's start when it splits a surrogate pair; `clamped` is set when
// it had to be (and left alone otherwise).
std::size_t utf16_to_byte(std::string_view line, std::int64_t units, bool* clamped = nullptr);

} // namespace rio
