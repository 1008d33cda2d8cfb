// A plan's review threads on disk (issue 44): ".rio/plans/<name>.comments.json" beside the
// plan file, so the plan's text stays byte for byte what the model wrote and the person
// edited. Every change tells every client (plans.comments).
#pragma once

#include "core/agent/plan_thread.hpp"
#include "core/workspace.hpp"
#include "protocol/core_event.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace rio {

// ".rio/plans/x.md" → ".rio/plans/x.comments.json".
std::string comments_path(std::string_view plan_rel);

// The plan's threads; none when it has no comments file. A file that is not the core's shape
// is an error naming it (the threads are not lost by overwriting it).
Result<CommentThreads> read_comments(const Workspace& workspace, std::string_view plan_rel);

// Writes the threads and announces them.
Status write_comments(const Workspace& workspace, const Emit& emit, std::string_view plan_rel,
                      const CommentThreads& threads);

// Reads the filed plan's threads, changes one with `change`, writes them back: the ops'
// add, reply and resolve. not_found for a path that is no filed plan.
Result<ReviewComment>
change_comments(const Workspace& workspace, const Emit& emit, std::string_view plan_rel,
                const std::function<Result<ReviewComment>(CommentThreads&)>& change);

} // namespace rio
