// A plan file's front matter (DESIGN §7, §13) is the core's: it records the plan's status,
// and a buffer of the file holds only the body below it, so editing a plan never shows it
// and saving the body keeps it.
#pragma once

#include <cstddef>
#include <string_view>

namespace rio {

// The size of a "---\n<fields>\n---\n" block at the very start of `text`; 0 when none.
std::size_t front_matter_size(std::string_view text);

// Whether the file at this project-relative path keeps its front matter out of its buffer:
// a plan filed under .rio/plans/.
bool keeps_front_matter(std::string_view rel);

} // namespace rio
