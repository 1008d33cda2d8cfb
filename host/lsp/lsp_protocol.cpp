#include "host/lsp/lsp_protocol.hpp"

#include <array>

namespace rio {
namespace {

using Json = nlohmann::json;

std::string string_field(const Json& object, const char* key) {
    if (!object.is_object()) return {};
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::int64_t> int_field(const Json& object, const char* key) {
    if (!object.is_object()) return std::nullopt;
    auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<std::int64_t>();
}

std::optional<LspPosition> parse_position(const Json& j) {
    auto line = int_field(j, "line");
    auto character = int_field(j, "character");
    if (!line || !character) return std::nullopt;
    return LspPosition{*line, *character};
}

std::optional<LspRange> parse_range(const Json& j) {
    if (!j.is_object() || !j.contains("start") || !j.contains("end")) return std::nullopt;
    auto start = parse_position(j["start"]);
    auto end = parse_position(j["end"]);
    if (!start || !end) return std::nullopt;
    return LspRange{*start, *end};
}

// A provider entry is true or an options object; false, null or absent mean no.
bool offered(const Json& capabilities, const char* key) {
    auto it = capabilities.find(key);
    if (it == capabilities.end()) return false;
    return it->is_object() || (it->is_boolean() && it->get<bool>());
}

void add_marked(const Json& piece, LspHover& hover) {
    std::string text;
    if (piece.is_string()) {
        text = piece.get<std::string>();
        hover.markdown = true; // a MarkedString string is Markdown
    } else if (piece.is_object()) {
        std::string language = string_field(piece, "language");
        text = string_field(piece, "value");
        if (!language.empty()) {
            text = "```" + language + "\n" + text + "\n```";
            hover.markdown = true;
        } else if (string_field(piece, "kind") == "markdown") {
            hover.markdown = true;
        }
    }
    if (text.empty()) return;
    if (!hover.text.empty()) hover.text += "\n\n";
    hover.text += text;
}

void add_document_symbols(const Json& list, int depth, const std::string& container,
                          std::size_t max, std::vector<LspSymbol>& out) {
    if (!list.is_array() || depth > 64) return;
    for (const Json& item : list) {
        if (out.size() >= max) return;
        if (!item.is_object()) continue;
        std::string name = string_field(item, "name");
        auto range = parse_range(item.value("selectionRange", Json()));
        if (!range) range = parse_range(item.value("range", Json()));
        if (name.empty() || !range) continue;
        LspSymbol symbol{name,      string_field(item, "detail"),
                         container, static_cast<int>(int_field(item, "kind").value_or(0)),
                         "",        *range,
                         depth};
        out.push_back(symbol);
        if (item.contains("children"))
            add_document_symbols(item["children"], depth + 1, name, max, out);
    }
}

constexpr std::array<std::string_view, 27> symbol_kinds{
    "symbol",   "file",        "module",      "namespace", "package",   "class",         "method",
    "property", "field",       "constructor", "enum",      "interface", "function",      "variable",
    "constant", "string",      "number",      "boolean",   "array",     "object",        "key",
    "null",     "enum member", "struct",      "event",     "operator",  "type parameter"};

} // namespace

std::optional<LspPublished> parse_published(const Json& params, std::size_t max) {
    std::string uri = string_field(params, "uri");
    if (uri.empty() || !params.contains("diagnostics") || !params["diagnostics"].is_array())
        return std::nullopt;
    LspPublished out{uri, int_field(params, "version"), {}};
    for (const Json& item : params["diagnostics"]) {
        if (out.diagnostics.size() >= max) break;
        auto range = parse_range(item.value("range", Json()));
        if (!range) continue;
        LspDiagnostic d;
        d.range = *range;
        auto severity = int_field(item, "severity").value_or(1);
        if (severity >= 1 && severity <= 4) d.severity = static_cast<Severity>(severity - 1);
        d.message = string_field(item, "message");
        d.source = string_field(item, "source");
        if (auto code = item.find("code"); code != item.end()) {
            if (code->is_string())
                d.code = code->get<std::string>();
            else if (code->is_number_integer())
                d.code = std::to_string(code->get<std::int64_t>());
        }
        out.diagnostics.push_back(std::move(d));
    }
    return out;
}

std::vector<LspLocation> parse_locations(const Json& result, std::size_t max) {
    std::vector<LspLocation> out;
    auto add = [&](const Json& item) {
        if (out.size() >= max || !item.is_object()) return;
        if (item.contains("targetUri")) { // LocationLink
            auto range = parse_range(item.value("targetSelectionRange", Json()));
            if (!range) range = parse_range(item.value("targetRange", Json()));
            std::string uri = string_field(item, "targetUri");
            if (range && !uri.empty()) out.push_back({uri, *range});
            return;
        }
        auto range = parse_range(item.value("range", Json()));
        std::string uri = string_field(item, "uri");
        if (range && !uri.empty()) out.push_back({uri, *range});
    };
    if (result.is_array()) {
        for (const Json& item : result)
            add(item);
    } else {
        add(result);
    }
    return out;
}

std::optional<LspHover> parse_hover(const Json& result) {
    if (!result.is_object() || !result.contains("contents")) return std::nullopt;
    LspHover hover;
    const Json& contents = result["contents"];
    if (contents.is_array()) {
        for (const Json& piece : contents)
            add_marked(piece, hover);
    } else {
        add_marked(contents, hover);
    }
    hover.range = parse_range(result.value("range", Json()));
    return hover;
}

std::vector<LspSymbol> parse_symbols(const Json& result, std::size_t max) {
    std::vector<LspSymbol> out;
    if (!result.is_array()) return out;
    bool information = !result.empty() && result[0].is_object() && result[0].contains("location");
    if (!information) {
        add_document_symbols(result, 0, "", max, out);
        return out;
    }
    for (const Json& item : result) {
        if (out.size() >= max) break;
        if (!item.is_object()) continue;
        const Json& location = item.value("location", Json());
        auto range = parse_range(location.value("range", Json()));
        std::string name = string_field(item, "name");
        if (name.empty()) continue;
        out.push_back({name, "", string_field(item, "containerName"),
                       static_cast<int>(int_field(item, "kind").value_or(0)),
                       string_field(location, "uri"), range.value_or(LspRange{}), 0});
    }
    return out;
}

std::string_view symbol_kind_name(int kind) {
    if (kind < 1 || kind >= static_cast<int>(symbol_kinds.size())) return symbol_kinds[0];
    return symbol_kinds[static_cast<std::size_t>(kind)];
}

LspCapabilities parse_capabilities(const Json& initialize_result) {
    LspCapabilities out;
    if (!initialize_result.is_object()) return out;
    const Json caps = initialize_result.value("capabilities", Json::object());
    if (!caps.is_object()) return out;
    if (auto sync = caps.find("textDocumentSync"); sync != caps.end()) {
        if (sync->is_number_integer()) {
            out.sync = static_cast<int>(sync->get<std::int64_t>());
            out.open_close = out.sync != 0;
        } else if (sync->is_object()) {
            out.sync = static_cast<int>(int_field(*sync, "change").value_or(0));
            out.open_close = sync->value("openClose", Json(false)) == Json(true);
            if (auto save = sync->find("save"); save != sync->end()) {
                out.save = save->is_object() || (save->is_boolean() && save->get<bool>());
                out.save_text =
                    save->is_object() && save->value("includeText", Json(false)) == Json(true);
            }
        }
    }
    if (out.sync < 0 || out.sync > 2) out.sync = 1;
    out.hover = offered(caps, "hoverProvider");
    out.definition = offered(caps, "definitionProvider");
    out.references = offered(caps, "referencesProvider");
    out.document_symbols = offered(caps, "documentSymbolProvider");
    out.workspace_symbols = offered(caps, "workspaceSymbolProvider");
    return out;
}

Json lsp_initialize_params(std::int64_t process_id, const std::filesystem::path& root,
                           std::string_view client_version, const Json& initialization_options) {
    std::string uri = path_to_uri(root);
    Json text_document = {{"synchronization", {{"didSave", true}, {"dynamicRegistration", false}}},
                          {"publishDiagnostics",
                           {{"relatedInformation", false},
                            {"versionSupport", true},
                            {"codeDescriptionSupport", true}}},
                          {"hover", {{"contentFormat", {"markdown", "plaintext"}}}},
                          {"definition", {{"linkSupport", true}}},
                          {"references", Json::object()},
                          {"documentSymbol",
                           {{"hierarchicalDocumentSymbolSupport", true},
                            {"symbolKind", {{"valueSet", Json::array()}}}}}};
    for (int kind = 1; kind <= 26; ++kind)
        text_document["documentSymbol"]["symbolKind"]["valueSet"].push_back(kind);
    Json params = {{"processId", process_id},
                   {"clientInfo", {{"name", "rio"}, {"version", client_version}}},
                   {"rootUri", uri},
                   {"rootPath", root.string()},
                   {"workspaceFolders", {{{"uri", uri}, {"name", root.filename().string()}}}},
                   {"capabilities",
                    {{"textDocument", text_document},
                     {"workspace",
                      {{"configuration", true},
                       {"workspaceFolders", true},
                       {"symbol", {{"dynamicRegistration", false}}}}},
                     {"window", {{"workDoneProgress", true}}},
                     {"general", {{"positionEncodings", {"utf-16"}}}}}}};
    if (!initialization_options.is_null()) params["initializationOptions"] = initialization_options;
    return params;
}

} // namespace rio
