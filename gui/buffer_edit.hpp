// The one edit shape the editor and the core exchange: replace bytes [start, end) of a
// buffer's UTF-8 text with `text`. Plain functions translate QScintilla's change
// notifications and the core's `buffer.changed` events to it, and it to `buffer.replace`.
#pragma once

#include "protocol/messages.hpp"
#include "protocol/wire.hpp"

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

// What an SCN_MODIFIED "before insert" or "before delete" notification announces (UTF-8
// mode: positions and lengths are bytes); nullopt for any other notification. The "before"
// kinds because QScintilla's own handling of the "after" ones costs time linear in the
// document (docs/BENCHMARKS.md, gui editor); they carry no text, so an insertion's bytes
// are read once it is done.
struct ByteChange {
    bool insert = false;
    std::size_t at = 0;
    std::size_t length = 0;

    bool operator==(const ByteChange&) const = default;
};
std::optional<ByteChange> change_from_modification(int modification_type, long position,
                                                   long length);

// `buffer.replace` params for a local edit made on top of `version`, so the core refuses it
// (`conflict`) if another client edited first.
BufferReplaceParams replace_params(const std::string& path, const ByteEdit& edit,
                                   long long version);

// The edit a `buffer.changed` event with reason `edited` carries; nullopt if malformed.
std::optional<ByteEdit> edit_from_event(const BufferChangedEvent& event);

} // namespace rio::gui
