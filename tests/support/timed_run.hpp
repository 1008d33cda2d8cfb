// Runs a whole program as a benchmark reference (GNU diff, grep, rg): output to /dev/null
// or a file, wall time measured around spawn and exit.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rio::test {

// Seconds the program took, or nullopt when it could not run or exited above `max_exit`
// (diff and grep exit 1 for "differences"/"no match"). `env` entries override the
// inherited environment. Standard output goes to `output` (truncated first), a file the
// caller can read back: GNU grep skips work when it sees it writes to /dev/null.
std::optional<double> timed_run(const std::vector<std::string>& argv,
                                const std::vector<std::string>& env = {}, int max_exit = 1,
                                const std::string& output = "/dev/null");

} // namespace rio::test
