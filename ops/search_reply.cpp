#include "ops/search_reply.hpp"

#include "protocol/json_text.hpp"

#include <charconv>

namespace rio {

// The five numbers go through a buffer of their own: one append instead of ten.
void append_search_match(std::string& out, const MatchView& m) {
    char row[5 * 21 + 2];
    char* at = row;
    *at++ = '[';
    for (std::size_t value : {m.line, m.column, m.length, m.start, m.end}) {
        at = std::to_chars(at, row + sizeof row, value).ptr;
        *at++ = ',';
    }
    out.append(row, static_cast<std::size_t>(at - row));
    append_json_string(out, m.text);
    out += ']';
}

// Keys in the order nlohmann's objects keep them (sorted), as dump() writes them.
void append_search_reply(std::string& out, const SearchResult& r) {
    std::size_t bytes = 160;
    for (const RenderedMatches& file : r.rendered)
        bytes += file.text.size() + file.path.size() + 32;
    out.reserve(out.size() + bytes); // one allocation for megabytes
    out += '{';
    append_json_key(out, "files");
    out += '[';
    for (std::size_t i = 0; i < r.rendered.size(); ++i) {
        if (i > 0) out += ',';
        out += '{';
        append_json_key(out, "matches");
        out += '[';
        out += r.rendered[i].text;
        out += "],";
        append_json_key(out, "path");
        append_json_string(out, r.rendered[i].path);
        out += '}';
    }
    out += "],";
    append_json_key(out, "files_searched");
    append_json_number(out, r.files_searched);
    out += ',';
    append_json_key(out, "files_skipped");
    append_json_number(out, r.files_skipped);
    if (r.left_out > 0) {
        out += ',';
        append_json_key(out, "left_out");
        append_json_number(out, r.left_out);
    }
    out += ',';
    append_json_key(out, "truncated");
    out += r.truncated ? "true" : "false";
    out += '}';
}

} // namespace rio
