// rio-cli's interactive session, what it prints: the reply as it streams (Markdown painted
// for the terminal), thinking dimmed, a line per tool call and result, the turn's summary.
#include "cli/interactive.hpp"
#include "cli/terminal_safe.hpp"
#include "cli/trace.hpp"

#include <iostream>

namespace rio {
namespace {

// How many of a command's last lines show under it; /output N shows all of them.
constexpr std::size_t output_lines = 8;

// The events show() writes a line for, after the reply so far.
bool prints_a_line(const client::CoreEvent& event) {
    return std::holds_alternative<ToolEvent>(event) ||
           std::holds_alternative<ToolResultEvent>(event) ||
           std::holds_alternative<ToolProgressEvent>(event) ||
           std::holds_alternative<SubagentEvent>(event) ||
           std::holds_alternative<Proposal>(event) ||
           std::holds_alternative<PlanReportEvent>(event) ||
           std::holds_alternative<PlanProgressEvent>(event) ||
           std::holds_alternative<FreshEvent>(event) || std::holds_alternative<ErrorEvent>(event) ||
           std::holds_alternative<StoppedEvent>(event) ||
           std::holds_alternative<ResetEvent>(event) ||
           std::holds_alternative<RewoundEvent>(event) ||
           std::holds_alternative<ProjectChangedEvent>(event) ||
           std::holds_alternative<CompactedEvent>(event) ||
           std::holds_alternative<NoteEvent>(event);
}

} // namespace

void InteractiveSession::show(const client::CoreEvent& event) {
    if (auto* delta = std::get_if<DeltaEvent>(&event)) {
        show_answer(answer_.feed(delta->text));
        return;
    }
    if (auto* thinking = std::get_if<ThinkingEvent>(&event)) return show_thinking(thinking->text);
    if (auto* threads = std::get_if<PlanCommentsEvent>(&event)) {
        if (!threads_for_.empty() && threads->path == threads_for_) threads_ = threads->comments;
        return;
    }
    if (std::holds_alternative<MessageEvent>(event)) {
        return end_answer();
    }
    // An event that prints nothing (plans.changed, agent.checkpoints, agent.usage, …) may
    // arrive between two words of a reply; it must not cut the paragraph in two.
    if (!prints_a_line(event)) return;
    end_answer(); // whatever comes next follows the reply so far
    if (auto* tool = std::get_if<ToolEvent>(&event)) {
        print(tool_line(*tool, out_.color));
    } else if (auto* progress = std::get_if<ToolProgressEvent>(&event)) {
        print(tool_progress_line(*progress, out_.color));
    } else if (auto* sub = std::get_if<SubagentEvent>(&event)) {
        if (std::string line = subagent_line(*sub, out_.color); !line.empty()) print(line);
    } else if (auto* result = std::get_if<ToolResultEvent>(&event)) {
        std::string line = tool_result_line(*result, session_.outcome(*result), out_.color);
        if (!line.empty()) print(line);
        if (result->output && !result->output->empty()) {
            outputs_.push_back(*result->output);
            print(command_output_text(*result->output, output_lines, outputs_.size(), out_.color));
        }
    } else if (auto* proposal = std::get_if<Proposal>(&event)) {
        on_propose(*proposal);
    } else if (auto* report = std::get_if<PlanReportEvent>(&event)) {
        if (std::string words = client::plan_report_text(*report); !words.empty())
            print(styled(shown(words), sgr::yellow, out_.color));
        if (report->receipt_text) print(markdown_text(*report->receipt_text, width(), out_.color));
    } else if (auto* progress = std::get_if<PlanProgressEvent>(&event)) {
        // One line as the plan moves on (DESIGN §20); a file outside it is said at once.
        std::string line = "plan " + client::plan_progress_line(*progress);
        if (line != plan_line_) print(styled(shown(line), sgr::cyan, out_.color));
        plan_line_ = line;
        if (progress->unplanned.size() < plan_unplanned_) plan_unplanned_ = 0; // another plan
        for (std::size_t i = plan_unplanned_; i < progress->unplanned.size(); ++i)
            print(styled("outside the plan: " + shown(progress->unplanned[i]), sgr::yellow,
                         out_.color));
        plan_unplanned_ = progress->unplanned.size();
    } else if (std::holds_alternative<FreshEvent>(event)) {
        print(styled("(continuing in a fresh context: your request and the approved plan)",
                     sgr::dim, out_.color));
    } else if (auto* project = std::get_if<ProjectChangedEvent>(&event)) {
        // Another frontend opened a folder (issue 46): its conversation follows as agent.reset.
        root_ = project->root.value_or("");
        print(styled(root_.empty() ? std::string("(no project open now)")
                                   : "(project: " + shown(root_) + ")",
                     sgr::dim, out_.color));
    } else if (auto* compacted = std::get_if<CompactedEvent>(&event)) {
        print(styled("(" + shown(client::compacted_text(*compacted)) + ")", sgr::dim, out_.color));
    } else if (auto* note = std::get_if<NoteEvent>(&event)) {
        print(styled("(" + shown(client::note_text(*note)) + ")", sgr::dim, out_.color));
    } else if (auto* rewound = std::get_if<RewoundEvent>(&event)) {
        // Our own rewind's reply says it already, and may have put the message back at the
        // prompt, which a line printed now would break into.
        if (std::exchange(own_rewind_, std::nullopt) == rewound->turn) return;
        print(styled("(the conversation was rewound to before turn " +
                         std::to_string(rewound->turn) + ": \"" +
                         shown(client::first_line(rewound->text, 60)) + "\")",
                     sgr::dim, out_.color));
    } else if (auto* error = std::get_if<ErrorEvent>(&event)) {
        print(styled("error: " + shown(error->code) + ": " + shown(error->message), sgr::red,
                     out_.color));
    } else if (std::holds_alternative<StoppedEvent>(event) ||
               std::holds_alternative<ResetEvent>(event)) {
        if (input_ == Input::key) stop_input();
        // Ctrl+C said "stopping…" already; a stop from elsewhere is said here.
        if (auto* reset = std::get_if<ResetEvent>(&event))
            print(styled(reset->resumed ? "(continuing session " + shown(*reset->resumed) + ")"
                                        : std::string("(conversation cleared)"),
                         sgr::dim, out_.color));
        else if (!stopping_)
            print(styled("(stopped)", sgr::dim, out_.color));
    }
}

int InteractiveSession::width() const {
    return out_.tty ? detect_terminal(1).width : out_.width;
}

void InteractiveSession::show_thinking(const std::string& text) {
    spinner_.hide();
    if (!in_thinking_) {
        end_answer();
        if (line_open_) std::cout << "\n";
        thinking_ = WordStream(width());
        in_thinking_ = line_open_ = true;
    }
    std::cout << md::terminal_output(styled(thinking_.feed(text), sgr::dim, out_.color))
              << std::flush;
}

void InteractiveSession::show_answer(const std::string& markdown) {
    if (markdown.find_first_not_of(" \t\r\n") == std::string::npos) return;
    std::string painted = markdown_text(markdown, width(), out_.color);
    if (!painted.empty() && painted.back() == '\n') painted.pop_back();
    print((answer_started_ ? "\n" : "") + painted);
    answer_started_ = true;
}

void InteractiveSession::end_answer() {
    std::string rest = answer_.finish();
    show_answer(rest);
    answer_started_ = false;
}

void InteractiveSession::busy_line() {
    if (!done_ && (session_.state().busy || sending_) && input_ == Input::none && !in_thinking_)
        spinner_.show();
}

// The line under a finished turn: what it cost and how full the context is now.
std::string InteractiveSession::turn_summary() const {
    const client::SessionState& s = session_.state();
    std::string line = s.plan && s.plan->turn == s.turn ? client::plan_summary_text(*s.plan) : "";
    if (s.usage.turn == s.turn) line += (line.empty() ? "" : " · ") + client::usage_text(s.usage);
    if (s.context)
        line += (line.empty() ? "" : " · ") + std::string("context ") +
                client::context_text(*s.context);
    return line.empty() ? line : "(" + line + ")";
}

std::string InteractiveSession::status_text() const {
    const client::SessionState& s = session_.state();
    std::string text = shown(s.provider) + " · " + shown(s.model) + " · " +
                       std::string(client::mode_word(s.choice())) + " · session " +
                       shown(s.session);
    if (s.plan_model)
        text += "\nplans with: " + shown(s.plan_model->provider) + " · " +
                shown(s.plan_model->model.empty() ? "its model option" : s.plan_model->model);
    if (s.context) text += "\ncontext: " + client::context_text(*s.context);
    if (s.sandbox) text += "\n" + shown(client::sandbox_status_text(*s.sandbox));
    if (!s.session_problem.empty()) text += "\n" + shown(s.session_problem);
    return text;
}

// The spinner off, streamed thinking finished and a streamed line ended: what comes next
// starts a line of its own.
void InteractiveSession::end_open_line() {
    spinner_.hide();
    if (in_thinking_)
        std::cout << md::terminal_output(styled(thinking_.finish(), sgr::dim, out_.color));
    if (line_open_) {
        std::cout << "\n";
        line_open_ = in_thinking_ = false;
    }
}

void InteractiveSession::print(const std::string& text) {
    end_open_line();
    std::cout << md::terminal_output(text) << "\n" << std::flush;
}

} // namespace rio
