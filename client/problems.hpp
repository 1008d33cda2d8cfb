// The project's problems as the language servers report them (DESIGN §21): a file's
// diagnostics by path, kept from lsp.diagnostics' answer and its events, for the desktop's
// Problems panel and squiggles and rio-cli's /problems. No Qt.
#pragma once

#include "protocol/messages.hpp"

#include <map>
#include <string>
#include <vector>

namespace rio::client {

class Problems {
public:
    void load(const LspDiagnosticsResult& all); // replaces everything
    void apply(const LspDiagnosticsEvent& event);
    void clear() { files_.clear(); }

    const std::map<std::string, FileDiagnostics>& files() const { return files_; }
    const std::vector<DiagnosticInfo>* of(const std::string& path) const;
    std::size_t count(Severity severity) const;
    // "2 errors, 1 warning", "no problems".
    std::string summary() const;

private:
    std::map<std::string, FileDiagnostics> files_; // only files that have some
};

// One line per diagnostic, for a terminal: "a.cpp:4:18: error: message [clang code]" (the
// column from 1, as compilers print it), errors and warnings before the rest, at most `max`
// with "… and N more".
std::vector<std::string> problem_lines(const Problems& problems, std::size_t max);

} // namespace rio::client
