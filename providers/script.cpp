// Replays a JSON file of model steps (DESIGN §11): each provider call consumes the next
// step. It ignores the tools it was offered — which is how tests prove the core refuses
// calls it did not offer. Optional `"log": FILE` appends, per call, what the provider was
// given (tools, system prompt, conversation) as one JSON line.
#include "host/files/files.hpp"
#include "protocol/json_parse.hpp"
#include "providers/provider.hpp"
#include "providers/streaming.hpp"

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <tuple>

namespace rio {
namespace {

using Json = nlohmann::json;

struct Step {
    std::string text;
    std::string thinking;
    // Given as arrays: streamed in exactly these pieces (a word may be split across two),
    // for tests of how a frontend shows what arrives in bits.
    std::vector<std::string> text_pieces;
    std::vector<std::string> thinking_pieces;
    std::vector<ToolCall> tools;
    std::chrono::milliseconds delay{0};
    std::optional<Error> error;
    Json usage; // the call's token counts, reported before it ends, as a real provider does
};

struct Script {
    std::vector<Step> steps;
    std::string log; // empty: no log
    std::size_t next = 0;
    std::size_t calls = 0;
};

Result<Step> parse_step(const Json& j, const std::string& where) {
    if (!j.is_object()) return make_error(ErrorCode::bad_request, where + " must be an object");
    Step step;
    for (auto [key, text, pieces] :
         {std::tuple{"text", &step.text, &step.text_pieces},
          std::tuple{"thinking", &step.thinking, &step.thinking_pieces}}) {
        auto it = j.find(key);
        if (it == j.end()) continue;
        if (it->is_array())
            *pieces = it->get<std::vector<std::string>>();
        else
            *text = it->get<std::string>();
    }
    step.delay = std::chrono::milliseconds(j.value("delay_ms", 0));
    if (auto tools = j.find("tools"); tools != j.end()) {
        for (std::size_t i = 0; i < tools->size(); ++i) {
            const Json& t = (*tools)[i];
            std::string at = where + ".tools[" + std::to_string(i) + "]";
            if (!t.is_object() || !t.contains("name") || !t["name"].is_string())
                return make_error(ErrorCode::bad_request, at + " needs a \"name\"");
            step.tools.push_back(
                ToolCall{t.value("id", ""), t["name"], t.value("input", Json::object())});
        }
    }
    if (auto usage = j.find("usage"); usage != j.end()) {
        if (!usage->is_object())
            return make_error(ErrorCode::bad_request, where + ".usage must be an object");
        step.usage = *usage;
    }
    if (auto error = j.find("error"); error != j.end()) {
        auto code = error_code_from_string(error->value("code", "server"));
        if (!code) return make_error(ErrorCode::bad_request, where + ".error.code is unknown");
        step.error = Error{*code, error->value("message", "scripted error")};
    }
    return step;
}

Result<Script> parse_script(const Json& j, const std::string& path) {
    if (!j.is_object() || !j.contains("steps") || !j["steps"].is_array())
        return make_error(ErrorCode::bad_request,
                          "script " + path + " must be a JSON object with a \"steps\" array");
    Script script;
    for (std::size_t i = 0; i < j["steps"].size(); ++i) {
        auto step =
            parse_step(j["steps"][i], "script " + path + ": steps[" + std::to_string(i) + "]");
        if (!step) return step.error();
        script.steps.push_back(std::move(*step));
    }
    if (j.contains("log")) {
        std::filesystem::path log = j["log"].get<std::string>();
        if (log.is_relative()) log = std::filesystem::path(path).parent_path() / log;
        script.log = log.string();
    }
    return script;
}

Result<Script> load_script(const std::string& path) {
    auto bytes = read_file(path, path);
    if (!bytes) return bytes.error();
    auto j = parse_json(*bytes);
    if (!j) return make_error(ErrorCode::bad_request, "script " + path + ": " + j.error().message);
    try {
        return parse_script(*j, path);
    } catch (const Json::exception& e) { // a field of the wrong type, say "delay_ms": "soon"
        return make_error(ErrorCode::bad_request, "script " + path + ": " + json_error_text(e));
    }
}

void log_call(const Script& script, const ProviderRequest& request) {
    if (script.log.empty()) return;
    Json tools = Json::array();
    for (const ToolSpec& spec : request.tools)
        tools.push_back(spec.name);
    Json conversation = Json::array();
    std::string notes; // the mode notes as the request carries them, in the entries' order
    for (const auto& m : request.conversation) {
        conversation.push_back(to_json(*m));
        notes += mode_note_text(*m, request);
    }
    Json line{{"call", script.calls},
              {"tools", tools},
              {"system", request.system},
              {"conversation", conversation}};
    if (!notes.empty()) line["notes"] = notes;
    std::ofstream(script.log, std::ios::app) << line.dump() << "\n";
}

std::vector<ProviderReport> reports_for(const Step& step) {
    std::vector<ProviderReport> reports;
    if (!step.thinking.empty()) reports.push_back(ProviderReport::thinking(step.thinking));
    for (const std::string& piece : step.thinking_pieces)
        reports.push_back(ProviderReport::thinking(piece));
    for (std::string& word : split_words(step.text))
        reports.push_back(ProviderReport::delta(std::move(word)));
    for (const std::string& piece : step.text_pieces)
        reports.push_back(ProviderReport::delta(piece));
    if (step.error) {
        reports.push_back(ProviderReport::error(step.error->code, step.error->message));
        return reports;
    }
    for (const ToolCall& call : step.tools)
        reports.push_back(ProviderReport::tool_call(call));
    if (step.usage.is_object()) reports.push_back(ProviderReport::usage(step.usage));
    reports.push_back(ProviderReport::done(step.tools.empty() ? "end_turn" : "tool_use"));
    return reports;
}

} // namespace

Result<Provider> make_script_provider(asio::io_context& io, const std::string& path) {
    auto loaded = load_script(path);
    if (!loaded) return loaded.error();
    auto script = std::make_shared<Script>(std::move(*loaded));
    Provider provider{"script", "script", {}};
    provider.start = [&io, script](ProviderRequest request, ProviderReportFn report) {
        ++script->calls;
        log_call(*script, request);
        Step step;
        if (script->next < script->steps.size())
            step = script->steps[script->next++];
        else
            step.text = "(script ended)";
        return play_reports(io, reports_for(step), std::move(report), step.delay);
    };
    return provider;
}

Result<Provider> make_provider(asio::io_context& io, std::string_view spec) {
    if (spec == "echo") return make_echo_provider(io);
    if (spec.substr(0, 7) == "script:")
        return make_script_provider(io, std::string(spec.substr(7)));
    if (spec == "script")
        return make_error(ErrorCode::not_configured,
                          "the script provider needs a file: script:FILE");
    return make_error(ErrorCode::not_configured,
                      "unknown provider '" + std::string(spec) + "' (known: echo, script:FILE)");
}

} // namespace rio
