#include "host/files/confine.hpp"

#include "host/files/project_dir.hpp"

namespace rio {
namespace {

namespace fs = std::filesystem;

bool inside(const fs::path& root, const fs::path& p) {
    auto r = root.begin(), q = p.begin();
    for (; r != root.end(); ++r, ++q)
        if (q == p.end() || *q != *r) return false;
    return true;
}

std::string relative_to(const fs::path& root, const fs::path& p) {
    std::string rel = p.lexically_relative(root).generic_string();
    return rel.empty() ? "." : rel;
}

} // namespace

Result<ProjectPath> confine(const fs::path& root, std::string_view requested) {
    std::string shown(requested);
    if (requested.find('\0') != std::string_view::npos)
        return make_error(ErrorCode::bad_request, "path contains a NUL byte");

    fs::path candidate =
        fs::path(requested).is_absolute() ? fs::path(requested) : root / fs::path(requested);
    fs::path lexical = candidate.lexically_normal();
    if (lexical.has_filename() == false && lexical != root) lexical = lexical.parent_path();
    if (!inside(root, lexical))
        return make_error(ErrorCode::refused, "path is outside the project: " + shown);

    std::error_code ec;
    fs::path real = fs::weakly_canonical(lexical, ec);
    if (ec) return make_error(ErrorCode::io_error, "cannot resolve " + shown + ": " + ec.message());
    if (!inside(root, real))
        return make_error(ErrorCode::refused,
                          "path leads outside the project through a symlink: " + shown);
    return ProjectPath{real, relative_to(root, real), nullptr};
}

Result<ProjectPath> confine(const std::shared_ptr<const ProjectDir>& dir,
                            std::string_view requested) {
    auto path = confine(dir->path(), requested);
    if (path) path->dir = dir;
    return path;
}

} // namespace rio
