#include "host/search/unicode_regex.hpp"

#include <re2/re2.h>

namespace rio {
namespace {

// rg's (Rust regex's) Unicode Perl classes, as near as RE2's properties come: \w is
// Alphabetic (letters and letter numbers here), marks, decimal digits, connector punctuation
// and the joiners; \s is the White_Space property.
constexpr std::string_view word_chars = R"(\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\x{200C}\x{200D})";
constexpr std::string_view digit_chars = R"(\p{Nd})";
constexpr std::string_view space_chars = R"(\t\n\x{0B}\f\r\x{85}\p{Z})";

std::string_view class_of(char escape) {
    switch (escape) {
    case 'w':
    case 'W':
        return word_chars;
    case 'd':
    case 'D':
        return digit_chars;
    default:
        return space_chars;
    }
}

bool is_ascii_word(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// The character that starts at `begin` (and ends before `end`) is a word character.
bool word_char_at(std::string_view text, std::size_t begin, std::size_t end) {
    if (begin >= end) return false;
    auto first = static_cast<unsigned char>(text[begin]);
    if (first < 0x80) return is_ascii_word(first);
    static const RE2 word("[" + std::string(word_chars) + "]");
    return word.Match(re2::StringPiece(text.data(), text.size()), begin, end, RE2::ANCHOR_START,
                      nullptr, 0);
}

} // namespace

UnicodeRegex unicode_regex(std::string_view p) {
    UnicodeRegex out;
    std::string& o = out.pattern;
    bool in_class = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        char c = p[i];
        if (in_class) {
            if (c == '[' && p.substr(i, 2) == "[:") { // [:alpha:] as it is
                std::size_t close = p.find(":]", i + 2);
                std::size_t stop = close == std::string_view::npos ? p.size() : close + 2;
                o.append(p.substr(i, stop - i));
                i = stop - 1;
                continue;
            }
            if (c == ']') in_class = false;
            if (c != '\\' || i + 1 == p.size()) {
                o += c;
                continue;
            }
            char e = p[++i];
            if (e == 'w' || e == 'd' || e == 's')
                o.append(class_of(e));
            else
                o.append({'\\', e});
            continue;
        }
        if (c == '[') {
            in_class = true;
            o += c;
            // A ']' first in the class (after a '^') is one of its characters.
            if (i + 1 < p.size() && p[i + 1] == '^') o += p[++i];
            if (i + 1 < p.size() && p[i + 1] == ']') o += p[++i];
            continue;
        }
        if (c != '\\' || i + 1 == p.size()) {
            o += c;
            continue;
        }
        char e = p[++i];
        switch (e) {
        case 'Q': { // quoted text, up to \E
            std::size_t close = p.find("\\E", i + 1);
            std::size_t stop = close == std::string_view::npos ? p.size() : close + 2;
            o.append("\\Q").append(p.substr(i + 1, stop - i - 1));
            i = stop - 1;
            break;
        }
        case 'w':
        case 'd':
        case 's':
            o.append("[").append(class_of(e)).append("]");
            break;
        case 'W':
        case 'D':
        case 'S':
            o.append("[^").append(class_of(e)).append("]");
            break;
        case 'b':
        case 'B': {
            auto& names = e == 'b' ? out.word_boundaries : out.not_word_boundaries;
            std::string name = std::string("rio_") + e + std::to_string(names.size());
            o.append("(?P<").append(name).append(">)");
            names.push_back(std::move(name));
            break;
        }
        default:
            o.append({'\\', e});
        }
    }
    return out;
}

bool is_word_boundary(std::string_view text, std::size_t offset) {
    std::size_t before = offset;
    // Back to the first byte of the character before `offset` (at most 3 continuation bytes).
    for (int step = 0; step < 4 && before > 0; ++step) {
        --before;
        if ((static_cast<unsigned char>(text[before]) & 0xC0) != 0x80) break;
    }
    bool word_before = before < offset && word_char_at(text, before, offset);
    bool word_after = word_char_at(text, offset, std::min(text.size(), offset + 4));
    return word_before != word_after;
}

} // namespace rio
