#include "host/lsp/lsp_config.hpp"

#include "protocol/json_parse.hpp"

#include <cmath>
#include <cstdlib>
#include <fnmatch.h>
#include <unistd.h>

namespace rio {
namespace {

using Json = nlohmann::json;

constexpr double max_seconds = 3600;

struct Extension {
    std::string_view ext, language;
};
constexpr Extension extensions[] = {
    {".c", "c"},
    {".h", "cpp"},
    {".cc", "cpp"},
    {".cpp", "cpp"},
    {".cxx", "cpp"},
    {".c++", "cpp"},
    {".hh", "cpp"},
    {".hpp", "cpp"},
    {".hxx", "cpp"},
    {".h++", "cpp"},
    {".ipp", "cpp"},
    {".inl", "cpp"},
    {".m", "objective-c"},
    {".mm", "objective-cpp"},
    {".py", "python"},
    {".pyi", "python"},
    {".ts", "typescript"},
    {".mts", "typescript"},
    {".cts", "typescript"},
    {".tsx", "typescriptreact"},
    {".js", "javascript"},
    {".mjs", "javascript"},
    {".cjs", "javascript"},
    {".jsx", "javascriptreact"},
    {".rs", "rust"},
    {".go", "go"},
};

std::string_view extension_of(std::string_view rel) {
    std::size_t slash = rel.rfind('/');
    std::string_view name = slash == std::string_view::npos ? rel : rel.substr(slash + 1);
    std::size_t dot = name.rfind('.');
    return dot == std::string_view::npos || dot == 0 ? std::string_view() : name.substr(dot);
}

std::optional<std::chrono::milliseconds>
seconds_field(const Json& entry, const char* field, std::string& error, bool zero_allowed = false) {
    auto it = entry.find(field);
    if (it == entry.end()) return std::nullopt;
    if (!it->is_number() || !(it->get<double>() > 0 || (zero_allowed && it->get<double>() == 0)) ||
        it->get<double>() > max_seconds) {
        error = std::string(field) + " must be a number of seconds between 0 and 3600";
        return std::nullopt;
    }
    return std::chrono::milliseconds(std::llround(it->get<double>() * 1000));
}

bool strings_field(const Json& entry, const char* field, std::vector<std::string>& out,
                   std::string& error) {
    auto it = entry.find(field);
    if (it == entry.end()) return true;
    if (!it->is_array()) {
        error = std::string(field) + " must be an array of strings";
        return false;
    }
    std::vector<std::string> values;
    for (const Json& item : *it) {
        if (!item.is_string()) {
            error = std::string(field) + " must be an array of strings";
            return false;
        }
        values.push_back(item.get<std::string>());
    }
    out = std::move(values);
    return true;
}

// One entry of the file over `server` (a built-in or an earlier file's, or a fresh one).
void read_entry(const Json& entry, LspServerConfig& server) {
    std::string& error = server.error;
    error.clear();
    if (!entry.is_object()) {
        error = "must be an object";
        return;
    }
    if (auto command = entry.find("command"); command != entry.end()) {
        if (!command->is_string() || command->get<std::string>().empty()) {
            error = "command must be a non-empty string";
            return;
        }
        server.argv = {command->get<std::string>()};
        std::vector<std::string> args;
        if (!strings_field(entry, "args", args, error)) return;
        server.argv.insert(server.argv.end(), args.begin(), args.end());
    } else if (entry.contains("args")) {
        std::vector<std::string> args;
        if (!strings_field(entry, "args", args, error)) return;
        if (server.argv.empty()) {
            error = "command is required";
            return;
        }
        server.argv.resize(1);
        server.argv.insert(server.argv.end(), args.begin(), args.end());
    }
    if (server.argv.empty()) {
        error = "command is required";
        return;
    }
    if (!strings_field(entry, "files", server.files, error)) return;
    if (auto language = entry.find("language"); language != entry.end()) {
        if (!language->is_string()) {
            error = "language must be a string";
            return;
        }
        server.language = language->get<std::string>();
    }
    if (auto options = entry.find("initializationOptions"); options != entry.end())
        server.initialization_options = *options;
    if (auto settings = entry.find("settings"); settings != entry.end()) {
        if (!settings->is_object()) {
            error = "settings must be an object";
            return;
        }
        server.settings = *settings;
    }
    if (auto t = seconds_field(entry, "timeout_s", error))
        server.timeout = *t;
    else if (!error.empty())
        return;
    if (auto t = seconds_field(entry, "start_timeout_s", error))
        server.start_timeout = *t;
    else if (!error.empty())
        return;
    if (auto t = seconds_field(entry, "diagnostics_wait_s", error))
        server.diagnostics_wait = *t;
    else if (!error.empty())
        return;
    if (auto t = seconds_field(entry, "change_delay_s", error, true))
        server.change_delay = *t;
    else if (!error.empty())
        return;
    if (auto t = seconds_field(entry, "diagnostics_settle_s", error, true))
        server.diagnostics_settle = *t;
    else if (!error.empty())
        return;
    if (auto sync = entry.find("sync"); sync != entry.end()) {
        if (*sync == "full")
            server.sync = LspSync::full;
        else if (*sync == "incremental")
            server.sync = LspSync::incremental;
        else {
            error = "sync must be \"incremental\" or \"full\"";
            return;
        }
    }
    if (auto disabled = entry.find("disabled"); disabled != entry.end()) {
        if (!disabled->is_boolean()) {
            error = "disabled must be true or false";
            return;
        }
        server.disabled = disabled->get<bool>();
    }
    if (server.files.empty()) error = "files is required (globs such as \"*.lua\")";
}

} // namespace

bool LspServerConfig::handles(std::string_view rel) const {
    std::string path(rel);
    std::size_t slash = path.rfind('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    for (const std::string& glob : files) {
        bool whole = glob.find('/') != std::string::npos;
        if (::fnmatch(glob.c_str(), whole ? path.c_str() : name.c_str(),
                      whole ? FNM_PATHNAME : 0) == 0)
            return true;
    }
    return false;
}

std::vector<LspServerConfig> builtin_lsp_servers() {
    auto server = [](std::string name, std::vector<std::string> argv,
                     std::vector<std::string> files, std::string hint) {
        LspServerConfig c;
        c.name = std::move(name);
        c.source = "built-in";
        c.argv = std::move(argv);
        c.files = std::move(files);
        c.install_hint = std::move(hint);
        return c;
    };
    std::vector<LspServerConfig> servers{
        server("clangd", {"clangd", "--log=error"},
               {"*.c", "*.h", "*.cc", "*.cpp", "*.cxx", "*.c++", "*.hh", "*.hpp", "*.hxx", "*.h++",
                "*.ipp", "*.inl", "*.m", "*.mm"},
               "install clangd (Debian: apt install clangd)"),
        server("pylsp", {"pylsp"}, {"*.py", "*.pyi"},
               "install python3-pylsp (Debian: apt install python3-pylsp; elsewhere: pip "
               "install python-lsp-server)"),
        server("typescript", {"typescript-language-server", "--stdio"},
               {"*.ts", "*.tsx", "*.mts", "*.cts", "*.js", "*.jsx", "*.mjs", "*.cjs"},
               "install typescript-language-server (npm install -g "
               "typescript-language-server typescript)"),
        server("rust-analyzer", {"rust-analyzer"}, {"*.rs"},
               "install rust-analyzer (rustup component add rust-analyzer)"),
        server("gopls", {"gopls"}, {"*.go"},
               "install gopls (go install golang.org/x/tools/gopls@latest)"),
    };
    for (LspServerConfig& s : servers) {
        // Both measured (issue 40): pylsp 1.7 applies ranges by code points; the real
        // semantic pass of typescript-language-server followed an empty syntax pass by ~80 ms.
        if (s.name == "pylsp") s.sync = LspSync::full;
        if (s.name == "typescript") s.diagnostics_settle = std::chrono::milliseconds(250);
    }
    return servers;
}

void merge_lsp_config(LspConfig& config, std::string_view text, std::string_view source,
                      std::string_view where) {
    auto parsed = parse_json(text, {.jsonc = true});
    if (!parsed) {
        config.problems.push_back(std::string(where) + ": " + parsed.error().message);
        return;
    }
    const Json& file = *parsed;
    if (!file.is_object() || (file.contains("servers") && !file["servers"].is_object())) {
        config.problems.push_back(std::string(where) +
                                  ": expected an object with a \"servers\" object");
        return;
    }
    if (file.contains("agent")) {
        const Json& agent = file["agent"];
        auto severity = agent.is_object() ? agent.find("severity") : agent.end();
        if (agent.is_object() && severity != agent.end()) {
            auto value = severity->is_string() ? from_wire<Severity>(severity->get<std::string>())
                                               : std::nullopt;
            if (value)
                config.agent_severity = *value;
            else
                config.problems.push_back(
                    std::string(where) +
                    ": agent.severity must be \"error\", \"warning\", \"information\" or \"hint\"");
        }
    }
    if (!file.contains("servers")) return;
    for (const auto& item : file["servers"].items()) {
        const std::string name = item.key();
        const Json& entry = item.value();
        auto same = std::find_if(config.servers.begin(), config.servers.end(),
                                 [&](const LspServerConfig& s) { return s.name == name; });
        if (same == config.servers.end()) {
            config.servers.push_back({});
            same = config.servers.end() - 1;
            same->name = name;
        }
        same->source = std::string(source);
        read_entry(entry, *same);
    }
}

std::string language_id(const LspServerConfig& server, std::string_view rel) {
    if (!server.language.empty()) return server.language;
    std::string ext(extension_of(rel));
    for (char& c : ext)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    for (const Extension& e : extensions)
        if (e.ext == ext) return std::string(e.language);
    return ext.empty() ? std::string("plaintext") : ext.substr(1);
}

std::optional<std::filesystem::path> find_program(std::string_view name) {
    if (name.empty()) return std::nullopt;
    if (name.find('/') != std::string_view::npos) {
        std::string path(name);
        if (::access(path.c_str(), X_OK) == 0) return std::filesystem::path(path);
        return std::nullopt;
    }
    const char* env = std::getenv("PATH");
    std::string_view dirs = env ? env : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
        std::size_t colon = dirs.find(':');
        std::string dir(dirs.substr(0, colon));
        if (dir.empty()) dir = ".";
        std::filesystem::path candidate = std::filesystem::path(dir) / std::string(name);
        std::error_code ec;
        if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate, ec))
            return candidate;
        if (colon == std::string_view::npos) return std::nullopt;
        dirs.remove_prefix(colon + 1);
    }
}

} // namespace rio
