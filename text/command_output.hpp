// What a command printed, as a person reads it under the command (decision 0057): the
// terminal's escape sequences taken out, lines a progress bar rewrote with '\r' shown as
// they ended, and the end of it when there is too much to show.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

// CSI (colours, cursor moves), OSC (titles, links) and other ESC sequences removed; "\r\n"
// as "\n"; a bare '\r' starts its line again (what follows overwrites it, as on a terminal);
// a backspace takes back the character before it; other C0 controls and DEL dropped. Tabs
// and line breaks stay, and so does everything else, invalid UTF-8 included.
std::string plain_output(std::string_view raw);

struct OutputTail {
    std::vector<std::string_view> lines; // the last lines, in order, without terminators
    std::size_t hidden = 0;              // lines before them
};
// The last `count` lines of `text` (a final line break does not start an empty line).
OutputTail last_lines(std::string_view text, std::size_t count);

// At most `max_bytes` of the end of `text`, starting at a line when one starts in it (else at
// a character): what fits of a long output, keeping the end where a failure is said.
std::string_view output_tail(std::string_view text, std::size_t max_bytes);

} // namespace rio
