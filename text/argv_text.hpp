// A command line as a person would type it: a word with spaces, quotes, backslashes or `$`
// is single-quoted. What the model reads, the approval a person sees and the trace all
// spell a command this way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rio {

std::string argv_text(const std::vector<std::string>& argv);

// The words of a line as a person types them: blanks part them, 'single' or "double" quotes
// group them (no escapes; '' is an empty word); with `comments`, an unquoted '#' before a
// word ends the line (the allow-list's files).
std::vector<std::string> argv_words(std::string_view line, bool comments = false);

} // namespace rio
