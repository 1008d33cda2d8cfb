// Whitespace at the ends of a piece of text.
#pragma once

#include <string_view>

namespace rio {

// `text` without the spaces, tabs, CRs and LFs that begin and end it.
std::string_view trimmed(std::string_view text);

} // namespace rio
