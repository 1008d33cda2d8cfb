#include "host/files/document_io.hpp"

#include "host/files/project_files.hpp"

namespace rio {

Result<Document> load_document(const ProjectPath& path) {
    auto bytes = read_project_file(path);
    if (!bytes) return bytes.error();
    auto decoded = decode_text(*bytes, path.rel);
    if (!decoded) return decoded.error();
    Document doc;
    doc.path = path.rel;
    set_file_text(doc, std::move(decoded->text));
    doc.encoding = decoded->encoding;
    doc.disk_fingerprint = fingerprint(*bytes);
    mark_saved(doc);
    return doc;
}

Status disk_unchanged(const Document& doc, const ProjectPath& path) {
    auto bytes = read_project_file(path);
    if (!bytes) return bytes.error().code == ErrorCode::not_found ? Status(Ok{}) : bytes.error();
    if (fingerprint(*bytes) != doc.disk_fingerprint)
        return make_error(ErrorCode::conflict, doc.path +
                                                   " changed on disk since rio read it; pass "
                                                   "force: true to overwrite it");
    return Ok{};
}

Status save_document(Document& doc, const ProjectPath& path) {
    std::string bytes = encode_text(doc.file_text(), doc.encoding);
    if (Status s = write_project_file(path, bytes); !s) return s;
    doc.disk_fingerprint = fingerprint(bytes);
    mark_saved(doc);
    return Ok{};
}

Result<std::string> live_text(const Workspace& workspace, const ProjectPath& path) {
    if (auto open = workspace.buffers.find(path.rel); open != workspace.buffers.end())
        return open->second.file_text();
    auto doc = load_document(path);
    if (!doc) return doc.error();
    return doc->file_text();
}

} // namespace rio
