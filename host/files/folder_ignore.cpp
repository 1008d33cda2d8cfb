#include "host/files/folder_ignore.hpp"

namespace rio {
namespace {

// The bytes a glob starts with, up to its first wildcard.
std::string literal_prefix(const Glob& glob) {
    std::string out;
    for (const GlobToken& t : glob.tokens) {
        if (t.kind != GlobToken::Kind::byte) break;
        out.push_back(static_cast<char>(t.byte));
    }
    return out;
}

} // namespace

FolderIgnoreRules::FolderIgnoreRules(const IgnoreRules& rules, std::string_view folder)
    : rules_(rules) {
    const auto& patterns = rules.patterns;
    for (std::size_t i = 0; i < patterns.size(); ++i) {
        const IgnorePattern& p = patterns[i];
        const int index = static_cast<int>(i);
        // A rule covers what lies below the folder of its .gitignore; `below` is this folder
        // as the rule sees it, with a trailing '/', or "" for that folder itself.
        std::string below;
        if (p.base.empty()) {
            below = folder;
        } else if (folder.starts_with(p.base) &&
                   (folder.size() == p.base.size() || folder[p.base.size()] == '/')) {
            below = folder.substr(std::min(folder.size(), p.base.size() + 1));
        } else {
            continue;
        }
        if (!below.empty()) below += '/';

        if (p.basename_only) {
            if (p.glob.shape == Glob::Shape::literal) {
                Last& last = names_[p.glob.fixed];
                if (!p.dir_only) last.file = index;
                last.dir = index;
            } else if (p.glob.shape == Glob::Shape::suffix) {
                suffixes_.push_back(Rule{index, p.dir_only, false, p.glob.fixed});
            } else {
                general_.push_back(Rule{index, p.dir_only, false, {}});
            }
            continue;
        }
        // The path a rule sees here is `below` + a name without '/': a literal start that
        // disagrees with `below`, or asks for a deeper folder, never matches.
        std::string start = literal_prefix(p.glob);
        std::size_t common = std::min(start.size(), below.size());
        if (start.compare(0, common, below, 0, common) != 0) continue;
        if (start.size() > below.size() && start.find('/', below.size()) != std::string::npos)
            continue;
        if (p.glob.shape == Glob::Shape::literal) {
            if (start.size() <= below.size()) continue; // the folder itself, not an entry
            Last& last = names_[start.substr(below.size())];
            if (!p.dir_only) last.file = index;
            last.dir = index;
        } else {
            general_.push_back(Rule{index, p.dir_only, true, below});
        }
    }
}

// The decision is the last rule that matches, so each list is read from its end and only
// while it can still beat what was found.
bool FolderIgnoreRules::ignored(std::string_view name, bool is_dir) const {
    if (name == ".git") return true;
    int last = none;
    if (auto it = names_.find(name); it != names_.end())
        last = is_dir ? it->second.dir : it->second.file;
    for (auto r = suffixes_.rbegin(); r != suffixes_.rend() && r->index > last; ++r) {
        if (r->dir_only && !is_dir) continue;
        if (name.ends_with(r->text)) {
            last = r->index;
            break;
        }
    }
    for (auto r = general_.rbegin(); r != general_.rend() && r->index > last; ++r) {
        if (r->dir_only && !is_dir) continue;
        std::string_view subject = name;
        if (r->whole_path) {
            path_.assign(r->text);
            path_ += name;
            subject = path_;
        }
        if (glob_match(rules_.patterns[static_cast<std::size_t>(r->index)].glob, subject)) {
            last = r->index;
            break;
        }
    }
    return last != none && !rules_.patterns[static_cast<std::size_t>(last)].negated;
}

} // namespace rio
