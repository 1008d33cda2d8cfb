#include "tests/support/temp_dir.hpp"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace rio::test {

TempDir::TempDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "rio-test-XXXXXX").string();
    if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    // Canonical, so comparisons with the core's canonical project root hold.
    path_ = std::filesystem::canonical(templ);
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ignored);
    std::filesystem::remove_all(path_, ignored);
}

void write_bytes(const std::filesystem::path& path, std::string_view bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

void replace_bytes(const std::filesystem::path& path, std::string_view bytes) {
    write_bytes(path.string() + ".next", bytes);
    std::filesystem::rename(path.string() + ".next", path);
}

std::string read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace rio::test
