#include "host/store/secrets.hpp"

#include "host/files/files.hpp"
#include "text/trim.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace rio {
namespace {

namespace fs = std::filesystem;

fs::path secrets_dir(const UserDirs& dirs) {
    return dirs.data / "secrets";
}

// Taken by take_key_variables: the value of each key variable rio-core started with.
std::map<std::string, std::string, std::less<>>& taken_keys() {
    static std::map<std::string, std::string, std::less<>> keys;
    return keys;
}

// Where the environment the process started with lies ([start, end) of /proc/self/stat's
// env_start and env_end, fields 50 and 51), or nothing when the kernel does not say.
std::optional<std::pair<char*, char*>> environment_block() {
    std::ifstream in("/proc/self/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t paren = stat.rfind(')'); // the command name may hold spaces and parentheses
    if (paren == std::string::npos) return std::nullopt;
    std::istringstream fields(stat.substr(paren + 1));
    std::string field;
    std::uintptr_t start = 0, end = 0;
    for (int n = 3; fields >> field && n <= 51; ++n) {
        if (n == 50) start = std::strtoull(field.c_str(), nullptr, 10);
        if (n == 51) end = std::strtoull(field.c_str(), nullptr, 10);
    }
    if (start == 0 || end <= start) return std::nullopt;
    return std::pair{reinterpret_cast<char*>(start), reinterpret_cast<char*>(end)};
}

// Zeroes every "NAME=value" of `names` in the block: the name goes too, so the block says
// nothing of which keys there were.
void erase_from_block(const std::vector<std::string>& names) {
    auto block = environment_block();
    if (!block) return;
    for (char* entry = block->first; entry < block->second;) {
        std::size_t length = ::strnlen(entry, static_cast<std::size_t>(block->second - entry));
        std::string_view var(entry, length);
        for (const std::string& name : names)
            if (var.size() > name.size() && var.starts_with(name) && var[name.size()] == '=')
                std::memset(entry, 0, length);
        entry += length + 1;
    }
}

bool valid_provider_name(std::string_view name) {
    return !name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") ==
                                std::string_view::npos;
}

} // namespace

void take_key_variables(const std::vector<std::string>& names) {
    for (const std::string& name : names)
        if (const char* v = std::getenv(name.c_str()); v && *v) taken_keys()[name] = v;
    for (const std::string& name : names)
        ::unsetenv(name.c_str());
    erase_from_block(names);
}

std::optional<std::string> key_variable(std::string_view name) {
    if (auto it = taken_keys().find(name); it != taken_keys().end()) return it->second;
    const char* v = name.empty() ? nullptr : std::getenv(std::string(name).c_str());
    return v && *v ? std::optional<std::string>(v) : std::nullopt;
}

std::optional<Key> load_key(const UserDirs& dirs, std::string_view provider,
                            std::string_view env_name) {
    if (auto v = key_variable(env_name)) return Key{std::string(trimmed(*v)), KeySource::env};
    if (!valid_provider_name(provider)) return std::nullopt;
    fs::path file = secrets_dir(dirs) / provider;
    auto text = read_file(file, file.string());
    if (!text || trimmed(*text).empty()) return std::nullopt;
    return Key{std::string(trimmed(*text)), KeySource::file};
}

Status store_key(const UserDirs& dirs, std::string_view provider, std::string_view key) {
    if (!valid_provider_name(provider))
        return make_error(ErrorCode::bad_request, "not a provider name: " + std::string(provider));
    std::string value(trimmed(key));
    if (value.empty() || value.find_first_of("\r\n") != std::string::npos)
        return make_error(ErrorCode::bad_request, "the key is empty or spans several lines");
    return write_private_file(secrets_dir(dirs) / provider, value + "\n",
                              "the " + std::string(provider) + " key");
}

Status write_private_file(const fs::path& file, std::string_view text, std::string_view name) {
    fs::path dir = file.parent_path();
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        return make_error(ErrorCode::io_error,
                          "cannot create " + dir.string() + ": " + ec.message());
    if (::chmod(dir.c_str(), 0700) != 0)
        return make_error(ErrorCode::io_error,
                          "cannot protect " + dir.string() + ": " + std::strerror(errno));
    // A fresh file gets 0666 & ~umask; create it 0600 first so the contents are never
    // readable by others, not even between the write and a chmod.
    mode_t old_mask = ::umask(0077);
    if (fs::exists(file, ec)) ::chmod(file.c_str(), 0600);
    Status written = write_file_atomic(file, text, name);
    ::umask(old_mask);
    return written;
}

Status clear_key(const UserDirs& dirs, std::string_view provider) {
    if (!valid_provider_name(provider))
        return make_error(ErrorCode::bad_request, "not a provider name: " + std::string(provider));
    fs::path file = secrets_dir(dirs) / provider;
    if (::unlink(file.c_str()) != 0 && errno != ENOENT)
        return make_error(ErrorCode::io_error, "cannot remove the " + std::string(provider) +
                                                   " key: " + std::strerror(errno));
    return Ok{};
}

} // namespace rio
