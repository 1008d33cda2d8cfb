#include "core/agent/plan_receipt.hpp"

#include "text/argv_text.hpp"

#include <algorithm>
#include <cstdio>

namespace rio {
namespace {

// One line, control characters and Markdown's code fence out: a receipt is read as Markdown.
std::string inline_text(std::string_view text) {
    std::string out;
    for (char c : text) {
        auto u = static_cast<unsigned char>(c);
        out.push_back(u < 0x20 || u == 0x7f ? ' ' : c == '`' ? '\'' : c);
    }
    return out;
}

std::string code(std::string_view text) {
    return "`" + inline_text(text) + "`";
}

std::string count(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string step_line(const PlanStep& s) {
    std::string box = s.is(StepStatus::done)          ? "[x]"
                      : s.is(StepStatus::failed)      ? "[!]"
                      : s.is(StepStatus::skipped)     ? "[-]"
                      : s.is(StepStatus::in_progress) ? "[>]"
                                                      : "[ ]";
    std::string out = "- " + box + " " + std::to_string(s.n) + ". " + inline_text(s.text);
    if (s.verified) out += *s.verified ? " — verified" : " — unverified";
    if (s.is(StepStatus::skipped)) out += " — skipped";
    if (s.check) {
        const CheckRun& run = *s.check;
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.1f s", run.seconds);
        out +=
            ": " + code(argv_text(run.argv)) + " " +
            (run.failure.empty() ? "exit " + std::to_string(run.exit.value_or(-1)) + ", " + seconds
                                 : inline_text(run.failure)) +
            ", " + run.sandbox;
    }
    if (s.note) out += " (" + inline_text(*s.note) + ")";
    return out + "\n";
}

std::string short_commit(const std::string& commit) {
    return commit.substr(0, 12);
}

} // namespace

std::string receipt_summary(const PlanReceipt& r) {
    std::size_t done = 0, verified = 0, failed = 0;
    for (const PlanStep& s : r.steps) {
        done += s.is(StepStatus::done);
        verified += s.verified == true;
        failed += s.is(StepStatus::failed);
    }
    std::string out = std::to_string(done) + "/" + std::to_string(r.steps.size()) +
                      " steps done (" + std::to_string(verified) + " verified)";
    if (failed) out += ", " + std::to_string(failed) + " failed";
    out += " · " + count(r.edits.size(), "file edited", "files edited");
    out += " · " + count(r.commands.size(), "command", "commands");
    if (!r.unplanned.empty())
        out += " · " + count(r.unplanned.size(), "file", "files") + " outside the plan";
    if (!r.drift.empty())
        out += " · " + count(r.drift.size(), "file", "files") + " changed since approval";
    return out;
}

std::string receipt_markdown(const PlanReceipt& r) {
    std::string out(receipt_heading);
    out += "\n" + receipt_summary(r) + (r.final ? "." : " so far.") + "\n\n";
    if (!r.approved.empty()) out += "Approved " + inline_text(r.approved) + ".";
    if (!r.head_at_approval.empty()) {
        out += " Git HEAD " + code(short_commit(r.head_at_approval));
        if (!r.head_now.empty() && r.head_now != r.head_at_approval)
            out += " then, " + code(short_commit(r.head_now)) + " now";
        out += ".";
    }
    out += "\n\n### Steps\n\n";
    for (const PlanStep& s : r.steps)
        out += step_line(s);
    if (!r.edits.empty()) {
        out += "\n### Edits\n\n";
        for (const ReceiptEdit& e : r.edits)
            out += "- " + code(e.path) + " +" + std::to_string(e.added) + " −" +
                   std::to_string(e.removed) + "\n";
    }
    if (!r.commands.empty()) {
        out += "\n### Commands\n\n";
        for (const ReceiptCommand& c : r.commands)
            out += "- " + code(argv_text(c.argv)) + " — " + inline_text(c.sandbox) + ", " +
                   (c.exit ? "exit " + std::to_string(*c.exit) : std::string("no exit")) + "\n";
    }
    if (!r.unplanned.empty()) {
        out += "\n### Changed but not in the plan\n\n";
        for (const std::string& p : r.unplanned)
            out += "- " + code(p) + "\n";
    }
    if (!r.drift.empty()) {
        out += "\n### Changed since approval, not by the agent\n\n";
        for (const std::string& p : r.drift)
            out += "- " + code(p) + "\n";
    }
    out += "\n" + std::to_string(r.input_tokens) + " tokens in, " +
           std::to_string(r.output_tokens) + " out";
    if (!r.models.empty()) {
        out += "; answered by";
        for (std::size_t i = 0; i < r.models.size(); ++i)
            out += (i ? ", " : " ") + code(r.models[i]);
    }
    return out + ".\n";
}

} // namespace rio
