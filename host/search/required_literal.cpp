#include "host/search/required_literal.hpp"

namespace rio {
namespace {

// Letters whose Unicode case variants are not all ASCII (U+212A KELVIN SIGN, U+017F LONG S).
bool folds_beyond_ascii(char c) {
    return c == 'k' || c == 'K' || c == 's' || c == 'S';
}

} // namespace

std::optional<RequiredLiteral> required_plain_literal(std::string_view p, bool ignore_case) {
    if (p.empty()) return std::nullopt;
    if (!ignore_case) return RequiredLiteral{std::string(p), false};
    std::string best, run;
    for (char c : p) {
        if (static_cast<unsigned char>(c) >= 0x80 || folds_beyond_ascii(c)) {
            if (run.size() > best.size()) best = run;
            run.clear();
        } else {
            run += c;
        }
    }
    if (run.size() > best.size()) best = run;
    if (best.empty()) return std::nullopt;
    return RequiredLiteral{std::move(best), true};
}

} // namespace rio
