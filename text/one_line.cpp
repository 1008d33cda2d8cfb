#include "text/one_line.hpp"

namespace rio {

std::string one_line(std::string_view text) {
    std::string out;
    bool space = false;
    for (char c : text) {
        auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7F || c == ' ') {
            space = !out.empty();
            continue;
        }
        if (space) out.push_back(' ');
        space = false;
        out.push_back(c);
    }
    return out;
}

} // namespace rio
