// The buffer.changed event (docs/protocol.md), built in one place for the buffer ops and
// for the agent's edits.
#pragma once

#include "core/document.hpp"
#include "protocol/messages.hpp"

namespace rio {

// reason: opened, saved or closed.
BufferChangedEvent buffer_changed(const Document& doc, std::string_view reason);
BufferChangedEvent buffer_edited(const Document& doc, const TextEdit& edit);

// The state the buffer ops answer with; `with_text` for buffer.open and buffer.text.
BufferState buffer_state(const Document& doc, bool with_text);

} // namespace rio
