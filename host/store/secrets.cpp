#include "host/store/secrets.hpp"

#include "host/files/files.hpp"
#include "text/trim.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace rio {
namespace {

namespace fs = std::filesystem;

fs::path secrets_dir(const UserDirs& dirs) {
    return dirs.data / "secrets";
}

bool valid_provider_name(std::string_view name) {
    return !name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") ==
                                std::string_view::npos;
}

} // namespace

std::optional<Key> load_key(const UserDirs& dirs, std::string_view provider,
                            std::string_view env_name) {
    if (!env_name.empty())
        if (const char* v = std::getenv(std::string(env_name).c_str()); v && *v)
            return Key{std::string(trimmed(v)), "env"};
    if (!valid_provider_name(provider)) return std::nullopt;
    fs::path file = secrets_dir(dirs) / provider;
    auto text = read_file(file, file.string());
    if (!text || trimmed(*text).empty()) return std::nullopt;
    return Key{std::string(trimmed(*text)), "file"};
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
