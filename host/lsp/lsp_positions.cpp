#include "host/lsp/lsp_positions.hpp"

#include <algorithm>

namespace rio {
namespace {

// Bytes of the UTF-8 character that starts with `lead` (1 for a stray continuation byte).
std::size_t sequence_length(unsigned char lead) {
    if (lead < 0xC0) return 1;
    if (lead < 0xE0) return 2;
    if (lead < 0xF0) return 3;
    return 4;
}

} // namespace

LineIndex::LineIndex(std::string_view text) : text_(text) {
    starts_.push_back(0);
    for (std::size_t at = text.find('\n'); at != std::string_view::npos;
         at = text.find('\n', at + 1))
        starts_.push_back(at + 1);
}

std::string_view LineIndex::line_text(std::size_t line) const {
    std::size_t start = starts_[line];
    std::size_t end = line + 1 < starts_.size() ? starts_[line + 1] - 1 : text_.size();
    if (end > start && text_[end - 1] == '\r' && line + 1 < starts_.size()) --end;
    return text_.substr(start, end - start);
}

std::size_t LineIndex::line_of(std::size_t offset) const {
    auto after = std::upper_bound(starts_.begin(), starts_.end(), offset);
    return static_cast<std::size_t>(after - starts_.begin()) - 1;
}

std::size_t LineIndex::offset(LspPosition pos, bool* clamped) const {
    if (clamped) *clamped = false;
    if (pos.line < 0 || pos.character < 0) {
        if (clamped) *clamped = true;
        if (pos.line < 0) return 0;
        pos.character = 0;
    }
    if (static_cast<std::uint64_t>(pos.line) >= starts_.size()) {
        if (clamped) *clamped = true;
        return text_.size();
    }
    auto line = static_cast<std::size_t>(pos.line);
    return starts_[line] + utf16_to_byte(line_text(line), pos.character, clamped);
}

LspPosition LineIndex::position(std::size_t offset) const {
    offset = std::min(offset, text_.size());
    std::size_t line = line_of(offset);
    std::string_view before = text_.substr(starts_[line], offset - starts_[line]);
    return {static_cast<std::int64_t>(line), utf16_length(before)};
}

std::int64_t utf16_length(std::string_view utf8) {
    std::int64_t units = 0;
    for (unsigned char c : utf8) {
        if ((c & 0xC0) != 0x80) ++units; // a character starts: one unit
        if (c >= 0xF0) ++units;          // beyond the BMP: a surrogate pair
    }
    return units;
}

std::size_t utf16_to_byte(std::string_view line, std::int64_t units, bool* clamped) {
    std::size_t at = 0;
    while (units > 0 && at < line.size()) {
        std::size_t n = sequence_length(static_cast<unsigned char>(line[at]));
        std::int64_t width = n == 4 ? 2 : 1;
        if (units < width) { // inside a surrogate pair: the character's start
            if (clamped) *clamped = true;
            return at;
        }
        units -= width;
        at = std::min(at + n, line.size());
    }
    if (units > 0 && clamped) *clamped = true;
    return at;
}

} // namespace rio
