// Streamed Markdown cut where it may be painted: a reply arrives in small pieces, and a
// paragraph, list, table or code block is rendered (DESIGN §9, like a plan) once it is
// complete, so that neither its styling nor its line breaks change after it is shown.
#pragma once

#include <string>
#include <string_view>

namespace rio {

class MarkdownBlocks {
public:
    // The Markdown of the blocks that are complete with `text` ("" while none is). A block
    // ends at a blank line followed by a line that starts in the first column, outside a
    // fenced code block: an indented line after a blank one may still belong to a list item.
    std::string feed(std::string_view text);
    // Whatever is held (the message is complete), and a fresh start.
    std::string finish();

private:
    std::string held_;
    std::size_t scanned_ = 0; // complete lines of held_ already looked at
    bool after_blank_ = false;
    char fence_ = 0; // '`' or '~' inside a fenced code block
    std::size_t fence_length_ = 0;
};

} // namespace rio
