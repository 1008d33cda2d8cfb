// The user's and the project's Markdown definitions (DESIGN §23): subagents
// (`agents/NAME.md`) and commands (`commands/NAME.md`), each a front matter of `key: value`
// lines and a body that is a prompt. A project's are prompts only: what they may say is
// decided by whoever reads them (Subagents, the commands), never by the file.
#pragma once

#include "io/user_dirs.hpp"
#include "protocol/closed_sets.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rio {

struct DefinitionFile {
    std::string name; // the file's stem: "shout-it" for shout-it.md
    DefinitionScope scope = DefinitionScope::user;
    std::filesystem::path path;
    std::map<std::string, std::string, std::less<>> fields; // the front matter, keys lower-case
    std::string body;                                       // below the front matter, trimmed
};

struct DefinitionFiles {
    std::vector<DefinitionFile> files; // by name; a project's replaces the user's of that name
    std::vector<std::string> notes;    // files skipped, and why
};

// `kind` is "agents" or "commands": ~/.config/rio/KIND/, then the project's .claude/KIND/ and
// .rio/KIND/ (later ones replace earlier ones of the same name). A name must be letters,
// digits, '-', '_' or ':' and at most 64 of them; a file with no body is skipped with a note.
DefinitionFiles read_definition_files(const UserDirs& dirs,
                                      const std::optional<std::filesystem::path>& root,
                                      const std::string& kind);

// A front matter list: "a, b", "[a, b]" or "a b".
std::vector<std::string> definition_list(const std::string& value);

} // namespace rio
