// The editor's text (DESIGN §15): buffers a frontend holds.
#pragma once

#include "protocol/messages/common.hpp"
#include "protocol/messages/session.hpp"

namespace rio {

// The editor's text (DESIGN §15). A frontend that holds files the core has no buffer of —
// rio-acp, when its editor offers fs/read_text_file — becomes the core's reader of them;
// the agent's read_file then asks it (editor.read) for a file no core buffer holds, and
// reads the disk when it says it has none or does not answer within 5 seconds.
struct EditorReaderResult {
    bool enabled = false; // this client is the reader
};
RIO_FIELDS(EditorReaderResult, enabled)

struct EditorReaderSetParams {
    static constexpr std::string_view op = op::editor_reader_set;
    using Result = EditorReaderResult;
    bool enabled = true;
};
RIO_FIELDS(EditorReaderSetParams, enabled)

// To every client; only the reader answers, with editor.read.reply.
struct EditorReadEvent {
    static constexpr std::string_view event = event::editor_read;
    std::uint64_t request = 0;
    std::string path; // absolute
};
RIO_FIELDS(EditorReadEvent, request, path)

// `text` is the editor's, unsaved changes and all; `error` (or neither) sends the read to
// the disk.
struct EditorReadReplyParams {
    static constexpr std::string_view op = op::editor_read_reply;
    using Result = Empty;
    std::uint64_t request = 0;
    std::optional<std::string> text;
    std::optional<std::string> error;
};
RIO_FIELDS(EditorReadReplyParams, request, text, error)

struct ProjectChangedEvent : ProjectInfo {
    static constexpr std::string_view event = event::project_changed;
};
// root and name always, null when no project is open.
void to_json(Json& j, const ProjectChangedEvent& e);

// Every op that has a params struct above, in the order of docs/protocol.md: the test that
// keeps session.hello, this list and the reference in step reads it.
std::vector<std::string_view> typed_ops();

} // namespace rio
