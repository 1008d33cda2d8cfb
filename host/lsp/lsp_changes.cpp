#include "host/lsp/lsp_changes.hpp"

namespace rio {
namespace {

nlohmann::json position_json(LspPosition p) {
    return {{"line", p.line}, {"character", p.character}};
}

} // namespace

void LspChanges::edit(const LineIndex& before, std::size_t start, std::size_t end,
                      std::string_view inserted) {
    if (whole_) return;
    // "\r\n" ends a line as one: no position falls between its two bytes. An edit that
    // starts or ends there takes the '\r' or the '\n' along.
    std::string text(inserted);
    const std::string_view old = before.text();
    auto inside_crlf = [&](std::size_t at) {
        return at > 0 && at < old.size() && old[at - 1] == '\r' && old[at] == '\n';
    };
    if (inside_crlf(start)) --start, text.insert(0, 1, '\r');
    if (inside_crlf(end)) ++end, text.push_back('\n');
    if (!changes_.empty()) {
        // The last change's text is [at, at + size) now. An edit within it, or from before it
        // to a place within it, makes one change with it: the range the last one replaced
        // (reaching back to `start` when the edit does) and the text the two leave there.
        Change& last = changes_.back();
        const std::size_t from = last.at, to = last.at + last.text.size();
        if (start <= to && end >= from && end <= to) {
            std::string joined = start > from ? last.text.substr(0, start - from) : std::string();
            joined += text;
            joined += std::string_view(last.text).substr(end - from);
            if (start < from) { // the text before `from` is as the last change found it
                last.range.start = before.position(start);
                last.at = start;
            }
            last.text = std::move(joined);
            return;
        }
    }
    changes_.push_back({{before.position(start), before.position(end)}, std::move(text), start});
}

void LspChanges::whole() {
    whole_ = true;
    changes_.clear();
}

nlohmann::json LspChanges::take(std::string_view text) {
    nlohmann::json out = nlohmann::json::array();
    if (whole_) {
        out.push_back({{"text", text}});
    } else {
        for (Change& c : changes_)
            out.push_back(
                {{"range",
                  {{"start", position_json(c.range.start)}, {"end", position_json(c.range.end)}}},
                 {"text", std::move(c.text)}});
    }
    changes_.clear();
    whole_ = false;
    return out;
}

} // namespace rio
