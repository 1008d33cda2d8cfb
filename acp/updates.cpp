#include "acp/updates.hpp"

#include "client/trace_words.hpp"
#include "protocol/tool_words.hpp"
#include "text/argv_text.hpp"
#include "text/command_output.hpp"

#include <algorithm>

namespace rio::acp {
namespace {

constexpr std::size_t max_result_text = 16 * 1024;

struct ModeInfo {
    client::ModeChoice choice;
    const char* id;
    const char* name;
    const char* description;
};

constexpr ModeInfo modes[] = {
    {client::ModeChoice::plan, "plan", "Plan",
     "Read-only: the agent investigates and presents a plan; nothing changes until you "
     "approve it"},
    {client::ModeChoice::review, "review", "Review", "The agent may edit; you approve each edit"},
    {client::ModeChoice::auto_accept, "auto", "Auto",
     "Edits are applied without asking; commands still ask"},
};

std::string kind_of(std::string_view tool) {
    const ToolWords* words = find_tool_words(tool);
    return std::string(words ? words->acp_kind : "other");
}

std::string absolute(const std::string& root, const std::string& path) {
    if (path.empty() || path == ".") return root;
    if (path.front() == '/') return path;
    return root + "/" + path;
}

std::string title_of(const ToolEvent& tool) {
    std::string detail = client::tool_detail(tool);
    std::string sandbox = client::tool_sandbox(tool);
    return client::first_line(client::tool_verb(tool.name) + (detail.empty() ? "" : " " + detail),
                              160) +
           (sandbox.empty() ? "" : " (" + sandbox + ")");
}

Json option(const char* id, const std::string& name, const char* kind) {
    return {{"optionId", id}, {"name", name}, {"kind", kind}};
}

Json text_content(std::string text) {
    return {{"type", "content"}, {"content", {{"type", "text"}, {"text", std::move(text)}}}};
}

// Markdown an editor shows as a block of the command's output (its end, when long: where a
// failing test says why) and the exit under it. The fence is longer than any run of
// backticks in the output, so the output cannot end it.
std::string command_result_text(const std::string& output, const CommandExit& exit) {
    std::string plain = plain_output(output);
    std::string_view shown = output_tail(plain, max_result_text);
    std::size_t run = 0, longest = 0;
    for (char c : shown)
        longest = std::max(longest, run = c == '`' ? run + 1 : 0);
    std::string fence(std::max<std::size_t>(3, longest + 1), '`');
    std::string text;
    if (shown.size() < plain.size()) text += "…\n";
    if (!shown.empty()) {
        text += fence + "\n" + std::string(shown);
        if (shown.back() != '\n') text += "\n";
        text += fence + "\n";
    }
    return text + exit_text(exit);
}

} // namespace

std::string mode_id(client::ModeChoice choice) {
    for (const ModeInfo& m : modes)
        if (m.choice == choice) return m.id;
    return "review";
}

std::optional<client::ModeChoice> mode_from_id(std::string_view id) {
    for (const ModeInfo& m : modes)
        if (id == m.id) return m.choice;
    return std::nullopt;
}

Json modes_state(client::ModeChoice current) {
    Json available = Json::array();
    for (const ModeInfo& m : modes)
        available.push_back({{"id", m.id}, {"name", m.name}, {"description", m.description}});
    return {{"currentModeId", mode_id(current)}, {"availableModes", std::move(available)}};
}

Json mode_config_options(client::ModeChoice current) {
    Json options = Json::array();
    for (const ModeInfo& m : modes)
        options.push_back({{"value", m.id}, {"name", m.name}, {"description", m.description}});
    return Json::array({{{"id", "mode"},
                         {"name", "Mode"},
                         {"category", "mode"},
                         {"type", "select"},
                         {"currentValue", mode_id(current)},
                         {"options", std::move(options)}}});
}

Json text_chunk(std::string_view kind, const std::string& text) {
    return {{"sessionUpdate", kind}, {"content", {{"type", "text"}, {"text", text}}}};
}

Json tool_call(const ToolEvent& tool, const std::string& root) {
    Json update{{"sessionUpdate", "tool_call"}, {"toolCallId", tool.id},
                {"title", title_of(tool)},      {"kind", kind_of(tool.name)},
                {"status", "in_progress"},      {"rawInput", tool.input}};
    if (!tool.input.is_object()) return update;
    auto path = tool.input.find("path");
    if (path == tool.input.end() || !path->is_string()) return update;
    const std::string where = absolute(root, path->get<std::string>());
    update["locations"] = Json::array({{{"path", where}}});
    // What an edit changes, as the model wrote it: the replaced passage and its replacement,
    // or a new file's whole text (an edit that waits for approval shows the whole file).
    auto text = [&](const char* key) { return tool.input.value(key, std::string()); };
    const ToolWords* words = find_tool_words(tool.name);
    const ToolDiff diff = words ? words->diff : ToolDiff::none;
    if (diff == ToolDiff::replaced)
        update["content"] = Json::array({{{"type", "diff"},
                                          {"path", where},
                                          {"oldText", text("old_string")},
                                          {"newText", text("new_string")}}});
    if (diff == ToolDiff::whole)
        update["content"] =
            Json::array({{{"type", "diff"}, {"path", where}, {"newText", text("content")}}});
    return update;
}

Json tool_call_update(const ToolResultEvent& result) {
    std::string text = result.content.size() > max_result_text
                           ? result.content.substr(0, max_result_text) + "\n…"
                           : result.content;
    if (result.output && result.exit) text = command_result_text(*result.output, *result.exit);
    // The model's text already ends with how the command ran; an unsandboxed one says so too.
    if (result.sandbox && result.sandbox->profile == SandboxProfile::none)
        text += "\n(" + sandbox_text(*result.sandbox) + ")";
    return {{"sessionUpdate", "tool_call_update"},
            {"toolCallId", result.id},
            {"status", result.ok ? "completed" : "failed"},
            {"content", Json::array({text_content(std::move(text))})}};
}

Json tool_call_progress(const ToolProgressEvent& progress) {
    return {{"sessionUpdate", "tool_call_update"},
            {"toolCallId", progress.id},
            {"status", "in_progress"},
            {"content", Json::array({text_content(client::progress_text(progress))})}};
}

Json subagent_update(const std::string& call_id, const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines)
        text += (text.empty() ? "" : "\n") + line;
    return {{"sessionUpdate", "tool_call_update"},
            {"toolCallId", call_id},
            {"status", "in_progress"},
            {"content", Json::array({text_content(std::move(text))})}};
}

Json plan_update(const PlanProgressEvent& progress) {
    Json entries = Json::array();
    for (const PlanStep& step : progress.steps) {
        std::string content = step.text;
        std::string status = step.is(StepStatus::done) ? "completed" : step.status;
        if (step.is(StepStatus::skipped)) {
            status = "completed";
            content += " (skipped" + (step.note ? ": " + *step.note : std::string()) + ")";
        }
        // ACP has no failed: a step whose check did not pass is still to do (decision 0082).
        if (step.is(StepStatus::failed)) {
            status = "pending";
            content += " (" + client::step_check_text(step) + ")";
        }
        if (step.verified == false && progress.declared) content += " (unverified)";
        entries.push_back({{"content", content}, {"priority", "medium"}, {"status", status}});
    }
    return {{"sessionUpdate", "plan"}, {"entries", std::move(entries)}};
}

Json permission_request(const std::string& session_id, const Proposal& p, const std::string& root,
                        bool by_host) {
    Json call{{"toolCallId", p.id}, {"status", "pending"}};
    Json options;
    if (const PlanProposal* plan = p.plan()) {
        call["title"] = "Plan: " + plan->title;
        call["kind"] = "switch_mode";
        call["content"] = Json::array({text_content(plan->plan)});
        // The steps and their checks are approved with the plan: the person sees them here.
        if (std::string steps = client::declared_steps_text(plan->steps); !steps.empty())
            call["content"].push_back(text_content(steps));
        // Its review threads (issue 44), and the options say how many are still open: the
        // person approves past them knowingly.
        if (std::string threads = client::review_threads_text(plan->comments); !threads.empty())
            call["content"].push_back(text_content("Review comments:\n" + threads));
        std::size_t open = client::open_comment_count(plan->comments);
        std::string despite = open == 0 ? ""
                              : open == 1
                                  ? " (1 comment is still open)"
                                  : " (" + std::to_string(open) + " comments are still open)";
        // A plan is never approved by the bridge: the person picks, every time.
        options =
            Json::array({option("auto", "Yes, and auto-accept edits" + despite, "allow_always"),
                         option("review", "Yes, and review each edit" + despite, "allow_once"),
                         option("reject", "No, keep planning", "reject_once")});
    } else if (const EditProposal* edit = p.edit()) {
        const std::string path = absolute(root, edit->path);
        call["title"] = "Edit " + edit->path;
        call["kind"] = "edit";
        Json diff{{"type", "diff"}, {"path", path}, {"newText", edit->after.value_or("")}};
        if (edit->before) diff["oldText"] = *edit->before;
        call["content"] = Json::array();
        // Drift (issue 43): said before the edit, which is made against the changed file.
        if (edit->drift) call["content"].push_back(text_content(*edit->drift));
        call["content"].push_back(std::move(diff));
        call["locations"] = Json::array({{{"path", path}}});
        options = Json::array({option("allow", "Apply this edit", "allow_once"),
                               option("reject", "Reject", "reject_once")});
    } else if (const McpProposal* mcp = p.mcp()) {
        call["title"] = "Call " + mcp->tool + " of the MCP server " + mcp->server;
        call["kind"] = "other";
        call["content"] = Json::array({text_content(client::mcp_call_text(*mcp))});
        options = Json::array(
            {option("allow", "Call it", "allow_once"), option("reject", "Reject", "reject_once")});
    } else if (const CommandProposal* command = p.command()) {
        const std::string& cwd = command->cwd;
        std::string line = argv_text(command->argv);
        call["title"] = "Run " + line;
        call["kind"] = "execute";
        std::string sandbox = client::proposal_sandbox(p);
        std::string asked = client::asked_hosts_text(p);
        call["content"] = Json::array(
            {text_content("$ " + line + (cwd.empty() || cwd == "." ? "" : "   (in " + cwd + ")") +
                          (sandbox.empty() ? "" : "\n(" + sandbox + ")") +
                          (asked.empty() ? "" : "\nIt " + asked))});
        options = Json::array({option("allow", "Run it", "allow_once")});
        // A sandboxed command may be let out for this one call (DESIGN §19), or to the hosts
        // it asks for, once or for good (issue 45).
        if (command->sandbox && command->sandbox->profile == SandboxProfile::workspace_write) {
            if (by_host && !command->hosts.empty()) {
                options.push_back(
                    option("allow_hosts", "Run it with the network to those hosts", "allow_once"));
                options.push_back(option("allow_hosts_always",
                                         "Run it, and let every command reach those hosts",
                                         "allow_always"));
            }
            options.push_back(option("allow_network", "Run it with the network", "allow_once"));
            options.push_back(
                option("allow_unsandboxed", "Run it without the sandbox", "allow_once"));
            options.push_back(option("allow_environment",
                                     "Run it with my environment (secret-looking variables too)",
                                     "allow_once"));
        }
        options.push_back(option("reject", "Reject", "reject_once"));
    } else { // a kind this rio-acp does not know: a newer core's
        call["title"] = "Approve a " + p.kind().name() + " proposal";
        call["kind"] = "other";
        options = Json::array({option("allow", "Approve it", "allow_once"),
                               option("reject", "Reject", "reject_once")});
    }
    return {
        {"sessionId", session_id}, {"toolCall", std::move(call)}, {"options", std::move(options)}};
}

std::optional<Choice> choice_of(const Proposal& p, std::string_view option_id) {
    // The option ids are this bridge's own (permission_request offers them).
    if (option_id == "reject") return Choice{Verdict::reject};
    if (p.is(ProposalKind::plan)) {
        if (option_id == "auto") return Choice{Verdict::approve, ApprovalPolicy::automatic};
        if (option_id == "review") return Choice{Verdict::approve, ApprovalPolicy::review};
        return std::nullopt;
    }
    if (option_id == "allow") return Choice{Verdict::approve};
    const CommandProposal* command = p.command();
    if (!command) return std::nullopt;
    Choice choice{Verdict::approve};
    if (option_id == "allow_network")
        choice.network.everything = true;
    else if ((option_id == "allow_hosts" || option_id == "allow_hosts_always") &&
             !command->hosts.empty()) {
        choice.network.items = command->hosts;
        choice.keep_hosts = option_id == "allow_hosts_always";
    } else if (option_id == "allow_unsandboxed")
        choice.unsandboxed = true;
    else if (option_id == "allow_environment")
        choice.environment = true;
    else
        return std::nullopt;
    return choice;
}

std::string prompt_text(const Json& blocks) {
    std::string text;
    if (!blocks.is_array()) return text;
    for (const Json& block : blocks) {
        if (!block.is_object()) continue;
        std::string type = block.value("type", "");
        std::string part;
        if (type == "text") part = block.value("text", "");
        if (type == "resource_link")
            part = "[" + block.value("name", block.value("uri", "")) + "](" +
                   block.value("uri", "") + ")";
        if (part.empty()) continue;
        if (!text.empty()) text += "\n";
        text += part;
    }
    return text;
}

} // namespace rio::acp
