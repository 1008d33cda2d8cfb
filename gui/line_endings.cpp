#include "gui/line_endings.hpp"

namespace rio::gui {

LineEnding line_ending_for(const Wire<Eol>& eol, std::string_view text) {
    if (eol == Eol::crlf) return LineEnding::crlf;
    if (eol == Eol::mixed) {
        auto nl = text.find('\n');
        if (nl != std::string_view::npos && nl > 0 && text[nl - 1] == '\r') return LineEnding::crlf;
    }
    return LineEnding::lf;
}

} // namespace rio::gui
