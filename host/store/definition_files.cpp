#include "host/store/definition_files.hpp"

#include "core/front_matter.hpp"
#include "host/files/files.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace rio {
namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t max_definition_bytes = 256 * 1024;

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

bool valid_name(const std::string& name) {
    if (name.empty() || name.size() > 64) return false;
    return std::all_of(name.begin(), name.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '-' || c == '_' || c == ':';
    });
}

// "key: value" lines; a value in quotes loses them. Lines without a colon are left out.
std::map<std::string, std::string, std::less<>> front_matter_fields(std::string_view block) {
    std::map<std::string, std::string, std::less<>> fields;
    std::size_t at = 0;
    while (at < block.size()) {
        std::size_t end = block.find('\n', at);
        if (end == std::string_view::npos) end = block.size();
        std::string_view line = block.substr(at, end - at);
        at = end + 1;
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos || line == "---") continue;
        std::string key = trimmed(line.substr(0, colon));
        std::transform(key.begin(), key.end(), key.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        std::string value = trimmed(line.substr(colon + 1));
        if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
            value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        if (!key.empty()) fields[key] = value;
    }
    return fields;
}

// A project's file that resolves outside the project (a symlink to ~/.aws/credentials) would
// send that file to the model as a prompt: it is skipped.
bool inside(const fs::path& path, const std::optional<fs::path>& root) {
    if (!root) return true;
    std::error_code ec;
    const fs::path real = fs::canonical(path, ec);
    const fs::path top = fs::canonical(*root, ec);
    if (real.empty() || top.empty()) return false;
    auto [end, at] = std::mismatch(top.begin(), top.end(), real.begin(), real.end());
    return end == top.end();
}

void read_folder(const fs::path& folder, const std::optional<fs::path>& root, DefinitionScope scope,
                 DefinitionFiles& out) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) return;
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(folder, ec))
        if (entry.path().extension() == ".md" && entry.is_regular_file(ec))
            paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    for (const fs::path& path : paths) {
        const std::string name = path.stem().string();
        if (!valid_name(name)) {
            out.notes.push_back(path.string() +
                                ": skipped, its name is not letters, digits, '-', '_' or ':'");
            continue;
        }
        if (!inside(path, root)) {
            out.notes.push_back(path.string() + ": skipped, it leads outside the project");
            continue;
        }
        if (fs::file_size(path, ec) > max_definition_bytes) {
            out.notes.push_back(path.string() + ": skipped, larger than 256 KiB");
            continue;
        }
        auto text = read_file(path, path.string());
        if (!text) {
            out.notes.push_back(path.string() + ": skipped, " + text.error().message);
            continue;
        }
        const std::size_t head = front_matter_size(*text);
        DefinitionFile file{name, scope, path,
                            front_matter_fields(std::string_view(*text).substr(0, head)),
                            trimmed(std::string_view(*text).substr(head))};
        if (file.body.empty()) {
            out.notes.push_back(path.string() + ": skipped, it has no text below its front matter");
            continue;
        }
        std::erase_if(out.files, [&](const DefinitionFile& f) { return f.name == name; });
        out.files.push_back(std::move(file));
    }
}

} // namespace

DefinitionFiles read_definition_files(const UserDirs& dirs,
                                      const std::optional<std::filesystem::path>& root,
                                      const std::string& kind) {
    DefinitionFiles out;
    read_folder(dirs.config / kind, std::nullopt, DefinitionScope::user, out);
    if (root) {
        read_folder(*root / ".claude" / kind, root, DefinitionScope::project, out);
        read_folder(*root / ".rio" / kind, root, DefinitionScope::project, out);
    }
    std::sort(out.files.begin(), out.files.end(),
              [](const DefinitionFile& a, const DefinitionFile& b) { return a.name < b.name; });
    return out;
}

std::vector<std::string> definition_list(const std::string& value) {
    std::vector<std::string> items;
    std::string item;
    for (char c : value) {
        if (c == ',' || c == ' ' || c == '[' || c == ']' || c == '"' || c == '\'') {
            if (!item.empty()) items.push_back(std::exchange(item, {}));
            continue;
        }
        item += c;
    }
    if (!item.empty()) items.push_back(item);
    return items;
}

} // namespace rio
