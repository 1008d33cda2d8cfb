// An open buffer and its file on disk when the two part: another program wrote the file
// (ops/project_watch noticed), a client asked to reload it, or agent.undo put back older
// bytes. Every change to the buffer goes out as buffer.changed, as the buffer ops' do.
#pragma once

#include "core/document.hpp"
#include "host/files/confine.hpp"
#include "protocol/core_event.hpp"

#include <string_view>

namespace rio {

// Replaces the buffer's text with the smallest edit that makes it `text`, announced as
// buffer.changed `edited`; nothing when it is `text` already. `saved`: the disk holds it
// now, so the buffer is clean (the event says dirty: false).
void replace_buffer_text(Document& doc, std::string_view text, bool saved, const Emit& emit);

// The file changed on disk: a buffer without unsaved edits takes the file's text (`edited`,
// then `reloaded`); one with unsaved edits keeps them and gets `disk_changed` (`deleted`
// when the file is gone), as does one whose file rio cannot show (no longer UTF-8).
// Nothing when the file still holds the bytes the buffer last read or wrote.
void follow_disk(Document& doc, const ProjectPath& path, const Emit& emit);

// buffer.reload: the file's text replaces the buffer's, unsaved edits included.
Status reload_buffer(Document& doc, const ProjectPath& path, const Emit& emit);

} // namespace rio
