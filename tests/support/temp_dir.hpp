// A fresh folder per test, removed afterwards, plus byte-exact file helpers.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace rio::test {

class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(std::string_view rel) const { return path_ / rel; }

private:
    std::filesystem::path path_;
};

void write_bytes(const std::filesystem::path& path, std::string_view bytes);
std::string read_bytes(const std::filesystem::path& path);
// Written as an editor saves: another file renamed over `path`, so that a watcher never
// sees it half written.
void replace_bytes(const std::filesystem::path& path, std::string_view bytes);

} // namespace rio::test
