// The buffer.changed event (docs/protocol.md), built in one place for the buffer ops and
// for the agent's edits.
#pragma once

#include "core/document.hpp"
#include "protocol/wire.hpp"

namespace rio {

// reason: opened, saved or closed.
Json buffer_changed(const Document& doc, std::string_view reason);
Json buffer_edited(const Document& doc, const TextEdit& edit);

} // namespace rio
