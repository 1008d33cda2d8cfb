#include "client/problems.hpp"

namespace rio::client {
namespace {

std::string counted(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string line_of(const std::string& path, const DiagnosticInfo& d) {
    std::string out = path + ":" + std::to_string(d.line) + ":" + std::to_string(d.column + 1) +
                      ": " + d.severity.name() + ": " + d.message;
    if (!d.source.empty() || !d.code.empty())
        out += " [" + d.source + (d.source.empty() || d.code.empty() ? "" : " ") + d.code + "]";
    return out;
}

} // namespace

void Problems::load(const LspDiagnosticsResult& all) {
    files_.clear();
    for (const FileDiagnostics& file : all.files)
        if (!file.diagnostics.empty()) files_[file.path] = file;
}

void Problems::apply(const LspDiagnosticsEvent& event) {
    if (event.diagnostics.empty())
        files_.erase(event.path);
    else
        files_[event.path] = event;
}

const std::vector<DiagnosticInfo>* Problems::of(const std::string& path) const {
    auto it = files_.find(path);
    return it == files_.end() ? nullptr : &it->second.diagnostics;
}

std::size_t Problems::count(Severity severity) const {
    std::size_t n = 0;
    for (const auto& [path, file] : files_)
        for (const DiagnosticInfo& d : file.diagnostics)
            n += d.severity == severity;
    return n;
}

std::string Problems::summary() const {
    std::size_t errors = count(Severity::error), warnings = count(Severity::warning);
    std::size_t others = 0;
    for (const auto& [path, file] : files_)
        others += file.diagnostics.size();
    others -= errors + warnings;
    if (errors + warnings + others == 0) return "no problems";
    std::string out;
    auto add = [&out](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
    if (errors) add(counted(errors, "error", "errors"));
    if (warnings) add(counted(warnings, "warning", "warnings"));
    if (others) add(counted(others, "note", "notes"));
    return out;
}

std::vector<std::string> problem_lines(const Problems& problems, std::size_t max) {
    std::vector<std::string> serious, rest;
    for (const auto& [path, file] : problems.files())
        for (const DiagnosticInfo& d : file.diagnostics)
            (d.severity == Severity::error || d.severity == Severity::warning ? serious : rest)
                .push_back(line_of(path, d));
    serious.insert(serious.end(), rest.begin(), rest.end());
    if (serious.size() > max) {
        std::size_t more = serious.size() - max;
        serious.resize(max);
        serious.push_back("… and " + std::to_string(more) + " more");
    }
    return serious;
}

} // namespace rio::client
