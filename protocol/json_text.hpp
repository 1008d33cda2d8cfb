// JSON written straight into a string, for replies too large to build as a document first:
// fs.search's 100,000 matches took 0.4 s as nlohmann objects and a fraction of that as text
// (decision 0050). The output is what nlohmann's dump() gives for the same values.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace rio {

// A JSON string, quotes included. `utf8` must be valid UTF-8 (to_valid_utf8 makes it so).
void append_json_string(std::string& out, std::string_view utf8);
void append_json_number(std::string& out, std::uint64_t value);
// `"key":` — keys are the protocol's own names, which need no escaping.
void append_json_key(std::string& out, std::string_view key);

// A response line whose result is JSON text the op writes itself, with no copy of it:
// begin_result_text gives `{"id":…,"ok":true,"result":`, the op appends its result, and
// end_result_text closes the line ('\n' included) as format_result would.
std::string begin_result_text(const nlohmann::json& id);
void end_result_text(std::string& line);

} // namespace rio
