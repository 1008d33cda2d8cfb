// The Markdown model and the terminal painter: any text is some document, painted at any
// width without crashing.
#include "cli/ansi_painter.hpp"
#include "text/markdown.hpp"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    rio::md::Block doc = rio::md::parse(text);
    rio::md::AnsiStyle style;
    style.width = 1 + data[0] % 120;
    (void)rio::md::paint_ansi(doc, style);
    return 0;
}
