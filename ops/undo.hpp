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

} // namespace rio
