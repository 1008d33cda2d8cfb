// A command line as a person would type it: a word with spaces, quotes, backslashes or `$`
// is single-quoted. What the model reads, the approval a person sees and the trace all
// spell a command this way.
#pragma once

#include <string>
#include <vector>

namespace rio {

std::string argv_text(const std::vector<std::string>& argv);

} // namespace rio
