// Reading the core's JSON into Qt text: what every widget that renders events needs.
#pragma once

#include "protocol/fields.hpp"
#include "protocol/wire.hpp"

#include <QString>
#include <exception>
#include <optional>

namespace rio::gui {

// json[key] when it is a string, else "" (a missing or mistyped field shows as nothing).
QString json_string(const Json& json, const char* key);

// A reply's result as its typed struct; nullopt when a core of another version answered in
// another shape, so that a widget shows nothing rather than falling over.
template <typename T> std::optional<T> read_result(const Json& result) {
    try {
        return parse_fields<T>(result, "result");
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

} // namespace rio::gui
