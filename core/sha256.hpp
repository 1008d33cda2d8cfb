// SHA-256 (FIPS 180-4), for recording which version of a project's power-granting files a
// user trusted. rio's own: the only other copies in the process come with libcurl's TLS
// stack, which the core avoids loading until it talks to a network (decision 0013).
#pragma once

#include <string>
#include <string_view>

namespace rio {

// Lowercase hex, 64 characters.
std::string sha256_hex(std::string_view bytes);

} // namespace rio
