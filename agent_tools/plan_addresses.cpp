#include "agent_tools/plan_addresses.hpp"

#include "text/one_line.hpp"
#include "text/trim.hpp"
#include "text/utf8.hpp"

#include <string>

namespace rio {
namespace {

using Json = nlohmann::json;

constexpr std::size_t max_reply_chars = 500;

Error bad(const std::string& where, const std::string& what) {
    return make_error(ErrorCode::bad_request, where + " " + what);
}

} // namespace

Result<std::vector<CommentAnswer>> read_addresses(const Json& input) {
    std::vector<CommentAnswer> out;
    auto it = input.find("addresses");
    if (it == input.end() || it->is_null()) return out;
    if (!it->is_array()) return bad("addresses", "must be a list of {id, reply}");
    for (std::size_t i = 0; i < it->size(); ++i) {
        const Json& item = (*it)[i];
        std::string where = "addresses[" + std::to_string(i) + "]";
        if (!item.is_object()) return bad(where, "must be an object {id, reply}");
        auto id = item.find("id");
        if (id == item.end() || !id->is_string() || id->get<std::string>().empty())
            return bad(where + ".id", "must be a comment's id, like \"c1\"");
        auto reply = item.find("reply");
        if (reply != item.end() && !reply->is_null() && !reply->is_string())
            return bad(where + ".reply",
                       "must be a string: one line saying how the plan answers it");
        std::string words =
            reply == item.end() || reply->is_null() ? "" : reply->get<std::string>();
        // Its first line, control characters kept as text: frontends show them safely.
        std::string line(trimmed(to_valid_utf8(words.substr(0, words.find_first_of("\r\n")))));
        if (line.size() > max_reply_chars) line = to_valid_utf8(line.substr(0, max_reply_chars));
        out.push_back({one_line(to_valid_utf8(id->get<std::string>())), std::move(line)});
    }
    return out;
}

Json addresses_schema() {
    return Json{{"type", "array"},
                {"description", "Revising a plan the user commented on: the comments (by id: c1, "
                                "c2, …) this revision answers, each with a one-line reply."},
                {"items",
                 {{"type", "object"},
                  {"properties", {{"id", {{"type", "string"}}}, {"reply", {{"type", "string"}}}}},
                  {"required", Json::array({"id", "reply"})}}}};
}

} // namespace rio
