#include "host/store/shipped_prompts.hpp"

#include "io/install_layout.hpp"

#include <fstream>
#include <iterator>

namespace rio {
namespace {

namespace fs = std::filesystem;

bool has_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return false;
    std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return text.find_first_not_of(" \t\r\n") != std::string::npos;
}

} // namespace

std::optional<std::string> missing_shipped_prompts(const UserDirs& dirs) {
    struct Prompt {
        const char* name;
        const char* file;
    };
    std::string missing;
    for (const Prompt& prompt :
         {Prompt{"base prompt", "agent/prompt.md"}, Prompt{"plan prompt", "agent/plan.md"}}) {
        if (has_text(dirs.share / prompt.file)) continue;
        // find_user_dirs settles on a folder only when it holds both prompts, so a missing
        // one was looked for in every folder tried.
        std::vector<fs::path> tried;
        for (const fs::path& dir : dirs.share_tried)
            tried.push_back(dir / prompt.file);
        missing += (missing.empty() ? "" : "; ") + std::string(prompt.name) +
                   " missing or empty: tried " + list_of_paths(tried);
    }
    if (missing.empty()) return std::nullopt;
    return "rio's shipped prompts are not where they should be (" + missing +
           "). Reinstall rio, or set RIO_SHARE_DIR to a folder holding agent/prompt.md and "
           "agent/plan.md.";
}

} // namespace rio
