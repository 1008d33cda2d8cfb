// diagnostics: what the project's language servers report about a file (waiting, bounded,
// for a file they had not seen), or every file they have reported on. Runs at once in
// every mode, plan mode included: it reads.
#include "agent_tools/diagnostics_words.hpp"
#include "agent_tools/tool_table.hpp"
#include "host/files/project_file.hpp"
#include "host/lsp/lsp_servers.hpp"
#include "protocol/params.hpp"

namespace rio {
namespace {

// Enough for the model to work through; the rest is counted.
constexpr std::size_t max_per_file = 50;
constexpr std::size_t max_files = 20;

std::string every_file(const LspServers& lsp) {
    LspDiagnosticsResult all = lsp.diagnostics(std::nullopt);
    if (all.files.empty())
        return "The language servers report no problems in the files they have seen (the "
               "files opened in the editor or touched by you).";
    std::string out;
    std::size_t shown = 0;
    for (const FileDiagnostics& file : all.files) {
        if (shown++ == max_files) {
            out += "\n\n… and " + std::to_string(all.files.size() - max_files) + " more files";
            break;
        }
        LspFileReport report;
        report.outcome = LspFileReport::Outcome::reported;
        report.server = file.server;
        report.diagnostics = file.diagnostics;
        if (!out.empty()) out += "\n\n";
        out += diagnostics_words(file.path, report, Severity::hint, max_per_file);
    }
    return out;
}

ToolCancel run_diagnostics(ToolContext& context, const RunTool& run, const ToolReportFn& report) {
    const nlohmann::json& input = run.call.input;
    if (!context.lsp) {
        report(tool_error(run, "No language servers run in this core."));
        return nullptr;
    }
    auto requested = optional_string(input, "path", "input");
    if (!requested) {
        report(tool_ok(run, every_file(*context.lsp)));
        return nullptr;
    }
    auto path = tool_path(context.workspace, context.dirs, *requested);
    if (!path) {
        report(tool_error(run, path.error().message));
        return nullptr;
    }
    LspServers* lsp = context.lsp;
    std::string rel = path->rel;
    std::uint64_t handle = lsp->await_diagnostics(rel, [run, report, rel](const LspFileReport& r) {
        if (r.outcome == LspFileReport::Outcome::no_server) {
            report(tool_ok(run, "No language server handles " + rel + " here (see lsp.list)."));
            return;
        }
        if (r.outcome == LspFileReport::Outcome::untrusted) {
            report(tool_ok(run, "No diagnostics: language servers start when the person trusts "
                                "this project (they would run its code), and it is not trusted. " +
                                    r.server + " would check " + rel +
                                    " then; until then, read the file instead."));
            return;
        }
        report(tool_ok(run, diagnostics_words(rel, r, Severity::hint, max_per_file)));
    });
    return [lsp, handle] { lsp->cancel_wait(handle); };
}

} // namespace

AgentTool diagnostics_tool() {
    return {ToolSpec{std::string(tool_words::diagnostics.name), ToolKind::read,
                     "The errors and warnings the project's language servers (clangd, pylsp, "
                     "typescript-language-server, …) report for a file, or for every file they "
                     "have checked when no path is given. Use it to find what is broken before "
                     "planning a fix, and to check a file after changing it.",
                     object_schema({{"path", string_prop("Project-relative path of the file to "
                                                         "check. Default: every file checked "
                                                         "so far.")}},
                                   {})},
            run_diagnostics};
}

} // namespace rio
