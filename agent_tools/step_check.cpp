#include "agent_tools/step_check.hpp"

#include "agent_tools/command_sandbox.hpp"
#include "agent_tools/plan_files.hpp"
#include "agent_tools/tool_table.hpp"
#include "host/files/project_file.hpp"
#include "host/process/command_environment.hpp"
#include "host/process/process_runner.hpp"
#include "text/argv_text.hpp"

#include <algorithm>

namespace rio {
namespace {

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
                                     check.files = named_files(context.workspace, files).files;
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
