#include "agent_tools/edit_support.hpp"

#include "core/buffer_events.hpp"
#include "core/unified_diff.hpp"
#include "host/document_io.hpp"

#include <algorithm>

namespace rio {

nlohmann::json edit_proposal(const ProjectPath& path, std::string_view before,
                             std::string_view after) {
    return {{"path", path.rel},
            {"diff", unified_diff(before, after, path.rel)},
            {"before", before},
            {"after", after}};
}

std::string line_count(std::string_view text) {
    std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    if (!text.empty() && text.back() != '\n') ++lines;
    return std::to_string(lines) + (lines == 1 ? " line" : " lines");
}

Status write_edit(ToolContext& context, const ProjectPath& path, const TextEdit& edit) {
    auto open = context.workspace.buffers.find(path.rel);
    Document loaded;
    if (open == context.workspace.buffers.end()) {
        auto doc = load_document(path);
        if (!doc) return doc.error();
        loaded = std::move(*doc);
    }
    Document& doc = open != context.workspace.buffers.end() ? open->second : loaded;
    if (Status s = apply_edit(doc, edit); !s) return s;
    if (open != context.workspace.buffers.end()) emit_event(context.emit, buffer_edited(doc, edit));
    if (Status s = save_document(doc, path); !s) return s;
    if (open != context.workspace.buffers.end())
        emit_event(context.emit, buffer_changed(doc, "saved"));
    emit_event(context.emit, FsChangedEvent{{path.rel}});
    return Ok{};
}

} // namespace rio
