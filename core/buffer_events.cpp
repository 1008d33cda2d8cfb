#include "core/buffer_events.hpp"

namespace rio {

BufferChangedEvent buffer_changed(const Document& doc, std::string_view reason) {
    return BufferChangedEvent{doc.path,     std::string(reason), doc.version,  doc.dirty(),
                              std::nullopt, std::nullopt,        std::nullopt, std::nullopt};
}

BufferChangedEvent buffer_edited(const Document& doc, const TextEdit& edit) {
    BufferChangedEvent event = buffer_changed(doc, "edited");
    event.start = edit.start;
    event.end = edit.end;
    event.text = edit.text;
    return event;
}

BufferState buffer_state(const Document& doc, bool with_text) {
    BufferState state{doc.path,     doc.version,          doc.dirty(),
                      doc.encoding, detect_eol(doc.text), std::nullopt};
    if (with_text) state.text = doc.text;
    return state;
}

} // namespace rio
