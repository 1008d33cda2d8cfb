#include "tests/support/code_text.hpp"

#include <iterator>

namespace rio::test {
namespace {

const char* const kWords[] = {"value",  "count", "index", "buffer", "result", "node",
                              "size",   "total", "line",  "offset", "cursor", "text",
                              "anchor", "range", "width", "height", "parse",  "emit"};

} // namespace

std::string word(Rng& rng) {
    return kWords[rng.below(std::size(kWords))];
}

std::string code_line(Rng& rng) {
    static const char* const kStatic[] = {"}",
                                          "",
                                          "    }",
                                          "    return result;",
                                          "{",
                                          "        break;",
                                          "    } else {",
                                          "#include <vector>"};
    if (rng.below(5) == 0) return kStatic[rng.below(std::size(kStatic))];
    std::string line(4 * (1 + rng.below(3)), ' ');
    switch (rng.below(4)) {
    case 0:
        line += "auto " + word(rng) + "_" + word(rng) + " = " + word(rng) + " + " +
                std::to_string(rng.below(1000)) + ";";
        break;
    case 1:
        line += "if (" + word(rng) + ".size() > " + std::to_string(rng.below(100)) + ") {";
        break;
    case 2:
        line += "// The " + word(rng) + " keeps the " + word(rng) + " in step with the " +
                word(rng) + ".";
        break;
    default:
        line += word(rng) + "_" + word(rng) + "(" + word(rng) + ", " +
                std::to_string(rng.below(10000)) + ");";
    }
    return line;
}

} // namespace rio::test
