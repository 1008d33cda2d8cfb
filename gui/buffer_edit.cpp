#include "gui/buffer_edit.hpp"

#include <Qsci/qsciscintillabase.h>

namespace rio::gui {

std::optional<ByteChange> change_from_modification(int modification_type, long position,
                                                   long length) {
    if (position < 0 || length < 0) return std::nullopt;
    const auto at = static_cast<std::size_t>(position);
    const auto bytes = static_cast<std::size_t>(length);
    if (modification_type & QsciScintillaBase::SC_MOD_BEFOREINSERT)
        return ByteChange{true, at, bytes};
    if (modification_type & QsciScintillaBase::SC_MOD_BEFOREDELETE)
        return ByteChange{false, at, bytes};
    return std::nullopt;
}

BufferReplaceParams replace_params(const std::string& path, const ByteEdit& edit,
                                   long long version) {
    return BufferReplaceParams{path, edit.text, edit.start, edit.end,
                               static_cast<std::uint64_t>(version)};
}

std::optional<ByteEdit> edit_from_event(const BufferChangedEvent& event) {
    if (!event.start || !event.end || !event.text || *event.end < *event.start) return std::nullopt;
    return ByteEdit{*event.start, *event.end, *event.text};
}

} // namespace rio::gui
