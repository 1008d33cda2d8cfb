// The one edit shape the editor and the core exchange: replace bytes [start, end) of a
// buffer's UTF-8 text with `text`. Plain functions translate QScintilla's change
// notifications and the core's `buffer.changed` events to it, and it to `buffer.replace`.
#pragma once

#include "core/protocol.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace rio::gui {

struct ByteEdit {
    std::size_t start = 0;
    std::size_t end = 0;
    std::string text;

    bool operator==(const ByteEdit&) const = default;
};

// An SCN_MODIFIED notification (UTF-8 mode: positions and lengths are bytes) as the edit
// it made; nullopt for notifications that change no text (styling, markers, "before" ones).
std::optional<ByteEdit> edit_from_modification(int modification_type, long position, long length,
                                               const char* text);

// `buffer.replace` params for a local edit made on top of `version`, so the core refuses it
// (`conflict`) if another client edited first.
Json replace_params(const std::string& path, const ByteEdit& edit, long long version);

// The edit a `buffer.changed` event with reason `edited` carries; nullopt if malformed.
std::optional<ByteEdit> edit_from_event(const Json& params);

} // namespace rio::gui
