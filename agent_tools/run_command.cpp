// run_command: prepare checks the argv and the human-written allow-list; apply runs the
// program with rio's process runner (no shell, own session, timeout).
#include "agent_tools/allow_rules.hpp"
#include "agent_tools/command_sandbox.hpp"
#include "agent_tools/tool_table.hpp"
#include "host/files/files.hpp"
#include "host/files/project_file.hpp"
#include "host/process/command_environment.hpp"
#include "host/process/process_runner.hpp"
#include "host/proxy/host_rules.hpp"
#include "host/store/redact.hpp"
#include "protocol/params.hpp"
#include "text/argv_text.hpp"

#include <algorithm>
#include <cstdio>

namespace rio {
namespace {

constexpr std::uint64_t default_timeout_s = 120;
constexpr std::uint64_t max_timeout_s = 600;

struct CommandInput {
    std::vector<std::string> argv;
    ProjectPath cwd;
    std::uint64_t timeout_s = default_timeout_s;
    std::vector<std::string> hosts; // asked for: a person decides (issue 45)
};

// The hosts the model says the command needs, as rules write them back, each once.
Status read_hosts(const nlohmann::json& input, std::vector<std::string>& out) {
    auto hosts = input.find("hosts");
    if (hosts == input.end() || hosts->is_null()) return Ok{};
    if (!hosts->is_array())
        return make_error(ErrorCode::bad_request,
                          "input.hosts must be an array of host names, e.g. "
                          "[\"registry.npmjs.org\"]");
    for (const auto& entry : *hosts) {
        if (!entry.is_string())
            return make_error(ErrorCode::bad_request, "input.hosts must hold only strings");
        auto rule = read_host_rule(entry.get<std::string>());
        if (!rule)
            return make_error(ErrorCode::bad_request, "input.hosts: " + rule.error().message);
        if (std::string host = to_string(*rule);
            std::find(out.begin(), out.end(), host) == out.end())
            out.push_back(std::move(host));
    }
    return Ok{};
}

Result<CommandInput> read_input(ToolContext& context, const nlohmann::json& input) {
    CommandInput out;
    auto argv = input.find("argv");
    if (argv == input.end() || !argv->is_array() || argv->empty())
        return make_error(ErrorCode::bad_request,
                          "input.argv must be a non-empty array of strings, e.g. [\"make\", "
                          "\"test\"]");
    for (const auto& word : *argv) {
        if (!word.is_string())
            return make_error(ErrorCode::bad_request, "input.argv must hold only strings");
        out.argv.push_back(word.get<std::string>());
    }
    auto cwd = tool_path(context.workspace, context.dirs,
                         optional_string(input, "cwd", "input").value_or("."));
    if (!cwd) return cwd.error();
    std::error_code ec;
    if (!std::filesystem::is_directory(cwd->real, ec))
        return make_error(ErrorCode::not_found,
                          "the working folder " + cwd->rel + " does not exist");
    out.cwd = std::move(*cwd);
    out.timeout_s = optional_count(input, "timeout_s", "input").value_or(default_timeout_s);
    if (out.timeout_s == 0 || out.timeout_s > max_timeout_s)
        return make_error(ErrorCode::bad_request, "input.timeout_s must be between 1 and 600");
    if (Status hosts = read_hosts(input, out.hosts); !hosts) return hosts.error();
    return out;
}

CommandExit exit_of(const CommandResult& r) {
    return {r.signal || r.timed_out || r.cancelled ? std::nullopt : std::optional(r.exit_code),
            r.signal ? std::optional(r.signal) : std::nullopt, r.timed_out, r.cancelled,
            static_cast<double>(r.elapsed.count()) / 1000};
}

std::string describe(const std::vector<std::string>& argv, const CommandResult& r) {
    std::string out = "$ " + argv_text(argv) + "\n" + r.output;
    if (!r.output.empty() && r.output.back() != '\n') out += "\n";
    if (!r.limit.empty()) out += "[" + r.limit + "]\n"; // a sandbox limit it ran into
    if (!r.refused_hosts.empty()) {
        out += "[rio's proxy refused:";
        for (std::size_t i = 0; i < r.refused_hosts.size(); ++i)
            out += (i ? "; " : " ") + r.refused_hosts[i];
        out += "]\n";
    }
    return out + "[" + exit_text(exit_of(r)) + "]";
}

ToolCancel run_command(ToolContext& context, const RunTool& run, const ToolReportFn& report) {
    auto input = read_input(context, run.call.input);
    if (!input) {
        report(tool_error(run, "The command was not run: " + input.error().message + "."));
        return nullptr;
    }
    if (run.stage == ToolStage::prepare) {
        bool allowed = command_allowed(allow_rules(context), input->argv, input->cwd.rel);
        report(tool_ok(run, {},
                       ProposalBody{CommandProposal{input->argv, input->cwd.rel, input->timeout_s,
                                                    allowed, std::nullopt, input->hosts}}));
        return nullptr;
    }
    CommandSpec spec;
    spec.argv = input->argv;
    spec.cwd = input->cwd.real;
    spec.timeout = std::chrono::seconds(input->timeout_s);
    // Read for each command, so a change of the user's config.json applies to the next one.
    CommandSettings settings = configured_commands(context.dirs, home_folder());
    spec.env = command_environment_from_environ(
        context.hidden_env,
        {settings.pass_env, run.sandbox && run.sandbox->environment.value_or(false)});
    spec.output_cap = std::min(spec.output_cap, context.output_cap); // decision 0056
    // Sandboxed as the loop decided; a sandbox that cannot be had means not run at all.
    auto sandbox =
        command_sandbox(context, run.sandbox, std::chrono::seconds(input->timeout_s), settings);
    if (!sandbox) {
        report(tool_error(run, "The command was not run: " + sandbox.error().message + "."));
        return nullptr;
    }
    spec.sandbox = std::move(*sandbox);
    auto running = start_command(
        context.io, spec,
        [run, argv = input->argv, report,
         in_namespace = context.commands_in_namespace](CommandResult r) {
            if (!r.started) {
                report(tool_error(run, "The command could not start: " + r.error + "."));
                return;
            }
            bool failed = r.timed_out || r.cancelled || r.signal || r.exit_code != 0;
            std::string note = run.sandbox ? "\n" + sandbox_note(*run.sandbox, in_namespace) : "";
            ToolReport out = tool_ok(run, describe(argv, r) + note);
            out.is_error = failed;
            out.exit = exit_of(r);
            out.output = std::move(r.output);
            report(std::move(out));
        });
    return [running] { running->cancel(); };
}

} // namespace

AgentTool run_command_tool() {
    return {
        ToolSpec{
            std::string(tool_words::run_command.name), ToolKind::command,
            "Run a program in the project, without a shell: argv[0] is the program, the rest are "
            "its arguments (no pipes, redirections or globbing). Use it to build, test and verify. "
            "The user approves each command unless it is on their allow-list. Output is capped.",
            object_schema(
                {{"argv",
                  Json{{"type", "array"},
                       {"items", {{"type", "string"}}},
                       {"minItems", 1},
                       {"description", "Program and arguments, e.g. [\"make\", \"test\"]."}}},
                 {"cwd",
                  string_prop("Project-relative working folder. Default: the project root.")},
                 {"timeout_s", Json{{"type", "integer"},
                                    {"minimum", 1},
                                    {"maximum", 600},
                                    {"description", "Seconds before the command is killed. "
                                                    "Default 120, at most 600."}}},
                 {"hosts",
                  Json{{"type", "array"},
                       {"items", {{"type", "string"}}},
                       {"description",
                        "Hosts it must reach over the network, e.g. [\"registry.npmjs.org\"]; "
                        "the user decides. Without them it has no network."}}}},
                {"argv"})},
        run_command};
}

} // namespace rio
