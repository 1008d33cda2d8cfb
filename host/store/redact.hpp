// Keys never leave rio-core in anything it says (DESIGN §12): every line to a client, every
// tool result before the model sees it. Exact matches of each known key; a key shorter than
// min_secret_length is taken for a placeholder, not redacted (it would mangle ordinary text).
#pragma once

#include <string>
#include <vector>

namespace rio {

inline constexpr std::size_t min_secret_length = 8;
inline constexpr const char* redacted_marker = "[redacted]";

// Replaces every occurrence of each secret in `text`; returns how many were replaced.
std::size_t redact(std::string& text, const std::vector<std::string>& secrets);

// The environment for a command: this process's, without `hidden` names (provider keys)
// and without rio's own RIO_* variables.
std::vector<std::string> command_environment(const std::vector<std::string>& hidden);

} // namespace rio
