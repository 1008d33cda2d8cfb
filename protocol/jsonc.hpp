// JSON with comments (JSONC, as VS Code's settings and tsconfig.json have it): the files
// people write by hand — rio's config, a project's .rio files — may carry `//` and `/* */`
// comments and a comma after the last member or element.
#pragma once

#include "protocol/error.hpp"

#include <string>
#include <string_view>

namespace rio {

// The same text as plain JSON: each comment and each trailing comma becomes spaces (a
// comment's line breaks stay), so that a parser's "line 3, column 5" still points into the
// file as written. Strings are untouched, "http://x" included. A comma with no value before
// it ("[,]") is left for the parser to refuse; an unterminated /* comment is bad_request
// saying the line it starts on.
Result<std::string> jsonc_to_json(std::string_view text);

} // namespace rio
