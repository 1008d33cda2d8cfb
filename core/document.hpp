// An open document: the core's copy of a file's text, which every client edits through the
// protocol (DESIGN §1 "the core owns the document").
#pragma once

#include "core/text_format.hpp"
#include "protocol/error.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rio {

struct Document {
    std::string path; // project-relative with '/' separators; the buffer's key
    std::string text;
    // Bytes the file holds before `text` that the buffer never shows: a plan file's front
    // matter, which the core alone writes (core/front_matter.hpp). Saved with the text.
    std::string head;
    Encoding encoding = Encoding::utf8;
    std::uint64_t version = 1;
    // The text as last read from or written to disk (mark_saved): its version, size and
    // fingerprint. Edits that bring the text back to it (undo to the save point) leave the
    // buffer clean again, whoever made them.
    std::uint64_t saved_version = 1;
    std::size_t saved_size = 0;
    std::uint64_t saved_fingerprint = 0;
    // Identifies the bytes last read from or written to disk, to notice changes by others.
    std::uint64_t disk_fingerprint = 0;

    // The text differs from the one last read or written. Costs a pass over the text only
    // when an edited text has the saved one's size.
    bool dirty() const;
    // The text as the file holds it: the head, then the buffer's text.
    std::string file_text() const { return head + text; }
};

// Replaces the bytes [start, end) of the text. Offsets count UTF-8 bytes.
struct TextEdit {
    std::size_t start = 0;
    std::size_t end = 0;
    std::string text;
};

// Refuses (bad_request) ranges outside the text, offsets inside a UTF-8 sequence and
// replacement text that is not valid UTF-8; the document is unchanged then.
Status apply_edit(Document& doc, const TextEdit& edit);

// The smallest edit that turns `from` into `to`, on character boundaries of both: a text
// reloaded or restored arrives as the change it is, not as a new text.
TextEdit smallest_edit(std::string_view from, std::string_view to);

std::uint64_t fingerprint(std::string_view bytes);

// The disk holds the document's text now (it was just read or written).
void mark_saved(Document& doc);

// Takes the file's whole text: a plan file's front matter goes to `head`, the rest to `text`.
void set_file_text(Document& doc, std::string file_text);

} // namespace rio
