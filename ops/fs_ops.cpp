#include "protocol/params.hpp"
#include "core/text_format.hpp"
#include "host/project_files.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"

namespace rio {

void register_fs_ops(Dispatcher& dispatcher, OpContext& context) {
    Workspace& ws = context.workspace;

    dispatcher.add("fs.list", [&ws](const Call& call) -> Result<Json> {
        auto path = project_path(ws, optional_string(call.params, "path").value_or("."));
        if (!path) return path.error();
        auto entries = list_project_dir(*path);
        if (!entries) return entries.error();
        Json list = Json::array();
        for (const DirEntry& e : *entries) {
            Json entry{{"name", e.name}, {"type", e.type}};
            if (e.link) entry["link"] = true;
            if (e.type == "file") entry["size"] = e.size;
            list.push_back(std::move(entry));
        }
        return Json{{"path", path->rel}, {"entries", std::move(list)}};
    });

    dispatcher.add("fs.read", [&ws](const Call& call) -> Result<Json> {
        auto path = project_path(ws, require_string(call.params, "path"));
        if (!path) return path.error();
        auto bytes = read_project_file(*path);
        if (!bytes) return bytes.error();
        auto decoded = decode_text(*bytes, path->rel);
        if (!decoded) return decoded.error();
        return Json{{"path", path->rel},
                    {"text", decoded->text},
                    {"encoding", to_string(decoded->encoding)},
                    {"eol", to_string(detect_eol(decoded->text))},
                    {"size", bytes->size()}};
    });
}

} // namespace rio
