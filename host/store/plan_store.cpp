#include "host/store/plan_store.hpp"

#include "core/agent/plan_receipt.hpp"
#include "core/agent/plan_track.hpp"
#include "core/buffer_events.hpp"
#include "host/files/document_io.hpp"
#include "host/files/project_file.hpp"
#include "host/files/project_files.hpp"
#include "host/store/plan_comments_store.hpp"

#include <algorithm>

namespace rio {
namespace {

namespace fs = std::filesystem;

void announce(const Emit& emit, const std::string& rel) {
    emit_event(emit, PlansChangedEvent{rel});
    emit_event(emit, FsChangedEvent{{rel}});
}

// Rewrites the plan file with `change` (whole text in, whole text out), through its open
// buffer when there is one, and saves.
Status update_plan(Workspace& workspace, const Emit& emit, std::string_view rel,
                   const std::function<std::string(const std::string&)>& change) {
    if (!is_plan_path(rel))
        return make_error(ErrorCode::refused, std::string(rel) + " is not a filed plan");
    auto path = workspace_path(workspace, rel);
    if (!path) return path.error();
    auto open = workspace.buffers.find(path->rel);
    if (open != workspace.buffers.end()) {
        Document& doc = open->second;
        Document changed = doc;
        set_file_text(changed, change(doc.file_text()));
        doc.head = changed.head;
        if (changed.text != doc.text) {
            TextEdit edit = smallest_edit(doc.text, changed.text);
            if (Status s = apply_edit(doc, edit); !s) return s;
            emit_event(emit, buffer_edited(doc, edit));
        }
        if (Status s = save_document(doc, *path); !s) return s;
        emit_event(emit, buffer_changed(doc, "saved"));
    } else {
        auto doc = load_document(*path);
        if (!doc) return doc.error();
        set_file_text(*doc, change(doc->file_text()));
        if (Status s = save_document(*doc, *path); !s) return s;
    }
    announce(emit, path->rel);
    return Ok{};
}

} // namespace

bool is_plan_path(std::string_view rel) {
    constexpr std::string_view folder = ".rio/plans/";
    if (!rel.starts_with(folder) || !rel.ends_with(".md")) return false;
    std::string_view name = rel.substr(folder.size());
    return name.size() > 3 && name.find('/') == std::string_view::npos && name != "..md";
}

Result<std::string> file_plan(Workspace& workspace, const Emit& emit, std::string_view title,
                              std::string_view plan, WallTime now, std::string_view revises,
                              const std::vector<DeclaredStep>& steps) {
    if (!workspace.root) return std::string();
    auto folder = workspace_path(workspace, ".rio/plans");
    if (!folder) return folder.error();
    if (Status s = make_project_folders(*folder); !s) return s.error();
    std::error_code ec;
    std::string slug = plan_slug(title);
    for (int attempt = 1;; ++attempt) {
        std::string rel = plan_file_path(now, slug, attempt);
        auto path = workspace_path(workspace, rel);
        if (!path) return path.error();
        if (fs::exists(path->real, ec)) continue;
        Document doc;
        doc.path = path->rel;
        set_file_text(doc, render_plan_file(title, plan, now, revises, steps));
        if (Status s = save_document(doc, *path); !s) return s.error();
        announce(emit, path->rel);
        return path->rel;
    }
}

Result<PlanFileInfo> read_plan(const Workspace& workspace, std::string_view rel) {
    auto path = workspace_path(workspace, rel);
    if (!path) return path.error();
    auto text = live_text(workspace, *path);
    if (!text) return text.error();
    return parse_plan_file(*text);
}

Status mark_plan(Workspace& workspace, const Emit& emit, std::string_view rel, PlanStatus status,
                 std::string_view policy, WallTime now, const PlanReview& review,
                 std::string_view approved_in) {
    Status marked = update_plan(workspace, emit, rel, [&](const std::string& text) {
        std::string out = set_plan_status(text, status, now, policy, approved_in);
        if (status == PlanStatus::approved || status == PlanStatus::rejected)
            out = set_plan_open_comments(out, review.still_open.size());
        if (review.empty()) return out;
        return add_plan_review(out, review_section(review), review.comments.size());
    });
    if (!marked || review.comments.empty()) return marked;
    // The decision's comments join the plan's threads, under the ids the model was told.
    auto threads = read_comments(workspace, rel);
    if (!threads) return threads.error();
    for (const ReviewComment& comment : review.comments)
        threads->push_back(comment);
    return write_comments(workspace, emit, rel, *threads);
}

Status record_plan_progress(Workspace& workspace, const Emit& emit, std::string_view rel,
                            std::string_view progress, std::string_view checks) {
    return update_plan(workspace, emit, rel, [&](const std::string& text) {
        return set_plan_progress(text, progress, checks);
    });
}

Status record_plan_outcome(Workspace& workspace, const Emit& emit, std::string_view rel,
                           const std::vector<std::string>& touched,
                           const std::vector<std::string>& unplanned) {
    return update_plan(workspace, emit, rel, [&](const std::string& text) {
        return set_plan_outcome(text, touched, unplanned);
    });
}

Status record_plan_receipt(Workspace& workspace, const Emit& emit, std::string_view rel,
                           PlanReceipt& receipt) {
    return update_plan(workspace, emit, rel, [&](const std::string& text) {
        PlanFileInfo info = parse_plan_file(text);
        if (!info.decided.empty())
            receipt.approved = info.decided +
                               (info.policy.empty() ? "" : " (" + info.policy + ")") + " in " +
                               (info.approved_in.empty() ? "a frontend that did not name itself"
                                                         : info.approved_in);
        return set_plan_receipt(text, receipt_markdown(receipt));
    });
}

Result<PlansListResult> list_plans(const Workspace& workspace) {
    if (!workspace.root) return make_error(ErrorCode::no_project, "no project is open");
    auto folder = workspace_path(workspace, ".rio/plans");
    if (!folder) return folder.error();
    auto entries = list_project_dir(*folder);
    if (!entries) {
        if (entries.error().code == ErrorCode::not_found) return PlansListResult{};
        return entries.error();
    }
    struct Listed {
        long long presented; // ms; a file without the field sorts by its name's stamp
        std::string name;
        PlanInfo plan;
    };
    std::vector<Listed> listed;
    for (const DirEntry& e : entries->entries) {
        if (e.type != EntryType::file || !e.name.ends_with(".md")) continue;
        std::string rel = ".rio/plans/" + e.name;
        auto info = read_plan(workspace, rel);
        if (!info) continue; // unreadable or not UTF-8: not a plan rio can show
        std::string tally = info->progress ? progress_tally(*info->progress) : std::string();
        listed.push_back(
            {parse_iso_time(info->presented).value_or(0), e.name,
             PlanInfo{rel, info->title, info->status, info->presented,
                      info->revises.empty() ? std::nullopt : std::optional(info->revises),
                      tally.empty() ? std::nullopt : std::optional(tally)}});
    }
    std::sort(listed.begin(), listed.end(), [](const Listed& a, const Listed& b) {
        return a.presented != b.presented ? a.presented > b.presented : a.name > b.name;
    });
    PlansListResult out;
    for (Listed& l : listed)
        out.plans.push_back(std::move(l.plan));
    return out;
}

} // namespace rio
