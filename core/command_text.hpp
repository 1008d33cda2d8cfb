// A user's command (DESIGN §23) as the prompt it sends: its text with the arguments put in.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rio {

// `body` with $ARGUMENTS replaced by all of `args` and $1…$9 by its words as argv_words
// reads them ("" past the last);
// a body that names neither gets the arguments after a blank line, so none are lost.
std::string expand_command(std::string_view body, std::string_view args);

} // namespace rio
