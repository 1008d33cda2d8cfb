// Prose shown as it streams (the model's thinking), filled to the terminal's width by rio-cli
// itself: the terminal's own wrapping would split a word wherever the edge falls. A piece
// that ends inside a word is held until the word is complete.
#pragma once

#include <string>
#include <string_view>

namespace rio {

class WordStream {
public:
    explicit WordStream(int width) : width_(width < 1 ? 1 : width) {}

    // What may be printed now: the complete words of `text` and the spaces between them,
    // with a line break before a word that would not fit. Control characters are shown as
    // symbols (md::terminal_safe), never sent.
    std::string feed(std::string_view text);
    // The word held back; the caller ends the line after it, and the column starts at 0.
    std::string finish();

private:
    std::string place(std::string_view word); // a complete word, a line break first if needed

    int width_;
    int column_ = 0;
    int spaces_ = 0;   // spaces seen after the last word, printed before the next one
    std::string word_; // the incomplete word
};

} // namespace rio
