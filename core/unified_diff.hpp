// A unified diff of two texts (what `diff -u` prints), from rio's line diff: the shape of an
// edit proposal a person or a model can read.
#pragma once

#include <string>
#include <string_view>

namespace rio {

std::string unified_diff(std::string_view before, std::string_view after, std::string_view path,
                         std::size_t context = 3);

} // namespace rio
