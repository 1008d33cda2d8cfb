// A unified diff of two texts (what `diff -u` prints), from rio's line diff: the shape of an
// edit proposal a person or a model can read.
#pragma once

#include <string>
#include <string_view>

namespace rio {

// `first_line`: how many lines of the file come before the texts given, when they are a
// window of it (an applied edit's lines and their context), so the hunks name file lines.
std::string unified_diff(std::string_view before, std::string_view after, std::string_view path,
                         std::size_t context = 3, std::size_t first_line = 0);

} // namespace rio
