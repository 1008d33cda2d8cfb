// What a headless run shows as events come: rio's own event lines (--output-format events),
// Claude Code's stream-json lines, and text mode's answer on stdout with the trace on stderr.
// The run itself (start, the requests before the task, decisions, the end) is headless.cpp.
#include "cli/headless.hpp"
#include "cli/terminal_safe.hpp"
#include "cli/trace.hpp"
#include "client/trace_words.hpp"

#include <iostream>
#include <type_traits>

namespace rio {
namespace {

std::string dumped(const Json& j) {
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

} // namespace

void HeadlessRun::on_event(const client::CoreEvent& event) {
    if (auto* status = std::get_if<AgentStatus>(&event)) {
        session_ = status->session;
        if (status->context) context_ = Json(*status->context);
    }
    if (auto* mcp = std::get_if<McpChangedEvent>(&event)) mcp_changed(*mcp);
    if (ended_ || !live_) return;
    // agent.send's response precedes the turn's events, so turn_ is known by now.
    if (std::uint64_t turn = client::turn_of(event); turn && turn_ && turn != *turn_) return;
    if (options_.output == HeadlessOutput::events)
        std::visit(
            [this](const auto& e) {
                using E = std::decay_t<decltype(e)>;
                // And the approved plan's progress (DESIGN §20), which is the agent's too.
                if constexpr ((E::event.starts_with(event::agent_prefix) &&
                               !std::is_same_v<E, AgentStatus>) ||
                              std::is_same_v<E, PlanProgressEvent>)
                    print_line(Json{{"event", E::event}, {"params", Json(e)}});
            },
            event);
    if (claude_) {
        std::vector<Json> lines = claude_->lines(event);
        if (options_.output == HeadlessOutput::claude_stream)
            for (const Json& line : lines)
                print_line(line);
    }
    show(event);
}

void HeadlessRun::print_line(const Json& line) {
    std::cout << dumped(line) << "\n" << std::flush;
}

void HeadlessRun::show(const client::CoreEvent& event) {
    const bool text = options_.output == HeadlessOutput::text;
    if (auto* delta = std::get_if<DeltaEvent>(&event); delta && text) {
        std::cout << md::terminal_output(md::terminal_safe(delta->text, md::Whitespace::block))
                  << std::flush;
        line_open_ = true;
    } else if (auto* message = std::get_if<MessageEvent>(&event)) {
        if (text && line_open_) std::cout << "\n" << std::flush;
        line_open_ = false;
        if (!message->text.empty()) messages_.push_back(message->text);
    } else if (auto* tool = std::get_if<ToolEvent>(&event)) {
        say(tool_line(*tool, err_.color));
    } else if (auto* progress = std::get_if<ToolProgressEvent>(&event)) {
        say(tool_progress_line(*progress, err_.color));
    } else if (auto* sub = std::get_if<SubagentEvent>(&event)) {
        if (std::string line = subagent_line(*sub, err_.color); !line.empty()) say(line);
    } else if (auto* plan = std::get_if<PlanProgressEvent>(&event)) {
        std::string line = "plan " + client::plan_progress_line(*plan);
        if (line != plan_line_) say(styled(shown(line), sgr::cyan, err_.color));
        plan_line_ = line;
        plan_progress_ = *plan;
    } else if (auto* result = std::get_if<ToolResultEvent>(&event)) {
        show_output(*result);
        if (std::string line = tool_result_line(*result, client::tool_outcome(*result), err_.color);
            !line.empty())
            say(line);
    } else if (auto* report = std::get_if<PlanReportEvent>(&event)) {
        if (std::string words = client::plan_report_text(*report); !words.empty())
            say(styled("warning: " + shown(words), sgr::yellow, err_.color));
        // The plan's receipt (issue 43): on stderr as Markdown, in the result objects as data.
        if (report->receipt_text) {
            std::string text = markdown_text(*report->receipt_text, err_.width, err_.color);
            for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
                end = text.find('\n', at);
                if (end == std::string::npos) end = text.size();
                say(shown(text.substr(at, end - at)));
            }
        }
        if (report->receipt) receipt_ = Json(*report->receipt);
    } else if (auto* proposal = std::get_if<Proposal>(&event)) {
        decide(*proposal);
    } else if (auto* compacted = std::get_if<CompactedEvent>(&event)) {
        say(styled("(" + shown(client::compacted_text(*compacted)) + ")", sgr::dim, err_.color));
    } else if (auto* note = std::get_if<NoteEvent>(&event)) {
        say(styled("(" + shown(client::note_text(*note)) + ")", sgr::dim, err_.color));
    } else if (auto* error = std::get_if<ErrorEvent>(&event)) {
        error_ = {{"code", error->code}, {"message", error->message}};
        say(styled("error: " + shown(error->code) + ": " + shown(error->message), sgr::red,
                   err_.color));
    } else if (std::holds_alternative<DoneEvent>(event)) {
        end_after_turn(!error_.is_null() ? exit_provider_error
                       : rejected_       ? exit_rejected
                       : unverified()    ? exit_unverified
                                         : exit_done);
    } else if (std::holds_alternative<StoppedEvent>(event) && !plan_.is_null()) {
        end(exit_plan_waiting);
    }
}

// Text mode: everything the command printed (as the runner kept it), under its line on
// stderr, so a failing test's output is in the log of the run.
void HeadlessRun::show_output(const ToolResultEvent& result) {
    if (!result.output || result.output->empty()) return;
    say(command_output_text(*result.output, std::nullopt, std::nullopt, err_.color));
}

void HeadlessRun::say(const std::string& line) {
    if (options_.output != HeadlessOutput::text) return;
    if (line_open_) {
        std::cout << "\n" << std::flush;
        line_open_ = false;
    }
    std::cerr << md::terminal_output(line) << "\n" << std::flush;
}

} // namespace rio
