#include "cli/unicode_width.hpp"

#include "text/utf8.hpp"

#include <algorithm>
#include <iterator>

namespace rio::md {
namespace {

struct Range {
    char32_t first;
    char32_t last;
};

#include "cli/unicode_width_tables.inc"

// The lookup is a binary search: a hand edit that unsorted a table would fail quietly.
template <std::size_t N> constexpr bool sorted_and_disjoint(const Range (&table)[N]) {
    for (std::size_t i = 0; i < N; ++i) {
        if (table[i].first > table[i].last) return false;
        if (i > 0 && table[i - 1].last >= table[i].first) return false;
    }
    return true;
}
static_assert(sorted_and_disjoint(zero_width));
static_assert(sorted_and_disjoint(wide));

bool in(const Range* begin, const Range* end, char32_t cp) {
    const Range* r = std::upper_bound(
        begin, end, cp, [](char32_t c, const Range& range) { return c < range.first; });
    return r != begin && cp <= (r - 1)->last;
}

} // namespace

int code_point_width(char32_t cp) {
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) return 0;
    if (cp < 0x300) return 1;
    if (in(std::begin(zero_width), std::end(zero_width), cp)) return 0;
    if (in(std::begin(wide), std::end(wide), cp)) return 2;
    return 1;
}

std::size_t skip_escape(std::string_view s, std::size_t at) {
    std::size_t i = at + 1;
    if (i >= s.size()) return i;
    char kind = s[i++];
    if (kind == '[') {
        while (i < s.size() && !(s[i] >= 0x40 && s[i] <= 0x7E))
            ++i;
        return std::min(i + 1, s.size());
    }
    if (kind == ']' || kind == 'P' || kind == 'X' || kind == '^' || kind == '_') {
        while (i < s.size()) {
            if (s[i] == '\a') return i + 1;
            if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '\\') return i + 2;
            ++i;
        }
        return i;
    }
    return i;
}

int display_width(std::string_view text) {
    int width = 0;
    for (std::size_t at = 0; at < text.size();) {
        if (text[at] == '\x1b') {
            at = skip_escape(text, at);
            continue;
        }
        DecodedChar d = decode_utf8(text, at);
        width += d.valid ? code_point_width(d.cp) : 1;
        at += d.length;
    }
    return width;
}

} // namespace rio::md
