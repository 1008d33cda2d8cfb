#include "core/word_diff.hpp"

#include "core/diff.hpp"

namespace rio {
namespace {

enum class Class { word, space, other };

Class class_of(unsigned char c) {
    if (c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        c == '_')
        return Class::word;
    if (c == ' ' || c == '\t' || c == '\r') return Class::space;
    return Class::other;
}

std::vector<std::string_view> words_of(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t at = 0;
    while (at < line.size()) {
        Class c = class_of(static_cast<unsigned char>(line[at]));
        std::size_t end = at + 1;
        if (c != Class::other)
            while (end < line.size() && class_of(static_cast<unsigned char>(line[end])) == c)
                ++end;
        out.push_back(line.substr(at, end - at));
        at = end;
    }
    return out;
}

// Byte offsets of each word's start, plus the line's end.
std::vector<std::size_t> starts_of(const std::vector<std::string_view>& words,
                                   std::string_view line) {
    std::vector<std::size_t> out;
    for (std::string_view w : words)
        out.push_back(static_cast<std::size_t>(w.data() - line.data()));
    out.push_back(line.size());
    return out;
}

void add(std::vector<ByteRange>& ranges, std::size_t start, std::size_t end) {
    if (start == end) return;
    if (!ranges.empty() && ranges.back().end == start)
        ranges.back().end = end;
    else
        ranges.push_back({start, end});
}

} // namespace

WordChanges diff_words(std::string_view a, std::string_view b, std::size_t max_cost) {
    auto a_words = words_of(a), b_words = words_of(b);
    auto a_at = starts_of(a_words, a), b_at = starts_of(b_words, b);
    WordChanges out;
    DiffOptions options;
    options.max_cost = max_cost;
    for (const DiffHunk& h : diff_lines(a_words, b_words, options).hunks) {
        add(out.removed, a_at[h.a_start], a_at[h.a_start + h.a_count]);
        add(out.added, b_at[h.b_start], b_at[h.b_start + h.b_count]);
    }
    return out;
}

} // namespace rio
