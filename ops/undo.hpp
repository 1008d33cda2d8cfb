// agent.undo (DESIGN §14): puts back what a turn's writes replaced, from the turn's
// checkpoint — every file or one — only if none of them changed since the agent wrote it.
#pragma once

#include "core/agent/checkpoints.hpp"
#include "core/workspace.hpp"
#include "protocol/core_event.hpp"

#include <optional>
#include <string>

namespace rio {

// All or nothing: a file that changed since the agent wrote it (on disk, or unsaved in its
// buffer) is a `conflict` naming every such file, and nothing is restored. Restored files
// get their bytes and permission bits back; files the turn created are deleted, with the
// folders made for them when empty. Open buffers follow, and the same buffer.changed and
// fs.changed go out as for any write, then agent.undone and agent.checkpoints.
Result<UndoneEvent> undo_turn(Workspace& workspace, Checkpoints& checkpoints, const Emit& emit,
                              std::uint64_t turn, const std::optional<std::string>& path);

// agent.rewind's files (DESIGN §23): each file the agent's edits of turn `from` and later
// wrote, to be given its text from before the first of them (or deleted, when the agent
// created it), and how it changed since the agent last wrote it (`changed`), if it did.
Result<std::vector<RewindFile>> rewind_files(const Workspace& workspace,
                                             const Checkpoints& checkpoints, std::uint64_t from);
// Puts them back, whatever changed since (the caller asked), newest first as undo does; the
// checkpoints of those turns are forgotten. A failure says what was put back before it.
Result<std::vector<RewindFile>> put_back_since(Workspace& workspace, Checkpoints& checkpoints,
                                               const Emit& emit, std::uint64_t from);

} // namespace rio
