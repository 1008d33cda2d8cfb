// What edit_file and create_file share: the proposal a person reviews (a unified diff and
// both texts), line counts for the result, and a write that goes through the open buffer.
#pragma once

#include "agent_tools/tool_context.hpp"
#include "core/document.hpp"
#include "host/confine.hpp"

#include <string>
#include <string_view>

namespace rio {

nlohmann::json edit_proposal(const ProjectPath& path, std::string_view before,
                             std::string_view after);

// "1 line", "12 lines".
std::string line_count(std::string_view text);

// Writes through the open buffer when there is one, so every editor sees the change, and
// saves it: the model edited the text it read, which is the buffer's.
Status write_edit(ToolContext& context, const ProjectPath& path, const TextEdit& edit);

} // namespace rio
