#include "tests/support/environment.hpp"

#include <string_view>

extern char** environ;

namespace rio::test {

std::vector<std::string> merged_environment(const std::vector<std::string>& overrides) {
    auto name_of = [](std::string_view entry) { return entry.substr(0, entry.find('=')); };
    std::vector<std::string> env = overrides;
    for (char** e = environ; *e; ++e) {
        bool overridden = false;
        for (const std::string& o : overrides)
            overridden |= name_of(o) == name_of(*e);
        if (!overridden) env.emplace_back(*e);
    }
    return env;
}

} // namespace rio::test
