#include "io/install_layout.hpp"

#include <algorithm>
#include <dlfcn.h>
#include <unistd.h>

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

Result<void*> load_module_entry(const char* file_name, const char* entry) {
    constexpr int flags = RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE;
    std::vector<std::filesystem::path> tried;
    void* module = nullptr;
    for (const auto& dir : module_candidates("/proc/self/exe")) {
        tried.push_back(dir / file_name);
        if (::access(tried.back().c_str(), F_OK) != 0) continue;
        module = ::dlopen(tried.back().c_str(), flags);
        if (!module) return make_error(ErrorCode::internal, ::dlerror());
        break;
    }
    if (!module) module = ::dlopen(file_name, flags);
    if (!module)
        return make_error(ErrorCode::internal,
                          std::string(file_name) + " is not at " + list_of_paths(tried));
    void* found = ::dlsym(module, entry);
    if (!found)
        return make_error(ErrorCode::internal, std::string(file_name) + " is not rio's module");
    return found;
}

} // namespace rio
