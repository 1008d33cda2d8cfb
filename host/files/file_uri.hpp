// file:// URIs (RFC 8089) as language servers and MCP servers use them: an absolute path,
// every byte but the unreserved ones and '/' percent-encoded, and back (nullopt for another
// scheme, a relative path, a malformed escape or an encoded NUL).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace rio {

std::string path_to_uri(const std::filesystem::path& path);
std::optional<std::filesystem::path> uri_to_path(std::string_view uri);

} // namespace rio
