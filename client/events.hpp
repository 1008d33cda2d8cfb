// The events a frontend reacts to, as the protocol's structs: one variant, decoded from a
// line's name and params in one place, so no frontend compares event names.
#pragma once

#include "protocol/core_event.hpp"

#include <optional>
#include <string_view>
#include <variant>

namespace rio::client {

using CoreEvent = rio::CoreEvent;

// nullopt for a name this client does not know, or params that do not fit the struct
// (clients ignore what they do not understand, DESIGN §3).
std::optional<CoreEvent> decode_event(std::string_view name, const Json& params);

// Whether `name` is an event this client knows (then a nullopt from decode_event means its
// params did not fit).
bool known_event(std::string_view name);

// The agent's events carry the turn they belong to; the others have none (0).
std::uint64_t turn_of(const CoreEvent& event);

} // namespace rio::client
