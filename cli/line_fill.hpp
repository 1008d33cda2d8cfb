// Filling lines of a given display width with a paragraph's text: where lines may break
// (spaces, and between CJK characters, which have none), greedy filling, and code lines,
// which are wrapped at any character with a mark on each continuation.
#pragma once

#include "cli/styled_line.hpp"
#include "text/markdown.hpp"

#include <string>
#include <vector>

namespace rio::md {

// A paragraph as words (runs without whitespace between them: "**a**b" is one word),
// spaces and joints (where a line may break, with or without a space) and hard breaks.
struct Token {
    enum Kind { word, space, joint, newline } kind;
    Line runs;
};

// Whether a line may break between two characters of one word: next to a wide character,
// except before closing punctuation or small kana and after opening punctuation (UAX #14,
// roughly).
bool breaks_between(char32_t before, char32_t after);

// The tokens of inline Markdown in `style` (plus each span's own), its text made terminal
// safe. A link shows its destination unless its text already does; an image, its alt text
// and source.
std::vector<Token> flow_of(const std::vector<Span>& spans, unsigned style);

// Greedy filling by display width. A word wider than the line is cut between characters
// (never inside one; a combining mark stays with its base).
std::vector<Line> wrap(const std::vector<Token>& tokens, int width);

// A code line wider than `width` is split at characters (never inside one; a combining mark
// stays with its base) into pieces: the first `width` columns wide, each continuation
// `width` minus the mark's columns, for the caller to start with `code_continuation` — so
// that a wrapped line never reads as two, and nothing of it is lost to a cut.
inline constexpr std::string_view code_continuation = "\u21AA "; // ↪
inline constexpr int code_continuation_width = 2;
std::vector<std::string> code_pieces(std::string_view text, int width);

// A key hint ("[y] run  [w] with the network  [n] reject") as lines no wider than `width`,
// broken only between options (at their two spaces), never inside "[r]" or a word (issue
// 46). An option wider than the line stands on a line of its own.
std::vector<std::string> option_lines(std::string_view options, int width);

} // namespace rio::md
