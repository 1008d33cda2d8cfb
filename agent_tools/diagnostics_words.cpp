#include "agent_tools/diagnostics_words.hpp"

#include <algorithm>

namespace rio {
namespace {

// Most severe first; a name this build does not know counts as an error.
bool at_least(const DiagnosticInfo& d, Severity severity) {
    return static_cast<int>(d.severity.value().value_or(Severity::error)) <=
           static_cast<int>(severity);
}

std::string seconds_words(std::chrono::milliseconds ms) {
    auto tenths = (ms.count() + 50) / 100;
    std::string n = std::to_string(tenths / 10);
    if (tenths % 10) n += "." + std::to_string(tenths % 10);
    return n + (tenths == 10 ? " second" : " seconds");
}

} // namespace

std::size_t problems_at(const LspFileReport& report, Severity severity) {
    if (report.outcome != LspFileReport::Outcome::reported) return 0;
    return static_cast<std::size_t>(
        std::count_if(report.diagnostics.begin(), report.diagnostics.end(),
                      [&](const DiagnosticInfo& d) { return at_least(d, severity); }));
}

std::string diagnostics_words(const std::string& rel, const LspFileReport& report,
                              Severity severity, std::size_t max) {
    using Outcome = LspFileReport::Outcome;
    switch (report.outcome) {
    case Outcome::no_server:
    case Outcome::untrusted:
        return "";
    case Outcome::failed:
        return report.server + " could not check " + rel + " (" + report.why + ").";
    case Outcome::timed_out:
        return report.server + " had not reported on " + rel + " within " +
               seconds_words(report.waited_at_most) + ".";
    case Outcome::reported:
        break;
    }
    std::vector<const DiagnosticInfo*> shown;
    for (const DiagnosticInfo& d : report.diagnostics)
        if (at_least(d, severity)) shown.push_back(&d);
    std::string what = severity == Severity::error ? "errors" : "problems";
    if (shown.empty()) return report.server + " reports no " + what + " in " + rel + ".";
    std::string out = report.server + " reports " + std::to_string(shown.size()) + " " +
                      (shown.size() == 1 ? what.substr(0, what.size() - 1) : what) + " in " + rel +
                      ":";
    for (std::size_t i = 0; i < shown.size() && i < max; ++i) {
        const DiagnosticInfo& d = *shown[i];
        out += "\n" + rel + ":" + std::to_string(d.line) + ":" + std::to_string(d.column + 1) +
               ": " + d.severity.name() + ": " + d.message;
        if (!d.source.empty() || !d.code.empty())
            out += " [" + d.source + (d.source.empty() || d.code.empty() ? "" : " ") + d.code + "]";
    }
    if (shown.size() > max) out += "\n… and " + std::to_string(shown.size() - max) + " more";
    return out;
}

} // namespace rio
