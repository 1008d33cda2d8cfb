// What edit_file and create_file share: the proposal a person reviews (a unified diff and
// both texts), line counts for the result, the turn's checkpoint of what a write replaces,
// a write that goes through the open buffer, and the new errors its result carries.
#pragma once

#include "agent_tools/tool_context.hpp"
#include "core/document.hpp"
#include "host/files/confine.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace rio {

ProposalBody edit_proposal(const ProjectPath& path, std::string_view before,
                           std::string_view after);

// "1 line", "12 lines".
std::string line_count(std::string_view text);

// Before the turn's first write to a path: what the file (and its open buffer) holds now goes
// into the turn's checkpoint, so agent.undo can give it back. `made_folders`: those a new
// file's write is about to create. Fails when the file cannot be read; then nothing may be
// written, since it could not be undone.
Status keep_prior(ToolContext& context, const RunTool& run, const ProjectPath& path,
                  std::vector<std::string> made_folders = {});

// A write as it was made: what an edit card shows and Compare asks for.
struct WrittenEdit {
    bool created = false;
    std::uint64_t added = 0, removed = 0; // lines of the call's own change
    std::string diff;                     // that change, unified, numbered as in the file
    std::string before, after;            // the whole text around the write
    std::uint64_t fingerprint = 0;        // of the bytes the agent left on disk
};

// After a write: the checkpoint learns the bytes the agent left, the change is kept for
// agent.change, and every client hears of the edit (agent.edit_applied) and of what can now
// be undone (agent.checkpoints).
void announce_edit(ToolContext& context, const RunTool& run, const ProjectPath& path,
                   WrittenEdit written);

// Writes through the open buffer when there is one, so every editor sees the change, and
// saves it: the model edited the text it read, which is the buffer's. Keeps the prior first.
Status write_edit(ToolContext& context, const RunTool& run, const ProjectPath& path,
                  const TextEdit& edit);

// An applied write's result, at once: the file's language server reports on the new text
// later, with a tool result after it or before the turn ends (EditChecks, decision 0076).
ToolCancel report_written(ToolContext& context, const RunTool& run, const std::string& rel,
                          ToolReport result, const ToolReportFn& report);

} // namespace rio
