// edit_file's matcher: text, old_string and new_string from one input; an accepted edit
// replaces exactly the bytes of old_string (or their CRLF form) and nothing else.
#include "core/agent/edit_match.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    std::size_t a = bytes.find('\x01');
    std::size_t b = a == std::string_view::npos ? a : bytes.find('\x01', a + 1);
    if (b == std::string_view::npos) return 0;
    std::string_view text = bytes.substr(0, a);
    std::string_view old_string = bytes.substr(a + 1, b - a - 1);
    std::string_view new_string = bytes.substr(b + 1);
    auto edit = rio::locate_edit(text, old_string, new_string, "f");
    if (!edit) return 0;
    if (edit->start > edit->end || edit->end > text.size()) std::abort();
    std::string_view replaced = text.substr(edit->start, edit->end - edit->start);
    if (replaced.size() < old_string.size()) std::abort();
    if (replaced == old_string) return 0;
    // Otherwise old_string matched with its '\n' read as "\r\n".
    std::string crlf;
    for (std::size_t i = 0; i < old_string.size(); ++i) {
        if (old_string[i] == '\n' && (i == 0 || old_string[i - 1] != '\r')) crlf.push_back('\r');
        crlf.push_back(old_string[i]);
    }
    if (replaced != crlf) std::abort();
    return 0;
}
