#include "host/mcp/mcp_wire.hpp"

#include "host/files/file_uri.hpp"

namespace rio {
namespace {

using Json = nlohmann::json;

constexpr std::string_view supported_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                   "2024-11-05"};

std::string text_of(const Json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string size_words(std::size_t base64_chars) {
    std::size_t bytes = base64_chars / 4 * 3;
    if (bytes < 1024) return std::to_string(bytes) + " bytes";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f KB", static_cast<double>(bytes) / 1024);
    return buffer;
}

std::string block_text(const Json& block) {
    if (!block.is_object()) return "[content that is not an object]";
    std::string type = text_of(block, "type");
    if (type == "text") return text_of(block, "text");
    if (type == "image" || type == "audio")
        return "[" + type + ": " + text_of(block, "mimeType") + ", " +
               size_words(text_of(block, "data").size()) + "]";
    if (type == "resource_link")
        return "[resource link: " + text_of(block, "uri") +
               (block.contains("name") ? " (" + text_of(block, "name") + ")" : "") + "]";
    if (type == "resource") {
        const Json resource = block.value("resource", Json::object());
        if (!resource.is_object()) return "[resource]";
        std::string uri = text_of(resource, "uri");
        if (resource.contains("text"))
            return "[resource " + uri + "]\n" + text_of(resource, "text");
        return "[resource " + uri + ": " + text_of(resource, "mimeType") + ", " +
               size_words(text_of(resource, "blob").size()) + "]";
    }
    return "[" + (type.empty() ? std::string("untyped") : type) + " content]";
}

} // namespace

bool mcp_version_supported(std::string_view version) {
    for (std::string_view known : supported_versions)
        if (version == known) return true;
    return false;
}

Json mcp_initialize_params(std::string_view client_version) {
    return {{"protocolVersion", mcp_protocol_version},
            {"capabilities", {{"roots", {{"listChanged", true}}}}},
            {"clientInfo", {{"name", "rio"}, {"version", client_version}}}};
}

Json mcp_roots(const std::optional<std::filesystem::path>& project) {
    Json roots = Json::array();
    if (project)
        roots.push_back({{"uri", path_to_uri(*project)}, {"name", project->filename().string()}});
    return {{"roots", std::move(roots)}};
}

std::optional<McpProgress> parse_progress(const Json& params) {
    if (!params.is_object()) return std::nullopt;
    auto token = params.find("progressToken");
    auto progress = params.find("progress");
    if (token == params.end() || !token->is_number_integer() || progress == params.end() ||
        !progress->is_number())
        return std::nullopt;
    McpProgress out{token->get<std::int64_t>(), progress->get<double>(), std::nullopt,
                    std::nullopt};
    if (auto total = params.find("total"); total != params.end() && total->is_number())
        out.total = total->get<double>();
    if (auto message = params.find("message"); message != params.end() && message->is_string())
        out.message = message->get<std::string>();
    return out;
}

std::optional<McpToolsPage> parse_tools_page(const Json& result, std::string& why) {
    if (!result.is_object() || !result.contains("tools") || !result["tools"].is_array()) {
        why = "tools/list did not return a list of tools";
        return std::nullopt;
    }
    McpToolsPage page;
    for (const Json& tool : result["tools"]) {
        std::string name = tool.is_object() ? text_of(tool, "name") : std::string();
        if (name.empty()) {
            page.skipped.push_back("a tool without a name");
            continue;
        }
        const Json schema = tool.value("inputSchema", Json());
        if (!schema.is_object() || schema.value("type", Json()) != "object") {
            page.skipped.push_back(name + ": its inputSchema is not an object schema");
            continue;
        }
        const Json execution = tool.value("execution", Json::object());
        if (execution.is_object() && execution.value("taskSupport", Json()) == "required") {
            page.skipped.push_back(name + ": it runs only as an MCP task, which rio does not "
                                          "support (execution.taskSupport is \"required\")");
            continue;
        }
        McpTool out{name, text_of(tool, "title"), text_of(tool, "description"), schema, false};
        const Json annotations = tool.value("annotations", Json::object());
        out.read_only =
            annotations.is_object() && annotations.value("readOnlyHint", Json()) == true;
        page.tools.push_back(std::move(out));
    }
    if (auto cursor = result.find("nextCursor"); cursor != result.end() && cursor->is_string())
        page.next_cursor = cursor->get<std::string>();
    return page;
}

McpCallOutcome call_outcome(const Json& result) {
    McpCallOutcome outcome;
    if (!result.is_object()) return {true, "the server's result is not an object"};
    outcome.is_error = result.value("isError", Json(false)) == true;
    const Json content = result.value("content", Json());
    if (content.is_array()) {
        for (const Json& block : content) {
            if (!outcome.text.empty()) outcome.text += "\n";
            outcome.text += block_text(block);
        }
    }
    if (outcome.text.empty() && result.contains("structuredContent"))
        outcome.text = result["structuredContent"].dump();
    return outcome;
}

} // namespace rio
