#include "gui/line_endings.hpp"

namespace rio::gui {

LineEnding line_ending_for(std::string_view eol, std::string_view text) {
    if (eol == "crlf") return LineEnding::crlf;
    if (eol == "mixed") {
        auto nl = text.find('\n');
        if (nl != std::string_view::npos && nl > 0 && text[nl - 1] == '\r') return LineEnding::crlf;
    }
    return LineEnding::lf;
}

} // namespace rio::gui
