#include "cli/word_stream.hpp"

#include "cli/terminal_safe.hpp"
#include "cli/unicode_width.hpp"
#include "text/utf8.hpp"

namespace rio {

std::string WordStream::place(std::string_view word) {
    std::string out;
    std::string safe = md::terminal_safe(word, md::Whitespace::inline_text);
    int w = md::display_width(safe);
    if (column_ > 0 && column_ + spaces_ + w > width_) {
        out += '\n';
        column_ = 0;
    } else if (column_ > 0) {
        out.append(static_cast<std::size_t>(spaces_), ' ');
        column_ += spaces_;
    }
    spaces_ = 0;
    // A word wider than the line goes on at character boundaries.
    for (std::size_t at = 0; at < safe.size();) {
        DecodedChar d = decode_utf8(safe, at);
        int cw = md::code_point_width(d.cp);
        if (column_ > 0 && column_ + cw > width_) {
            out += '\n';
            column_ = 0;
        }
        out.append(safe, at, d.length);
        column_ += cw;
        at += d.length;
    }
    return out;
}

std::string WordStream::feed(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\n') {
            if (!word_.empty()) out += place(word_);
            word_.clear();
            if (c == '\n') {
                out += '\n';
                column_ = spaces_ = 0;
            } else if (column_ > 0) {
                spaces_ = c == '\t' ? spaces_ + 4 : spaces_ + 1;
            }
            continue;
        }
        if (c != '\r') word_ += c;
    }
    return out;
}

std::string WordStream::finish() {
    std::string out = word_.empty() ? std::string() : place(word_);
    word_.clear();
    column_ = spaces_ = 0;
    return out;
}

} // namespace rio
