#include "host/store/plan_comments_store.hpp"

#include "host/files/project_file.hpp"
#include "host/files/project_files.hpp"
#include "host/store/plan_store.hpp"
#include "protocol/json_parse.hpp"
#include "protocol/messages.hpp"

namespace rio {

std::string comments_path(std::string_view plan_rel) {
    std::string_view stem = plan_rel.substr(0, plan_rel.size() - 3); // without ".md"
    return std::string(stem) + ".comments.json";
}

Result<CommentThreads> read_comments(const Workspace& workspace, std::string_view plan_rel) {
    if (!is_plan_path(plan_rel))
        return make_error(ErrorCode::not_found, std::string(plan_rel) + " is not a filed plan");
    std::string rel = comments_path(plan_rel);
    auto path = workspace_path(workspace, rel);
    if (!path) return path.error();
    auto text = read_project_file(*path);
    if (!text) {
        if (text.error().code == ErrorCode::not_found) return CommentThreads{};
        return text.error();
    }
    auto json = parse_json(*text);
    auto shape = make_error(ErrorCode::bad_request,
                            rel + " is not a comments file rio wrote; move it aside to start "
                                  "the plan's comments afresh");
    if (!json || !json->is_object() || !json->contains("comments")) return shape;
    try {
        return json->at("comments").get<CommentThreads>();
    } catch (const std::exception& e) {
        shape.message += " (" + std::string(e.what()) + ")";
        return shape;
    }
}

Status write_comments(const Workspace& workspace, const Emit& emit, std::string_view plan_rel,
                      const CommentThreads& threads) {
    auto path = workspace_path(workspace, comments_path(plan_rel));
    if (!path) return path.error();
    nlohmann::json file{{"comments", threads}};
    if (Status s = write_project_file(*path, file.dump(2) + "\n"); !s) return s;
    emit_event(emit, PlanCommentsEvent{std::string(plan_rel), threads});
    return Ok{};
}

Result<ReviewComment>
change_comments(const Workspace& workspace, const Emit& emit, std::string_view plan_rel,
                const std::function<Result<ReviewComment>(CommentThreads&)>& change) {
    if (!workspace.root) return make_error(ErrorCode::no_project, "no project is open");
    if (!is_plan_path(plan_rel) || !read_plan(workspace, plan_rel))
        return make_error(ErrorCode::not_found, "params.path: " + std::string(plan_rel) +
                                                    " is not a filed plan (plans.list lists them)");
    auto threads = read_comments(workspace, plan_rel);
    if (!threads) return threads.error();
    auto changed = change(*threads);
    if (!changed) return changed;
    if (Status s = write_comments(workspace, emit, plan_rel, *threads); !s) return s.error();
    return changed;
}

} // namespace rio
