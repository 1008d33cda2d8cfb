// Which language servers rio may start (DESIGN §21): built-in entries for clangd, pylsp,
// typescript-language-server, rust-analyzer and gopls, each used only when its program is on
// PATH; the user's $XDG_CONFIG_HOME/rio/lsp.json and a trusted project's .rio/lsp.json add
// servers or change the built-in ones, field by field:
//   {"servers": {NAME: {command, args?, files?: [glob…], language?, initializationOptions?,
//                       settings?, timeout_s?, start_timeout_s?, diagnostics_wait_s?,
//                       change_delay_s?,
//                       diagnostics_settle_s?, sync?: "incremental" | "full", disabled?}},
//    "agent": {"severity": "error" | "warning" | "information" | "hint"}}
// (JSONC: comments and trailing commas are accepted.)
#pragma once

#include "host/lsp/lsp_protocol.hpp"

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

// How edits reach a server: as ranges (its positions), or the whole text each time, for a
// server whose incremental positions cannot be trusted (pylsp 1.7 counts code points, not
// UTF-16 units, so a line holding an astral character ends up wrong; issue 40).
enum class LspSync { incremental, full };

struct LspServerConfig {
    std::string name;
    std::string source; // "built-in", "user" or "project"
    std::vector<std::string> argv;
    // Globs: one without '/' matches a file's name ("*.cpp"), one with '/' its
    // project-relative path ("src/**/*.c" is not special: '*' stops at '/').
    std::vector<std::string> files;
    std::string language; // the languageId for every file; "" picks one by extension
    nlohmann::json initialization_options;
    nlohmann::json settings;                   // answered to workspace/configuration, by section
    std::chrono::milliseconds timeout{10'000}; // each request
    // initialize; unset: 3× `timeout`. Its own setting so that a server that starts slowly
    // (a shim, a cold cache) may take longer to start than to answer.
    std::optional<std::chrono::milliseconds> start_timeout;
    std::chrono::milliseconds initialize_timeout() const {
        return start_timeout.value_or(timeout * 3);
    }
    std::chrono::milliseconds diagnostics_wait{10'000}; // an agent's edit waits this long at most
    // Edits go to the server once none came for this long (or before a request): a burst of
    // keys is one didChange, and the server is not asked to parse again on every key.
    std::chrono::milliseconds change_delay{150};
    // A server that publishes a file's diagnostics in passes (typescript-language-server:
    // syntax, then semantics, ~50-100 ms apart) has answered once none came for this long; 0:
    // its first publish for the text is its answer.
    std::chrono::milliseconds diagnostics_settle{0};
    LspSync sync = LspSync::incremental;
    std::string install_hint; // said when the program is not found
    bool disabled = false;
    std::string error; // why this entry cannot be used; listed, never started

    bool handles(std::string_view rel) const;
};

struct LspConfig {
    std::vector<LspServerConfig> servers;
    Severity agent_severity = Severity::error; // the least severe an edit's result names
    std::vector<std::string> problems;         // files that could not be used, in words
};

std::vector<LspServerConfig> builtin_lsp_servers();

// Merges one lsp.json into `config`: a server of a name already there keeps the fields the
// file does not give. Errors are per entry (the entry is listed, failed) or, for a file that
// is not the expected object, one problem naming `where`.
void merge_lsp_config(LspConfig& config, std::string_view text, std::string_view source,
                      std::string_view where);

// The languageId for a file: by the server's `language`, else by its extension ("cpp",
// "python", "typescriptreact", …), else the extension itself.
std::string language_id(const LspServerConfig& server, std::string_view rel);

// argv[0] as found: itself when it has a '/', else the first executable of that name on PATH.
std::optional<std::filesystem::path> find_program(std::string_view name);

} // namespace rio
