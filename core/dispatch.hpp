// The op registry: later features register ops here without touching any transport.
#pragma once

#include "core/protocol.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

using ClientId = std::uint64_t;

struct Call {
    const Json& params;
    ClientId client;
};

using Handler = std::function<Result<Json>(const Call&)>;

class Dispatcher {
public:
    // Registering an op twice is a programming error and throws std::logic_error.
    void add(std::string op, Handler handler);

    std::vector<std::string> ops() const;

    // One request line in, one response line out. Never throws.
    std::string handle(std::string_view line, ClientId client) const;

    std::string refuse_oversize(std::size_t length, std::size_t limit) const;

private:
    Result<Json> run(const Request& request, ClientId client) const;

    std::map<std::string, Handler, std::less<>> handlers_;
};

} // namespace rio
