#include "agent_tools/plan_files.hpp"

#include "core/sha256.hpp"
#include "host/files/project_file.hpp"
#include "host/files/project_files.hpp"
#include "host/search/file_list.hpp"

#include <algorithm>
#include <fstream>
#include <optional>

namespace rio {
namespace {

bool is_glob(std::string_view path) {
    return path.find_first_of("*?[{") != std::string_view::npos;
}

void add(const Workspace& workspace, const std::string& rel, bool keep_text, NamedFiles& out) {
    if (out.files.size() >= max_hashed_files ||
        std::any_of(out.files.begin(), out.files.end(),
                    [&](const FileHash& h) { return h.path == rel; }))
        return;
    auto path = workspace_path(workspace, rel);
    auto bytes = path ? read_project_file(*path) : Result<std::string>(path.error());
    if (!bytes) {
        out.files.push_back({rel, ""});
        return;
    }
    out.files.push_back({rel, sha256_hex(*bytes)});
    if (keep_text && bytes->size() <= max_kept_text_bytes) out.texts[rel] = std::move(*bytes);
}

// A step may name a folder: it stands for every file in it, as a glob would.
std::optional<std::string> folder_glob(const Workspace& workspace, const std::string& rel) {
    auto path = workspace_path(workspace, rel);
    std::error_code ec;
    if (!path || !std::filesystem::is_directory(path->real, ec)) return std::nullopt;
    return path->rel == "." ? std::string("**") : path->rel + "/**";
}

std::string first_line_of(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return line;
}

} // namespace

NamedFiles named_files(const Workspace& workspace, const std::vector<std::string>& files,
                       bool keep_texts) {
    NamedFiles out;
    std::vector<std::string> globs;
    for (const std::string& file : files) {
        if (is_glob(file))
            globs.push_back(file);
        else if (auto folder = folder_glob(workspace, file))
            globs.push_back(*folder);
        else
            add(workspace, file, keep_texts, out);
    }
    if (globs.empty() || !workspace.root || out.files.size() >= max_hashed_files) return out;
    // A glob the search cannot read matches nothing: it was accepted and shown with the plan.
    if (auto matcher = PathGlobs::make(globs)) {
        FileList listed = list_project_files(*workspace.root, LiveText{},
                                             max_hashed_files - out.files.size(), *matcher);
        for (const std::string& rel : listed.files)
            add(workspace, rel, keep_texts, out);
    }
    return out;
}

std::vector<std::string> step_files(const std::vector<DeclaredStep>& steps) {
    std::vector<std::string> out;
    for (const DeclaredStep& step : steps)
        out.insert(out.end(), step.files.begin(), step.files.end());
    return out;
}

std::string git_head(const Workspace& workspace) {
    if (!workspace.root) return {};
    const std::filesystem::path git = *workspace.root / ".git";
    std::string head = first_line_of(git / "HEAD");
    if (!head.starts_with("ref: ")) return head.size() == 40 ? head : std::string();
    const std::string ref = head.substr(5);
    // HEAD is the project's to write: a ref is read only below .git/refs/.
    if (!ref.starts_with("refs/") || ref.find("..") != std::string::npos) return {};
    if (std::string commit = first_line_of(git / ref); commit.size() == 40) return commit;
    std::ifstream packed(git / "packed-refs");
    for (std::string line; std::getline(packed, line);)
        if (line.size() > 41 && line.substr(41) == ref) return line.substr(0, 40);
    return {};
}

} // namespace rio
