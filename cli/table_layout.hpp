// How wide a boxed table's columns are, and where a cell's text sits in its column.
#pragma once

#include "cli/styled_line.hpp"
#include "text/markdown.hpp"

#include <vector>

namespace rio::md {

// `wanted` widths shrunk to add up to `target`: columns narrower than an equal share keep
// their width, the wide ones share the rest in proportion to theirs. A shrunk column keeps
// at least one, so a `target` below one per column is exceeded.
std::vector<int> shrink(const std::vector<int>& wanted, int target);

// Column widths for `target` columns of content, the way browsers lay out tables: every
// column as wide as its longest word if that fits, the rest handed out in proportion to
// how much more each would take; if even the words do not fit, shrink to fit and cut them.
// `natural`: each column's widest unwrapped cell.
std::vector<int> fit_columns(const std::vector<int>& natural, const std::vector<int>& longest_word,
                             int target);

// `content` padded with plain spaces to `width` (none if it is wider), placed by `align`:
// none and left to the left, center with the odd space on the right.
Line aligned(const Line& content, int width, Align align);

} // namespace rio::md
