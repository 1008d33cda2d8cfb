// Where an edit_file call lands: old_string must occur exactly once. Files with CRLF line
// endings are matched with the model's '\n' read as "\r\n" (decision 0002).
#pragma once

#include "core/document.hpp"
#include "protocol/error.hpp"

#include <string_view>

namespace rio {

// The replacement for `text`, or a refusal naming `path`: not found, or found N times.
Result<TextEdit> locate_edit(std::string_view text, std::string_view old_string,
                             std::string_view new_string, std::string_view path);

} // namespace rio
