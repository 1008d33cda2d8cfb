// The agent's words for a file's diagnostics (DESIGN §21): what the diagnostics tool and an
// edit's result say about what the file's language server reported.
#pragma once

#include "host/lsp/lsp_servers.hpp"

#include <cstddef>
#include <string>

namespace rio {

// An agent's words for a file's diagnostics at `severity` or worse (at most `max`), as a
// tool result carries them after an edit, or "" when there is nothing to say.
std::string diagnostics_words(const std::string& rel, const LspFileReport& report,
                              Severity severity, std::size_t max);
// How many of a report's diagnostics are at `severity` or worse (0 unless it was reported).
std::size_t problems_at(const LspFileReport& report, Severity severity);

} // namespace rio
