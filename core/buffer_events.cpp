#include "core/buffer_events.hpp"

namespace rio {

Json buffer_changed(const Document& doc, std::string_view reason) {
    return Json{
        {"path", doc.path}, {"reason", reason}, {"version", doc.version}, {"dirty", doc.dirty()}};
}

Json buffer_edited(const Document& doc, const TextEdit& edit) {
    Json event = buffer_changed(doc, "edited");
    event["start"] = edit.start;
    event["end"] = edit.end;
    event["text"] = edit.text;
    return event;
}

} // namespace rio
