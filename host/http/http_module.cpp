#include "host/http/http_module.hpp"

#include "io/install_layout.hpp"

#include <dlfcn.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace rio {
namespace {

Error unavailable(const std::string& why) {
    return make_error(ErrorCode::internal, "HTTP is unavailable: " + why);
}

} // namespace

Result<std::unique_ptr<HttpTransport>> load_http_transport(const HttpIdleClock& idle_clock) {
    // From where this program is (an install, or the build tree's lib/rio); last by name
    // through the program's run path, which only test programs in the build tree have.
    // Never unloaded (RTLD_NODELETE): libcurl and OpenSSL keep process-wide state and
    // register exit handlers.
    constexpr int flags = RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE;
    std::vector<std::filesystem::path> tried;
    void* module = nullptr;
    for (const auto& dir : module_candidates("/proc/self/exe")) {
        tried.push_back(dir / RIO_HTTP_MODULE);
        if (::access(tried.back().c_str(), F_OK) != 0) continue;
        module = ::dlopen(tried.back().c_str(), flags);
        if (!module) return unavailable(::dlerror());
        break;
    }
    if (!module) module = ::dlopen(RIO_HTTP_MODULE, flags);
    if (!module) return unavailable(RIO_HTTP_MODULE " is not at " + list_of_paths(tried));
    auto create = reinterpret_cast<HttpTransportFactory>(::dlsym(module, http_transport_factory));
    if (!create) return unavailable(RIO_HTTP_MODULE " is not rio's HTTP module");
    std::unique_ptr<HttpTransport> transport(create(http_transport_version, idle_clock));
    if (!transport)
        return unavailable(RIO_HTTP_MODULE " could not start (out of memory or threads, or a "
                                           "module from another build of rio)");
    return transport;
}

} // namespace rio
