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

bool all_ascii(std::string_view bytes) {
    unsigned char any = 0;
    for (unsigned char c : bytes)
        any |= c;
    return any < 0x80;
}

// Puts `with` where [from, to) of `v` was, moving the rest only when the counts differ.
template <typename T>
void splice(std::vector<T>& v, std::size_t from, std::size_t to, const std::vector<T>& with) {
    std::size_t kept = std::min(to - from, with.size());
    std::copy(with.begin(), with.begin() + static_cast<std::ptrdiff_t>(kept),
              v.begin() + static_cast<std::ptrdiff_t>(from));
    auto at = v.begin() + static_cast<std::ptrdiff_t>(from + kept);
    if (with.size() > kept)
        v.insert(at, with.begin() + static_cast<std::ptrdiff_t>(kept), with.end());
    else
        v.erase(at, v.begin() + static_cast<std::ptrdiff_t>(to));
}

} // namespace

LineTable::LineTable(std::string_view text) {
    starts_.push_back(0);
    for (std::size_t at = text.find('\n'); at != std::string_view::npos;
         at = text.find('\n', at + 1))
        starts_.push_back(at + 1);
    ascii_.resize(starts_.size());
    for (std::size_t line = 0; line < starts_.size(); ++line)
        scan_ascii(text, line);
}

std::size_t LineTable::line_of(std::size_t offset) const {
    std::size_t low = 0, high = starts_.size(); // line_start(low) <= offset < line_start(high)
    while (high - low > 1) {
        std::size_t mid = low + (high - low) / 2;
        if (line_start(mid) <= offset)
            low = mid;
        else
            high = mid;
    }
    return low;
}

// Afterwards the lines up to `line` hold their real starts and those after it lack `shift_`.
// Costs the lines between the old step and the new, or those after the old step when that is
// fewer (they take the shift, which is then none).
void LineTable::move_step(std::size_t line) {
    const std::size_t last = starts_.size() - 1;
    if (step_ >= last || shift_ == 0) {
        step_ = line;
        shift_ = 0;
        return;
    }
    if (line > step_) {
        for (std::size_t i = step_ + 1; i <= std::min(line, last); ++i)
            starts_[i] += shift_;
    } else if (last - step_ < step_ - line) {
        for (std::size_t i = step_ + 1; i <= last; ++i)
            starts_[i] += shift_;
        shift_ = 0;
    } else {
        for (std::size_t i = line + 1; i <= step_; ++i)
            starts_[i] -= shift_;
    }
    step_ = line;
}

void LineTable::scan_ascii(std::string_view text, std::size_t line) {
    std::size_t start = line_start(line);
    std::size_t end = line + 1 < starts_.size() ? line_start(line + 1) : text.size();
    ascii_[line] = all_ascii(text.substr(start, end - start));
}

void LineTable::edit(std::string_view text, std::size_t start, std::size_t end,
                     std::size_t inserted) {
    const std::size_t first = line_of(start);
    const std::size_t last = line_of(end);
    const bool was_ascii = ascii_[first] && ascii_[last];
    move_step(first);
    // The lines that started inside [start, end) go; those the inserted bytes begin come.
    const std::size_t shift = shift_ + inserted - (end - start);
    std::vector<std::size_t> added;
    for (std::size_t at = text.find('\n', start);
         at != std::string_view::npos && at < start + inserted; at = text.find('\n', at + 1))
        added.push_back(at + 1 - shift); // stored as every later line's start: without the shift
    splice(starts_, first + 1, last + 1, added);
    splice(ascii_, first + 1, last + 1, std::vector<std::uint8_t>(added.size(), 1));
    shift_ = shift;
    // The lines the edit touched: all ASCII when they were and the inserted bytes are.
    if (was_ascii && all_ascii(text.substr(start, inserted))) {
        ascii_[first] = 1;
        return;
    }
    for (std::size_t line = first; line <= first + added.size(); ++line)
        scan_ascii(text, line);
}

LineIndex::LineIndex(std::string_view text) : text_(text), own_(LineTable(text)), table_(&*own_) {}

LineIndex::LineIndex(std::string_view text, const LineTable& table) : text_(text), table_(&table) {}

std::string_view LineIndex::line_text(std::size_t line) const {
    std::size_t start = line_start(line);
    bool last = line + 1 >= lines();
    std::size_t end = last ? text_.size() : line_start(line + 1) - 1;
    if (end > start && text_[end - 1] == '\r' && !last) --end;
    return text_.substr(start, end - start);
}

std::size_t LineIndex::offset(LspPosition pos, bool* clamped) const {
    if (clamped) *clamped = false;
    if (pos.line < 0 || pos.character < 0) {
        if (clamped) *clamped = true;
        if (pos.line < 0) return 0;
        pos.character = 0;
    }
    if (static_cast<std::uint64_t>(pos.line) >= lines()) {
        if (clamped) *clamped = true;
        return text_.size();
    }
    auto line = static_cast<std::size_t>(pos.line);
    std::string_view text = line_text(line);
    if (!table_->ascii(line)) return line_start(line) + utf16_to_byte(text, pos.character, clamped);
    if (static_cast<std::uint64_t>(pos.character) <= text.size())
        return line_start(line) + static_cast<std::size_t>(pos.character);
    if (clamped) *clamped = true;
    return line_start(line) + text.size();
}

LspPosition LineIndex::position(std::size_t offset) const {
    offset = std::min(offset, text_.size());
    std::size_t line = line_of(offset);
    std::size_t start = line_start(line);
    std::int64_t character = table_->ascii(line)
                                 ? static_cast<std::int64_t>(offset - start)
                                 : utf16_length(text_.substr(start, offset - start));
    return {static_cast<std::int64_t>(line), character};
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
