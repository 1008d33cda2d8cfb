#include "client/trace_words.hpp"

#include "client/session.hpp"
#include "protocol/tool_words.hpp"
#include "text/argv_text.hpp"
#include "text/one_line.hpp"
#include "text/trim.hpp"

#include <algorithm>
#include <cstdio>

namespace rio::client {
namespace {

// "a, b, c": hosts in a line.
std::string joined(const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items)
        text += (text.empty() ? "" : ", ") + item;
    return text;
}

// Cuts after `max_chars` code points (UTF-8 continuation bytes do not count).
std::string cut(std::string_view text, std::size_t max_chars) {
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
        if (++chars == max_chars && i + 1 < text.size()) {
            std::size_t rest = i + 1;
            while (rest < text.size() && (static_cast<unsigned char>(text[rest]) & 0xC0) == 0x80)
                ++rest;
            if (rest < text.size()) return std::string(text.substr(0, i)) + "…";
        }
    }
    return std::string(text);
}

std::string text_of(const Json& input, const char* key) {
    auto it = input.find(key);
    return it != input.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string kind_word(const Wire<ProposalKind>& kind) {
    const std::optional<ProposalKind> known = kind.value();
    if (!known) return "Proposal";
    switch (*known) {
    case ProposalKind::plan:
        return "Plan";
    case ProposalKind::edit:
        return "Edit";
    case ProposalKind::command:
        return "Command";
    case ProposalKind::mcp:
        return "MCP call";
    }
    return "Proposal";
}

} // namespace

std::string tool_verb(std::string_view tool) {
    const ToolWords* words = find_tool_words(tool);
    return std::string(words ? words->verb : tool);
}

std::string tool_activity(const ToolEvent& tool) {
    const ToolWords* words = find_tool_words(tool.name);
    std::string doing = words ? std::string(words->doing) : "using " + tool.name;
    if (words && !words->detail) return doing;
    std::string detail = tool_detail(tool);
    return detail.empty() ? doing : doing + " " + detail;
}

std::string argv_text(const Json& argv) {
    if (!argv.is_array()) return {};
    std::vector<std::string> words;
    for (const Json& word : argv)
        words.push_back(word.is_string() ? word.get<std::string>() : word.dump());
    return rio::argv_text(words);
}

namespace {
// A code span that holds any text: a fence longer than the backticks inside it.
std::string step_code_span(const std::string& text) {
    std::size_t run = 0, longest = 0;
    for (char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    std::string fence(longest + 1, '`');
    return fence + (longest ? " " + text + " " : text) + fence;
}
} // namespace

std::string comment_lines(std::optional<std::uint64_t> line,
                          std::optional<std::uint64_t> end_line) {
    if (!line) return {};
    if (!end_line || *end_line == *line) return "line " + std::to_string(*line);
    return "lines " + std::to_string(*line) + "-" + std::to_string(*end_line);
}

std::string review_threads_text(const std::vector<ReviewComment>& threads) {
    std::string out;
    for (const ReviewComment& c : threads) {
        std::string where = comment_lines(c.line, c.end_line);
        if (!where.empty()) where = " on " + where;
        out += one_line(c.id) + " (" + c.state.name() + (c.detached ? ", passage gone" : "") + ")" +
               where + " «" + one_line(first_line(c.quote, 40)) + "»: " + one_line(c.text) + "\n";
        for (const CommentReply& r : c.replies)
            out += std::string("  ") + (r.author == CommentAuthor::model ? "model: " : "you: ") +
                   one_line(r.text) + "\n";
    }
    return out;
}

std::size_t open_comment_count(const std::vector<ReviewComment>& threads) {
    return static_cast<std::size_t>(
        std::count_if(threads.begin(), threads.end(),
                      [](const ReviewComment& c) { return c.is(CommentState::open); }));
}

std::string declared_steps_text(const std::vector<DeclaredStep>& steps) {
    if (steps.empty()) return {};
    std::string out = "**Steps, approved with the plan**\n\n";
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const DeclaredStep& step = steps[i];
        std::string indent(std::to_string(i + 1).size() + 2, ' ');
        out += std::to_string(i + 1) + ". " + step.text + "\n";
        if (!step.files.empty()) {
            out += indent + "- files:";
            for (std::size_t f = 0; f < step.files.size(); ++f)
                out += (f ? ", " : " ") + step_code_span(step.files[f]);
            out += "\n";
        }
        if (step.check) {
            out += indent + "- check: " + step_code_span(rio::argv_text(step.check->argv));
            if (!step.check->cwd.empty()) out += " in " + step_code_span(step.check->cwd);
            out += step.check->writes ? " (may write to the project)" : " (read-only)";
            out += "\n";
        } else {
            out += indent + "- no check: done when the agent says so\n";
        }
    }
    return out;
}

std::string mcp_call_text(const McpProposal& call, std::size_t max_chars) {
    std::string arguments = call.arguments.dump(-1, ' ', false, Json::error_handler_t::replace);
    return call.server + " · " + call.tool + " " + cut(arguments, max_chars);
}

std::string tool_detail(const ToolEvent& tool) {
    const Json& input = tool.input;
    if (!input.is_object()) return {};
    if (input.contains("argv")) return argv_text(input["argv"]);
    if (input.contains("pattern")) {
        std::string path = text_of(input, "path");
        return "\"" + text_of(input, "pattern") + "\"" + (path.empty() ? "" : " in " + path);
    }
    if (input.contains("title")) return "\"" + text_of(input, "title") + "\"";
    if (input.contains("description") && input.contains("prompt")) { // task
        std::string agent = text_of(input, "agent");
        return "\"" + text_of(input, "description") + "\"" +
               (agent.empty() ? "" : " (" + agent + ")");
    }
    if (input.contains("path")) {
        std::string path = text_of(input, "path");
        return path.empty() || path == "." ? "the project" : path;
    }
    return {};
}

std::string tool_sandbox(const ToolEvent& tool) {
    return tool.sandbox ? sandbox_text(*tool.sandbox) : std::string();
}

std::string sandbox_status_text(const SandboxState& sandbox) {
    if (!sandbox.available) return "sandbox: none (" + one_line(sandbox.reason) + ")";
    std::string text = "sandbox: Landlock ABI " + std::to_string(sandbox.abi) + ", seccomp";
    if (sandbox.top_level)
        text += *sandbox.top_level == TopLevelWrites::writable
                    ? "\n  top level: a build command may create entries there; .git/ and .rio/ "
                      "are bound read-only in its own mount namespace"
                    : "\n  top level: a build command may write only what already exists there (" +
                          one_line(sandbox.top_level_reason.value_or("")) + ")";
    if (sandbox.tmpdir) text += "\n  TMPDIR: " + one_line(*sandbox.tmpdir);
    if (sandbox.network)
        text += *sandbox.network == NetworkReach::by_host
                    ? "\n  network: none, or some hosts through rio's proxy in the command's own "
                      "network namespace, or all of it — as a person approves"
                    : "\n  network: none or all of it (" +
                          one_line(sandbox.network_reason.value_or("")) + ")";
    if (sandbox.hosts && !sandbox.hosts->empty())
        text += "\n  standing hosts (sandbox.hosts in config.json): " + joined(*sandbox.hosts);
    for (const std::string& limit : sandbox.limits.value_or(std::vector<std::string>{}))
        text += "\n  " + one_line(limit);
    return text;
}

std::string proposal_sandbox(const Proposal& proposal) {
    const CommandProposal* command = proposal.command();
    return command && command->sandbox ? sandbox_text(*command->sandbox) : std::string();
}

std::string asked_hosts_text(const Proposal& proposal) {
    const CommandProposal* command = proposal.command();
    return command && !command->hosts.empty() ? "asks for the network to " + joined(command->hosts)
                                              : std::string();
}

ToolOutcome tool_outcome(const ToolResultEvent& result) {
    if (result.exit)
        return {exit_text(*result.exit) +
                    (result.sandbox ? " · " + sandbox_text(*result.sandbox) : std::string()),
                !result.ok};
    if (result.ok) return {};
    return {first_line(result.content), true};
}

std::string subagent_text(const SubagentEvent& event) {
    const std::optional<SubagentState> state = event.state.value();
    if (!state) return {}; // a newer core's state this build does not know
    switch (*state) {
    case SubagentState::started:
        return "started" + (event.text.empty() ? std::string() : " · " + first_line(event.text));
    case SubagentState::tool: {
        std::string detail = tool_detail(ToolEvent{event.turn, event.call, event.tool, event.input,
                                                   ToolKind::read, std::nullopt});
        return tool_verb(event.tool) + (detail.empty() ? "" : " " + detail);
    }
    case SubagentState::result:
        return event.ok ? std::string() : "✗ " + first_line(event.text);
    case SubagentState::done:
        return "answered: " + first_line(event.text);
    case SubagentState::failed:
        return "failed: " + first_line(event.text);
    case SubagentState::stopped:
        return "stopped";
    }
    return {};
}

std::string progress_text(const ToolProgressEvent& progress) {
    auto number = [](double value) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.2f", value);
        std::string text = buffer;
        while (text.back() == '0')
            text.pop_back();
        if (text.back() == '.') text.pop_back();
        return text;
    };
    std::string text = number(progress.progress);
    if (progress.total) text += " of " + number(*progress.total);
    if (progress.message && !first_line(*progress.message).empty())
        text += " · " + first_line(*progress.message, 120);
    return text;
}

std::string decision_text(const DecidedEvent& decided) {
    const bool approved = decided.approved();
    std::size_t comments = decided.comments ? decided.comments->size() : 0;
    std::string text = kind_word(decided.kind) + (approved ? " approved" : " rejected");
    const bool command = decided.is(ProposalKind::command);
    if (command && approved) text = "Command allowed to run";
    if (command && approved && decided.unsandboxed.value_or(false))
        text += " without the sandbox";
    else if (command && approved && decided.network && decided.network->everything)
        text += " with the network";
    else if (command && approved && decided.network && !decided.network->items.empty())
        text += " with the network to " + joined(decided.network->items) +
                (decided.keep_hosts.value_or(false) ? " (kept for later commands)" : "");
    else if (command && approved && decided.environment.value_or(false))
        text += " with your environment";
    if (decided.is(ProposalKind::mcp) && approved) text = "MCP call allowed";
    if (comments > 0)
        text = std::string(approved ? "Plan approved with notes" : "Changes requested") + " (" +
               std::to_string(comments) + (comments == 1 ? " comment)" : " comments)");
    if (approved && decided.fresh.value_or(false)) text += " — in a fresh context";
    if (approved && decided.policy == ApprovalPolicy::review) text += " — review each edit";
    if (approved && decided.policy == ApprovalPolicy::automatic) text += " — auto-accept edits";
    if (approved && decided.rest_of_turn.value_or(false))
        text += ", and the rest of this turn's edits";
    if (decided.feedback && !decided.feedback->empty())
        text += ": " + first_line(*decided.feedback);
    return text;
}

std::string rejection_words(const DecidedEvent& decided) {
    const bool plan = decided.is(ProposalKind::plan);
    std::size_t comments = decided.comments ? decided.comments->size() : 0;
    if (decided.feedback && !first_line(*decided.feedback).empty())
        return (plan ? "You asked for changes: " : "You rejected it: ") +
               first_line(*decided.feedback);
    if (comments > 0)
        return "You asked for changes (" + std::to_string(comments) +
               (comments == 1 ? " comment)" : " comments)");
    return plan ? "You rejected the plan" : "You rejected it";
}

namespace {

// "987", "1,234", "12.3k", "123k", "1.2M": a count read at a glance.
std::string count_text(std::uint64_t n) {
    const auto tenths = [](std::uint64_t value, std::uint64_t unit, const char* suffix) {
        std::uint64_t t = (value * 10 + unit / 2) / unit;
        return std::to_string(t / 10) + "." + std::to_string(t % 10) + suffix;
    };
    if (n < 1000) return std::to_string(n);
    if (n < 10000) {
        std::string low = std::to_string(n % 1000);
        return std::to_string(n / 1000) + "," + std::string(3 - low.size(), '0') + low;
    }
    if (n < 99950) return tenths(n, 1000, "k");
    if (n < 999500) return std::to_string((n + 500) / 1000) + "k";
    return tenths(n, 1000000, "M");
}

} // namespace

std::string usage_text(const TurnUsage& usage) {
    if (usage.calls == 0) return {};
    std::string text = count_text(usage.input_tokens) + " tokens in";
    if (usage.cache_read_tokens > 0)
        text += " · " + count_text(usage.cache_read_tokens) + " cache read";
    if (usage.cache_write_tokens > 0)
        text += " · " + count_text(usage.cache_write_tokens) + " cache write";
    return text + " · " + count_text(usage.output_tokens) + " out";
}

int context_percent(const ContextInfo& context) {
    if (context.window == 0) return 0;
    return static_cast<int>(std::min<std::uint64_t>(100, context.used * 100 / context.window));
}

std::string context_text(const ContextInfo& context) {
    return std::string(context.estimated ? "≈" : "") + count_text(context.used) + " / " +
           count_text(context.window) + " tokens (" + std::to_string(context_percent(context)) +
           "%)";
}

std::string note_text(const NoteEvent& e) {
    return "rio told the model: " + e.text;
}

std::string compacted_text(const CompactedEvent& e) {
    std::string text =
        "Context compacted: " + count_text(e.before) + " → " + count_text(e.after) + " tokens (";
    if (e.cleared > 0)
        text += std::to_string(e.cleared) + " tool output" + (e.cleared == 1 ? "" : "s") +
                " cleared" + (e.summarized ? ", " : "");
    if (e.summarized) text += "older turns summarized";
    if (e.cleared == 0 && !e.summarized) text += "nothing could be cleared";
    text += ")";
    if (!e.note.empty()) text += "; " + e.note;
    return text;
}

std::string plan_report_text(const PlanReportEvent& report) {
    std::string out;
    for (const std::string& path : report.unplanned)
        out += (out.empty() ? "" : ", ") + path;
    return out.empty() ? out : "Changed but not named in the plan: " + out;
}

namespace {

std::size_t count_of(const std::vector<PlanStep>& steps, StepStatus status) {
    return static_cast<std::size_t>(
        std::count_if(steps.begin(), steps.end(), [&](const PlanStep& s) { return s.is(status); }));
}

} // namespace

std::string receipt_summary_line(const PlanReportEvent& report) {
    if (!report.receipt_text) return {};
    std::string_view text = *report.receipt_text;
    std::size_t start = text.find('\n');
    while (start != std::string_view::npos && start + 1 < text.size() && text[start + 1] == '\n')
        ++start;
    if (start == std::string_view::npos) return {};
    return first_line(text.substr(start + 1), 300);
}

std::string plan_progress_line(const PlanProgressEvent& progress) {
    const std::vector<PlanStep>& steps = progress.steps;
    std::string tally =
        std::to_string(count_of(steps, StepStatus::done)) + "/" + std::to_string(steps.size());
    const PlanStep* at = nullptr;
    for (StepStatus status : {StepStatus::in_progress, StepStatus::failed, StepStatus::pending})
        for (const PlanStep& s : steps)
            if (!at && s.is(status)) at = &s;
    std::string line = at ? tally + " ▸ " + at->text : tally + " done";
    if (progress.drift && !progress.drift->empty())
        line += " · " + progress.drift->front() +
                (progress.drift->size() > 1
                     ? " and " + std::to_string(progress.drift->size() - 1) + " more"
                     : std::string()) +
                " changed since approval";
    return line;
}

std::string plan_summary_text(const PlanProgressEvent& progress) {
    const std::vector<PlanStep>& steps = progress.steps;
    std::string out = "plan: " + std::to_string(count_of(steps, StepStatus::done)) + "/" +
                      std::to_string(steps.size()) + " done";
    std::size_t unverified = static_cast<std::size_t>(std::count_if(
        steps.begin(), steps.end(), [](const PlanStep& s) { return s.verified == false; }));
    if (unverified && progress.declared) out += " (" + std::to_string(unverified) + " unverified)";
    if (std::size_t failed = count_of(steps, StepStatus::failed))
        out += ", " + std::to_string(failed) + " failed";
    if (std::size_t skipped = count_of(steps, StepStatus::skipped))
        out += ", " + std::to_string(skipped) + " skipped";
    if (std::size_t n = progress.unplanned.size())
        out += " · " + std::to_string(n) + (n == 1 ? " file" : " files") + " outside the plan";
    if (std::size_t n = progress.drift ? progress.drift->size() : 0)
        out +=
            " · " + std::to_string(n) + (n == 1 ? " file" : " files") + " changed since approval";
    return out;
}

std::string plan_steps_text(const std::vector<PlanStep>& steps) {
    std::string out;
    for (const PlanStep& s : steps) {
        std::string box = s.is(StepStatus::done)          ? "[x]"
                          : s.is(StepStatus::failed)      ? "[!]"
                          : s.is(StepStatus::in_progress) ? "[>]"
                          : s.is(StepStatus::skipped)     ? "[-]"
                                                          : "[ ]";
        out += box + " " + std::to_string(s.n) + ". " + s.text;
        if (s.verified) out += *s.verified ? " (verified)" : " (unverified)";
        if (s.is(StepStatus::failed) && s.check) out += " (" + step_check_text(s) + ")";
        if (s.note) out += " — " + first_line(*s.note, 200);
        out += "\n";
    }
    return out;
}

std::string step_check_text(const PlanStep& step) {
    if (!step.check) return {};
    const CheckRun& run = *step.check;
    std::string how =
        !run.failure.empty() ? run.failure : "exit " + std::to_string(run.exit.value_or(-1));
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, ", %.1f s", run.seconds);
    return std::string(run.passed() ? "check passed: " : "check failed: ") +
           first_line(argv_text(run.argv), 80) + ", " + how + (run.failure.empty() ? seconds : "");
}

std::string recheck_text(const PlanStep& step) {
    const std::string n = std::to_string(step.n);
    std::string status = step.is(StepStatus::done)
                             ? (step.verified == true ? "done, verified" : "done")
                             : step.status;
    return "Step " + n + " (" + first_line(step.text, 60) + "): " + step_check_text(step) +
           ". Step " + n + " is " + status + ".";
}

bool declared_step_unverified(const PlanProgressEvent& progress) {
    if (!progress.declared) return false;
    return std::any_of(progress.steps.begin(), progress.steps.end(), [](const PlanStep& s) {
        if (s.is(StepStatus::skipped)) return false;
        return !s.is(StepStatus::done) || s.verified != true;
    });
}

std::string first_line(std::string_view text, std::size_t max_chars) {
    std::string_view rest = trimmed(text);
    return cut(trimmed(rest.substr(0, rest.find('\n'))), max_chars);
}

} // namespace rio::client
