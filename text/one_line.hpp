// A piece of text as one line: what a checklist, an error message or a summary shows.
#pragma once

#include <string>
#include <string_view>

namespace rio {

// Runs of white space and control characters (C0 and DEL) as one space, trimmed.
std::string one_line(std::string_view text);

} // namespace rio
