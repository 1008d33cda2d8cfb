// fs.list and fs.read: the project's files as they are on disk.
#include "core/text_format.hpp"
#include "host/files/project_files.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"

namespace rio {

void register_fs_ops(Dispatcher& dispatcher, OpContext& context) {
    Workspace& ws = context.workspace;

    dispatcher.on<FsListParams>([&ws](const FsListParams& p) -> Result<FsListResult> {
        auto path = project_path(ws, p.path.value_or("."));
        if (!path) return path.error();
        auto listing = list_project_dir(*path);
        if (!listing) return listing.error();
        FsListResult out{path->rel, {}, std::nullopt};
        if (!listing->left_out.empty()) out.left_out = listing->left_out.size();
        for (const DirEntry& e : listing->entries) {
            DirEntryInfo entry{e.name, e.type, std::nullopt, std::nullopt};
            if (e.link) entry.link = true;
            if (e.type == EntryType::file) entry.size = e.size;
            out.entries.push_back(std::move(entry));
        }
        return out;
    });

    dispatcher.on<FsReadParams>([&ws](const FsReadParams& p) -> Result<FsReadResult> {
        auto path = project_path(ws, p.path);
        if (!path) return path.error();
        auto bytes = read_project_file(*path);
        if (!bytes) return bytes.error();
        auto decoded = decode_text(*bytes, path->rel);
        if (!decoded) return decoded.error();
        const Eol eol = detect_eol(decoded->text);
        return FsReadResult{path->rel, std::move(decoded->text), decoded->encoding, eol,
                            bytes->size()};
    });
}

} // namespace rio
