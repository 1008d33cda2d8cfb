// How rio-cli reviews a plan (DESIGN §13): the plan's lines numbered for comments, the `c`
// command's line ("12-14 use argparse here", "-2"), the comments so far, and a revision's
// compact diff against the plan it revises (marked by client/plan_revision).
#pragma once

#include "client/plan_revision.hpp"
#include "protocol/messages.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

// "  1 │ # Title" …, each line made terminal-safe.
std::string numbered_lines(std::string_view text, bool color);

struct CommentCommand {
    enum class Kind { add, remove, back, invalid };
    Kind kind = Kind::invalid;
    PlanComment comment;   // add: quote = the lines' text, line and end_line, text
    std::size_t index = 0; // remove: 1-based
    std::string error;     // invalid: why, in words
};

// What a line typed after `c` asks for: "N text" or "N-M text" comments on lines N..M of
// `plan` (1-based), "-N" removes comment N of `count`, "" goes back. A leading "c " is
// allowed, so "c 12-14 use argparse here" reads as written in the manual.
CommentCommand read_comment_command(std::string_view line, std::string_view plan,
                                    std::size_t count);

// "Comments:\n  1. lines 12-14 «first line of the quote…» use argparse here\n" …; "" for none.
std::string comments_text(const std::vector<PlanComment>& comments, bool color);

// The plan's review threads (issue 44): "Review comments:\n  c1 answered · line 3 «quote…»
// text\n     model: reply\n" …, a detached one said so; every text made terminal-safe. ""
// for none.
std::string threads_text(const std::vector<ReviewComment>& threads, bool color);

struct ThreadCommand {
    enum class Kind { reply, resolve, back, invalid };
    Kind kind = Kind::invalid;
    std::string id;
    std::string text;  // reply: what the person says
    std::string error; // invalid: why, in words
};

// What a line typed after `t` asks for: "c1 text" replies to c1, "resolve c1" resolves it,
// "" goes back.
ThreadCommand read_thread_command(std::string_view line);

// "Changes since the previous plan:" and the compact rows: "+ " inserted (green), "- "
// removed (red), a changed line as its "- " and "+ " lines with the changed words
// underlined, one line of context ("  "), "  ⋯" where lines are left out. "" when nothing
// changed.
std::string revision_text(const std::vector<client::MarkedLine>& marks, bool color);

} // namespace rio
