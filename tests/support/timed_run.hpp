// Runs a whole program as a benchmark reference (GNU diff, grep): output to /dev/null,
// wall time measured around spawn and exit.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rio::test {

// Seconds the program took, or nullopt when it could not run or exited above `max_exit`
// (diff and grep exit 1 for "differences"/"no match"). `env` entries override the
// inherited environment.
std::optional<double> timed_run(const std::vector<std::string>& argv,
                                const std::vector<std::string>& env = {}, int max_exit = 1);

} // namespace rio::test
