#include "agent_tools/step_check.hpp"

#include "agent_tools/command_sandbox.hpp"
#include "agent_tools/tool_table.hpp"
#include "core/sha256.hpp"
#include "host/files/project_file.hpp"
#include "host/files/project_files.hpp"
#include "host/process/command_environment.hpp"
#include "host/process/process_runner.hpp"
#include "host/search/file_list.hpp"
#include "text/argv_text.hpp"

#include <algorithm>

namespace rio {
namespace {

bool is_glob(std::string_view path) {
    return path.find_first_of("*?[{") != std::string_view::npos;
}

std::string hash_of(const Workspace& workspace, std::string_view rel) {
    auto path = workspace_path(workspace, rel);
    if (!path) return {};
    auto bytes = read_project_file(*path);
    return bytes ? sha256_hex(*bytes) : std::string();
}

// Why it did not run to an exit, "" when it did.
std::string failure_of(const CommandResult& r, std::chrono::seconds timeout) {
    if (!r.started) return "could not start: " + r.error;
    if (r.timed_out) return "timed out after " + std::to_string(timeout.count()) + " s";
    if (r.cancelled) return "stopped before it finished";
    if (r.signal) return "killed by signal " + std::to_string(r.signal);
    return {};
}

void report_failure(const RunTool& run, CheckRun check, std::string why,
                    const ToolReportFn& report) {
    check.failure = std::move(why);
    report(tool_ok(run, "", std::move(check)));
}

} // namespace

std::vector<FileHash> step_file_hashes(const Workspace& workspace,
                                       const std::vector<std::string>& files) {
    std::vector<FileHash> out;
    std::vector<std::string> globs;
    for (const std::string& file : files) {
        if (is_glob(file))
            globs.push_back(file);
        else if (out.size() < max_hashed_files)
            out.push_back({file, hash_of(workspace, file)});
    }
    if (!globs.empty() && workspace.root && out.size() < max_hashed_files) {
        // A glob the search cannot read matches nothing: it was accepted and shown with the plan.
        if (auto matcher = PathGlobs::make(globs)) {
            FileList listed = list_project_files(*workspace.root, LiveText{},
                                                 max_hashed_files - out.size(), *matcher);
            for (std::string& rel : listed.files)
                if (std::none_of(out.begin(), out.end(),
                                 [&](const FileHash& h) { return h.path == rel; }))
                    out.push_back({rel, hash_of(workspace, rel)});
        }
    }
    return out;
}

ToolCancel run_step_check(ToolContext& context, const RunTool& run, const ToolReportFn& report) {
    const StepToCheck& step = *run.check;
    const std::string cwd = step.check.cwd.empty() ? "." : step.check.cwd;
    CheckRun check{step.check.argv, cwd,
                   run.sandbox ? std::string(run.sandbox->profile.name()) : std::string()};
    CommandSettings settings = configured_commands(context.dirs, home_folder());
    auto folder = tool_path(context.workspace, context.dirs, cwd);
    if (!folder) {
        report_failure(run, std::move(check), "not run: " + folder.error().message, report);
        return nullptr;
    }
    std::error_code ec;
    if (!std::filesystem::is_directory(folder->real, ec)) {
        report_failure(run, std::move(check),
                       "not run: the working folder " + folder->rel + " does not exist", report);
        return nullptr;
    }
    const std::chrono::seconds timeout = settings.check_timeout;
    auto sandbox = command_sandbox(context, run.sandbox, timeout, settings);
    if (!sandbox || !*sandbox) { // a check never runs unsandboxed
        report_failure(run, std::move(check),
                       "not run: " +
                           (sandbox ? std::string("the sandbox is off") : sandbox.error().message),
                       report);
        return nullptr;
    }
    CommandSpec spec;
    spec.argv = step.check.argv;
    spec.cwd = folder->real;
    spec.timeout = timeout;
    spec.env = command_environment_from_environ(context.hidden_env, {settings.pass_env, false});
    spec.output_cap = std::min(spec.output_cap, context.output_cap);
    spec.sandbox = std::move(*sandbox);
    auto running = start_command(context.io, spec,
                                 [&context, run, report, check = std::move(check),
                                  files = step.files, timeout](CommandResult r) mutable {
                                     check.failure = failure_of(r, timeout);
                                     if (check.failure.empty()) check.exit = r.exit_code;
                                     check.seconds = static_cast<double>(r.elapsed.count()) / 1000;
                                     check.files = step_file_hashes(context.workspace, files);
                                     check.at = iso_time(context.now());
                                     if (!r.limit.empty())
                                         r.output +=
                                             "\n[" + r.limit + "]"; // a sandbox limit it ran into
                                     ToolReport out = tool_ok(run, "", std::move(check));
                                     out.output = std::move(r.output);
                                     report(std::move(out));
                                 });
    return [running] { running->cancel(); };
}

} // namespace rio
