#include "cli/table_layout.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace rio::md {

std::vector<int> shrink(const std::vector<int>& wanted, int target) {
    std::size_t count = wanted.size();
    std::vector<int> widths(count, 0);
    std::vector<bool> settled(count, false);
    int remaining = std::max(target, 0); // less than no room is no room: one column each
    std::size_t open = count;
    for (bool changed = true; changed && open > 0;) {
        changed = false;
        int share = remaining / static_cast<int>(open);
        for (std::size_t c = 0; c < count; ++c) {
            if (settled[c] || wanted[c] > share) continue;
            widths[c] = wanted[c];
            settled[c] = true;
            remaining -= wanted[c];
            --open;
            changed = true;
        }
    }
    std::int64_t open_total = 0;
    for (std::size_t c = 0; c < count; ++c)
        if (!settled[c]) open_total += wanted[c];
    int given = 0;
    for (std::size_t c = 0; c < count; ++c) {
        if (settled[c]) continue;
        widths[c] = std::max(1, static_cast<int>(remaining * std::int64_t{wanted[c]} / open_total));
        given += widths[c];
    }
    // Rounding: single columns to the widest open column first, or back from it.
    std::vector<std::size_t> order;
    for (std::size_t c = 0; c < count; ++c)
        if (!settled[c]) order.push_back(c);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return wanted[a] > wanted[b]; });
    for (std::size_t i = 0; given != remaining && !order.empty() && i < 4 * count; ++i) {
        std::size_t c = order[i % order.size()];
        if (given < remaining) {
            ++widths[c];
            ++given;
        } else if (widths[c] > 1) {
            --widths[c];
            --given;
        }
    }
    return widths;
}

std::vector<int> fit_columns(const std::vector<int>& natural, const std::vector<int>& longest_word,
                             int target) {
    std::size_t count = natural.size();
    int total = 0;
    std::vector<int> minimum(count);
    int minimum_total = 0;
    for (std::size_t c = 0; c < count; ++c) {
        total += natural[c];
        minimum[c] = std::min(natural[c], longest_word[c]);
        minimum_total += minimum[c];
    }
    if (total <= target) return natural;
    if (minimum_total > target) return shrink(minimum, target);
    std::vector<int> widths = minimum;
    int extra = target - minimum_total;
    std::int64_t wanting = total - minimum_total;
    int given = 0;
    for (std::size_t c = 0; c < count; ++c) {
        int more = static_cast<int>(extra * std::int64_t{natural[c] - minimum[c]} / wanting);
        widths[c] += more;
        given += more;
    }
    for (std::size_t c = 0; given < extra; c = (c + 1) % count) {
        if (widths[c] < natural[c]) {
            ++widths[c];
            ++given;
        }
    }
    return widths;
}

Line aligned(const Line& content, int width, Align align) {
    int pad = std::max(0, width - width_of(content));
    int left = align == Align::right ? pad : align == Align::center ? pad / 2 : 0;
    Line line;
    append(line, std::string(static_cast<std::size_t>(left), ' '), plain);
    append(line, content);
    append(line, std::string(static_cast<std::size_t>(pad - left), ' '), plain);
    return line;
}

} // namespace rio::md
