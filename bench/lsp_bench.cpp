// First diagnostics through a real rio-core: from buffer.open of a file with one error at its
// end until lsp.diagnostics names that error — clangd on a 5,000-line C++ file, pylsp on a
// 2,000-line Python file. Each run is a fresh core and a fresh server (what a person meets
// opening a project). Medians of 3 runs.
#include "tests/support/core_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using rio::test::CoreProcess;
using rio::test::Json;
using rio::test::TempDir;

std::string cpp_source(int lines) {
    std::string text = "#include <vector>\n\nnamespace demo {\n";
    for (int i = 0; i < lines / 5; ++i)
        text += "int f" + std::to_string(i) + "(int v) {\n    std::vector<int> xs{v, " +
                std::to_string(i) + "};\n    return xs[0] + xs[1];\n}\n\n";
    return text + "} // namespace demo\n\nint main() { return missing_name; }\n";
}

std::string py_source(int lines) {
    std::string text = "import os\n\n\n";
    for (int i = 0; i < lines / 4; ++i)
        text += "def f" + std::to_string(i) + "(v):\n    return os.sep + str(v + " +
                std::to_string(i) + ")\n\n\n";
    return text + "print(missing_name)\n";
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// Milliseconds from buffer.open to the error's lsp.diagnostics; -1 if it never came.
double first_diagnostics(const std::string& name, const std::string& text,
                         const std::string& server) {
    TempDir home, project;
    rio::test::write_bytes(project / name, text);
    Json servers = Json::object();
    for (const char* builtin : {"clangd", "pylsp", "typescript", "rust-analyzer", "gopls"})
        if (builtin != server) servers[builtin] = {{"disabled", true}};
    rio::test::write_bytes(home / "config/rio/lsp.json", Json{{"servers", servers}}.dump());
    CoreProcess core({"--project", project.path().string(), "--provider", "echo"},
                     {"XDG_CONFIG_HOME=" + (home / "config").string(),
                      "XDG_STATE_HOME=" + (home / "state").string(),
                      "XDG_DATA_HOME=" + (home / "data").string()});
    auto start = std::chrono::steady_clock::now();
    if (core.stdio().request("buffer.open", {{"path", name}})["ok"] != true) return -1;
    for (;;) {
        Json e = core.stdio().next_event("lsp.diagnostics", std::chrono::seconds(120))["params"];
        if (e["path"] == name && !e["diagnostics"].empty()) break;
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

} // namespace

int main() {
    struct Case {
        const char* what;
        std::string name, text, server;
    };
    const Case cases[] = {{"clangd, 5,000-line C++ file", "big.cpp", cpp_source(5000), "clangd"},
                          {"pylsp, 2,000-line Python file", "big.py", py_source(2000), "pylsp"}};
    std::printf("first diagnostics after buffer.open (a fresh core and server), median of 3:\n");
    for (const Case& c : cases) {
        std::vector<double> ms;
        for (int i = 0; i < 3; ++i) {
            double run = first_diagnostics(c.name, c.text, c.server);
            if (run < 0) {
                std::fprintf(stderr, "lsp_bench: %s gave no diagnostics\n", c.what);
                return 1;
            }
            ms.push_back(run);
        }
        std::printf("  %-32s %8.0f ms  (%zu lines)\n", c.what, median(ms),
                    static_cast<std::size_t>(std::count(c.text.begin(), c.text.end(), '\n')));
    }
    return 0;
}
