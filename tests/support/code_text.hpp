// Generated source-code-like text for benchmarks and tests: the same lines for the same seed.
#pragma once

#include "tests/support/rng.hpp"

#include <string>

namespace rio::test {

std::string word(Rng& rng);
// One line: a statement, a condition, a comment or a closing brace, indented.
std::string code_line(Rng& rng);

} // namespace rio::test
