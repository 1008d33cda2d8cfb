// Where `rio --connect ADDR` finds a running rio-core: "unix:PATH" or "HOST:PORT" (the same
// spellings as `rio-core --listen`).
#pragma once

#include "protocol/error.hpp"

#include <QString>
#include <cstdint>

namespace rio::gui {

struct CoreAddress {
    bool unix_socket = false;
    QString path; // unix socket
    QString host; // tcp
    std::uint16_t port = 0;
};

Result<CoreAddress> parse_core_address(const QString& spec);

} // namespace rio::gui
