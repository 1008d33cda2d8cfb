#include "io/install_layout.hpp"

#include <algorithm>

namespace rio {
namespace {

namespace fs = std::filesystem;

// RIO_*_FROM_BIN are relative to the installed program's folder; RIO_INSTALL_* absolute.
std::vector<fs::path> candidates(const fs::path& executable, const char* from_bin,
                                 const char* beside, const char* installed) {
    std::error_code ec;
    fs::path dir = fs::weakly_canonical(executable, ec).parent_path();
    std::vector<fs::path> out;
    for (fs::path p : {(dir / from_bin).lexically_normal(), dir / beside, fs::path(installed)})
        if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
    return out;
}

} // namespace

std::vector<fs::path> share_candidates(const fs::path& executable) {
    return candidates(executable, RIO_SHARE_FROM_BIN, "share/rio", RIO_INSTALL_SHARE_DIR);
}

std::vector<fs::path> module_candidates(const fs::path& executable) {
    return candidates(executable, RIO_MODULES_FROM_BIN, "lib/rio", RIO_INSTALL_MODULE_DIR);
}

std::string list_of_paths(const std::vector<fs::path>& paths) {
    std::string out;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        if (i > 0) out += i + 1 == paths.size() ? " or " : ", ";
        out += paths[i].string();
    }
    return out;
}

} // namespace rio
