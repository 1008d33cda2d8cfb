#include "host/http/http_module.hpp"

#include "io/install_layout.hpp"

#include <string>

namespace rio {
namespace {

Error unavailable(const std::string& why) {
    return make_error(ErrorCode::internal, "HTTP is unavailable: " + why);
}

} // namespace

Result<std::unique_ptr<HttpTransport>> load_http_transport(const HttpIdleClock& idle_clock) {
    auto entry = load_module_entry(RIO_HTTP_MODULE, http_transport_factory);
    if (!entry) return unavailable(entry.error().message);
    auto create = reinterpret_cast<HttpTransportFactory>(*entry);
    std::unique_ptr<HttpTransport> transport(create(http_transport_version, idle_clock));
    if (!transport)
        return unavailable(RIO_HTTP_MODULE " could not start (out of memory or threads, or a "
                                           "module from another build of rio)");
    return transport;
}

} // namespace rio
