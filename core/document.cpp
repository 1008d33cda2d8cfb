#include "core/document.hpp"

#include "core/front_matter.hpp"

#include <functional>

namespace rio {

bool Document::dirty() const {
    if (version == saved_version) return false;
    return text.size() != saved_size || fingerprint(text) != saved_fingerprint;
}

void mark_saved(Document& doc) {
    doc.saved_version = doc.version;
    doc.saved_size = doc.text.size();
    doc.saved_fingerprint = fingerprint(doc.text);
}

Status apply_edit(Document& doc, const TextEdit& edit) {
    const std::string& text = doc.text;
    if (edit.start > edit.end || edit.end > text.size())
        return make_error(ErrorCode::bad_request, "range " + std::to_string(edit.start) + ".." +
                                                      std::to_string(edit.end) + " is outside " +
                                                      doc.path + " (" +
                                                      std::to_string(text.size()) + " bytes)");
    for (std::size_t offset : {edit.start, edit.end})
        if (!is_char_boundary(text, offset))
            return make_error(ErrorCode::bad_request, "offset " + std::to_string(offset) +
                                                          " is inside a UTF-8 character of " +
                                                          doc.path);
    if (auto bad = find_invalid_utf8(edit.text))
        return make_error(ErrorCode::bad_request,
                          "replacement text is not valid UTF-8 at byte " + std::to_string(*bad));
    doc.text.replace(edit.start, edit.end - edit.start, edit.text);
    ++doc.version;
    return Ok{};
}

TextEdit smallest_edit(std::string_view from, std::string_view to) {
    std::size_t start = 0;
    while (start < from.size() && start < to.size() && from[start] == to[start])
        ++start;
    while (start > 0 && !is_char_boundary(from, start))
        --start;
    std::size_t tail = 0;
    while (tail < from.size() - start && tail < to.size() - start &&
           from[from.size() - 1 - tail] == to[to.size() - 1 - tail])
        ++tail;
    while (tail > 0 && !is_char_boundary(from, from.size() - tail))
        --tail;
    return TextEdit{start, from.size() - tail,
                    std::string(to.substr(start, to.size() - tail - start))};
}

std::uint64_t fingerprint(std::string_view bytes) {
    // Only compared within one process run, so the fast library hash suffices.
    return std::hash<std::string_view>{}(bytes) ^ bytes.size();
}

void set_file_text(Document& doc, std::string file_text) {
    std::size_t head = keeps_front_matter(doc.path) ? front_matter_size(file_text) : 0;
    doc.head = file_text.substr(0, head);
    doc.text = file_text.substr(head);
}

} // namespace rio
