// Documents to and from disk: decoding on load, encoding plus atomic write on save, and the
// check that nobody else wrote the file in between.
#pragma once

#include "core/document.hpp"
#include "core/workspace.hpp"
#include "host/files/confine.hpp"

namespace rio {

Result<Document> load_document(const ProjectPath& path);

// Refuses (conflict) to overwrite bytes someone else wrote since the core read or wrote them.
Status disk_unchanged(const Document& doc, const ProjectPath& path);

// Writes the document's text in its encoding and marks it saved.
Status save_document(Document& doc, const ProjectPath& path);

// The text of a project file as the user left it: the open buffer's (with the front matter
// a plan's buffer keeps out of sight), else the file's.
Result<std::string> live_text(const Workspace& workspace, const ProjectPath& path);

} // namespace rio
