#include "core/agent/compaction.hpp"

#include "core/agent/context_budget.hpp"
#include "text/utf8.hpp"

#include <map>

namespace rio {
namespace {

using Json = nlohmann::json;

std::string clip_text(const std::string& text, std::size_t max) {
    if (text.size() <= max) return text;
    std::size_t end = max;
    while (end > 0 && !is_char_boundary(text, end))
        --end;
    return text.substr(0, end);
}

std::string input_text(const Json& input, std::size_t max) {
    std::string text = input.dump(-1, ' ', false, Json::error_handler_t::replace);
    return text.size() <= max ? text : clip_text(text, max) + "…";
}

std::string with_commas(std::size_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// What the call asked for, in a few words: as its tool says (`read `a.py` lines 1–50`), else
// its name and input.
std::string call_words(const ToolCall& call, const ToolSpec* spec) {
    if (spec && spec->recalled_as)
        if (std::string words = spec->recalled_as(call.input); !words.empty()) return words;
    return call.name + " " + input_text(call.input, 160);
}

} // namespace

namespace {
constexpr std::string_view cleared_tail =
    " cleared to save context; call the tool again if you need it]";
} // namespace

std::string cleared_note(const ToolCall& call, const ToolSpec* spec, std::size_t bytes) {
    return "[" + call_words(call, spec) + ": output (" + with_commas(bytes) + " bytes)" +
           std::string(cleared_tail);
}

namespace {
// A note left by an earlier compaction: clearing it again would name its own size.
bool already_cleared(std::string_view content) {
    return content.size() > cleared_tail.size() && content.front() == '[' &&
           content.substr(content.size() - cleared_tail.size()) == cleared_tail;
}
} // namespace

Cleared clear_tool_outputs(const Conversation& conversation, const std::vector<ToolSpec>& tools,
                           std::size_t target_bytes, std::size_t keep_from) {
    Cleared out{conversation, 0};
    std::size_t bytes = conversation_bytes(conversation);
    std::map<std::string, const ToolCall*> calls;
    for (std::size_t i = 0; i < out.conversation.size() && i < keep_from; ++i) {
        if (bytes <= target_bytes) break;
        const Message& m = *out.conversation[i];
        for (const ToolCall& c : m.calls)
            calls[c.id] = &c;
        if (m.role != Role::user || m.results.empty()) continue;
        Message shrunk = m;
        bool changed = false;
        for (ToolOutcome& r : shrunk.results) {
            if (bytes <= target_bytes) break;
            auto it = calls.find(r.call_id);
            if (it == calls.end()) continue;
            const ToolSpec* spec = find_tool(tools, it->second->name);
            if (spec && spec->kind == ToolKind::plan) continue; // an approved plan stays whole
            if (already_cleared(r.content)) continue;
            std::string note = cleared_note(*it->second, spec, r.content.size());
            if (r.content.size() <= note.size()) continue;
            bytes -= r.content.size() - note.size();
            r.content = std::move(note);
            changed = true;
            ++out.cleared;
        }
        if (changed) out.conversation[i] = std::make_shared<const Message>(std::move(shrunk));
    }
    return out;
}

std::string summary_request_text(const Conversation& conversation, std::size_t max_bytes,
                                 const std::string& instructions) {
    // Each tool output in the transcript is held to a share of the room, so one large read
    // cannot push the user's requests out of it.
    std::size_t per_output = std::max<std::size_t>(2048, max_bytes / 20);
    std::vector<std::string> parts;
    std::map<std::string, std::string> names;
    for (const auto& entry : conversation) {
        const Message& m = *entry;
        if (m.role == Role::user) {
            for (const ToolOutcome& r : m.results) {
                std::string body = r.content.size() > per_output
                                       ? clip_text(r.content, per_output) + "\n[… output cut]"
                                       : r.content;
                parts.push_back("Tool result (" + names[r.call_id] + (r.is_error ? ", error" : "") +
                                "):\n" + body);
            }
            if (!m.text.empty()) parts.push_back("User:\n" + m.text);
        } else {
            if (!m.text.empty()) parts.push_back("Assistant:\n" + m.text);
            for (const ToolCall& c : m.calls) {
                names[c.id] = c.name;
                parts.push_back("Assistant called " + c.name + " " + input_text(c.input, 4096));
            }
        }
    }
    // Too long still: the oldest parts go first, but the first one (the task) stays.
    std::size_t total = 0;
    for (const std::string& p : parts)
        total += p.size() + 2;
    std::size_t dropped = 0;
    while (total > max_bytes && parts.size() > 2 + dropped) {
        total -= parts[1 + dropped].size() + 2;
        ++dropped;
    }
    std::string text = "The conversation so far, to summarize:\n\n<conversation>\n";
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i >= 1 && i < 1 + dropped) {
            if (i == 1)
                text += "[… " + std::to_string(dropped) + " earlier parts left out to fit]\n\n";
            continue;
        }
        text += parts[i] + "\n\n";
    }
    text += "</conversation>\n\nWrite the summary now, as the instructions say.";
    if (!instructions.empty())
        text += "\n\nThe user's instructions for this summary: " + instructions;
    return text;
}

bool usable_summary(const std::string& summary, std::size_t summarized_bytes,
                    std::size_t max_bytes) {
    if (summary.find_first_not_of(" \t\r\n") == std::string::npos) return false;
    return summary.size() <= max_bytes && summary.size() < summarized_bytes;
}

std::vector<std::string> user_messages(const Conversation& conversation) {
    std::vector<std::string> out;
    for (const auto& m : conversation)
        if (m->role == Role::user && !m->text.empty()) out.push_back(m->text);
    return out;
}

std::string compacted_seed(const std::string& summary, const CompactionKeep& keep,
                           std::size_t max_user_bytes) {
    std::string out =
        "This conversation was compacted to fit the model's context window. What came "
        "before is summarized below; the user's messages, the approved plan and the files "
        "changed are kept as they were.\n\n## Summary\n\n" +
        summary;
    if (!keep.user_messages.empty()) {
        // The first (the task) and the latest whole; between them, newest first while they
        // fit, each cut to 2 KB.
        const std::vector<std::string>& all = keep.user_messages;
        const std::string& latest = all.back();
        std::string first = all.size() > 1 ? all.front() : std::string();
        if (first.size() > 4096) first = clip_text(first, 4096) + " […]";
        std::size_t used = latest.size() + first.size();
        std::size_t room = max_user_bytes > used ? max_user_bytes - used : 0;
        std::vector<std::string> between;
        std::size_t left_out = 0;
        for (std::size_t i = all.size() - 1; i-- > 1;) {
            std::string m = all[i];
            if (m.size() > 2048) m = clip_text(m, 2048) + " […]";
            if (m.size() + 8 > room) {
                left_out = i;
                break;
            }
            room -= m.size() + 8;
            between.insert(between.begin(), std::move(m));
        }
        out += "\n\n## The user's messages\n\n";
        if (!first.empty()) out += "- " + first + "\n\n";
        if (left_out) out += "[" + std::to_string(left_out) + " messages left out]\n\n";
        for (const std::string& m : between)
            out += "- " + m + "\n\n";
        out += "The latest, whole:\n\n" + latest;
    }
    if (!keep.approved_plan.empty())
        out += "\n\n## The approved plan (verbatim)\n\n" + keep.approved_plan;
    if (!keep.progress.empty())
        out += "\n\n## Progress on the approved plan (step, status, note)\n\n" + keep.progress;
    if (!keep.changed_files.empty()) {
        out += "\n\n## Files changed in this session\n\n";
        for (const std::string& f : keep.changed_files)
            out += "- " + f + "\n";
    }
    return out;
}

} // namespace rio
