#include "cli/pick_list.hpp"

#include "cli/terminal.hpp"
#include "cli/terminal_safe.hpp"

#include <charconv>

namespace rio {

std::string pick_list_text(const std::vector<PickEntry>& entries, bool color) {
    std::size_t digits = std::to_string(entries.size()).size();
    std::string out;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        std::string number = std::to_string(i + 1);
        out += std::string(digits - number.size(), ' ') + styled(number + ".", sgr::bold, color) +
               " " + shown(entries[i].label);
        if (!entries[i].detail.empty())
            out += "  " + styled(shown(entries[i].detail), sgr::dim, color);
        out += '\n';
    }
    return out;
}

PickAnswer read_pick(std::string_view answer, std::size_t count) {
    while (!answer.empty() && (answer.front() == ' ' || answer.front() == '\t'))
        answer.remove_prefix(1);
    while (!answer.empty() && (answer.back() == ' ' || answer.back() == '\t'))
        answer.remove_suffix(1);
    if (answer.empty()) return {};
    std::size_t number = 0;
    auto [end, ec] = std::from_chars(answer.data(), answer.data() + answer.size(), number);
    if (ec != std::errc() || end != answer.data() + answer.size())
        return {std::nullopt, "type a number from the list, or Enter for none"};
    if (number < 1 || number > count)
        return {std::nullopt,
                "there is no " + std::string(answer) + " (1 to " + std::to_string(count) + ")"};
    return {number - 1, ""};
}

} // namespace rio
