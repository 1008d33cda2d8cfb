// A numbered list to choose one entry from by typing its number: rio-cli's /plans (and any
// list a command offers — sessions, MCP servers). The text and the reading of an answer;
// the session asks the question.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

struct PickEntry {
    std::string label;  // what the entry is ("Friendlier greeting")
    std::string detail; // shown dim after it ("approved · .rio/plans/…"), may be empty
};

// " 1. label  detail" lines, numbers right-aligned, each line ending in '\n'.
std::string pick_list_text(const std::vector<PickEntry>& entries, bool color);

struct PickAnswer {
    std::optional<std::size_t> index; // 0-based, when the answer named an entry
    std::string problem;              // why it did not ("" for an empty answer: none picked)
};

// "3" picks the third of `count`; "" picks none; anything else says what was wrong.
PickAnswer read_pick(std::string_view answer, std::size_t count);

} // namespace rio
