// The environment for a child process: this process's, with `overrides` ("NAME=value")
// replacing entries of the same name — glibc's getenv returns the first match, so an
// appended duplicate would be ignored.
#pragma once

#include <string>
#include <vector>

namespace rio::test {

std::vector<std::string> merged_environment(const std::vector<std::string>& overrides);

} // namespace rio::test
