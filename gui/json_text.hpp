// Reading the core's JSON into Qt text: what the widgets that still read raw JSON (an
// event's params, a proposal's kind-specific fields) need.
#pragma once

#include "protocol/wire.hpp"

#include <QString>

namespace rio::gui {

// json[key] when it is a string, else "" (a missing or mistyped field shows as nothing).
QString json_string(const Json& json, const char* key);

} // namespace rio::gui
