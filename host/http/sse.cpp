#include "host/http/sse.hpp"

#include "core/text_format.hpp"

namespace rio {
namespace {

constexpr std::string_view bom = "\xEF\xBB\xBF";

} // namespace

std::vector<SseEvent> SseParser::feed(std::string_view bytes) {
    std::vector<SseEvent> out;
    while (!bytes.empty() && !overflowed_) {
        if (after_cr_) {
            after_cr_ = false;
            if (bytes.front() == '\n') {
                bytes.remove_prefix(1);
                continue;
            }
        }
        std::size_t end = bytes.find_first_of("\r\n");
        std::string_view piece = bytes.substr(0, end);
        if (line_.size() + piece.size() > max_) {
            overflow();
            break;
        }
        if (end == std::string_view::npos) {
            line_.append(piece);
            break;
        }
        after_cr_ = bytes[end] == '\r';
        bytes.remove_prefix(end + 1);
        if (line_.empty()) {
            take_line(piece, out); // the common case: the whole line is in this chunk
        } else {
            line_.append(piece);
            take_line(line_, out);
            line_.clear();
        }
    }
    return out;
}

void SseParser::take_line(std::string_view line, std::vector<SseEvent>& out) {
    if (first_line_) {
        first_line_ = false;
        if (line.substr(0, bom.size()) == bom) line.remove_prefix(bom.size());
    }
    if (line.empty()) {
        dispatch(out);
        return;
    }
    if (line.front() == ':') return; // a comment, often a keep-alive
    std::size_t colon = line.find(':');
    std::string_view field = line.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? "" : line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);

    if (field == "event") {
        type_ = value;
    } else if (field == "data") {
        if (data_.size() + value.size() + (has_data_ ? 1 : 0) > max_) {
            overflow();
            return;
        }
        if (has_data_) data_ += '\n';
        data_.append(value);
        has_data_ = true;
    }
}

void SseParser::dispatch(std::vector<SseEvent>& out) {
    if (has_data_) out.push_back(SseEvent{type_.empty() ? "message" : type_, std::move(data_)});
    data_.clear();
    type_.clear(); // the spec resets the type even for an event it does not dispatch
    has_data_ = false;
}

void SseParser::overflow() {
    overflowed_ = true;
    line_ = std::string();
    data_ = std::string();
}

std::string wire_excerpt(std::string_view bytes, std::size_t max_bytes) {
    std::string valid = to_valid_utf8(bytes);
    std::string out;
    bool space = false; // collapse runs of whitespace and control bytes into one space
    for (std::size_t i = 0; i < valid.size();) {
        std::size_t n = 1;
        while (i + n < valid.size() && !is_char_boundary(valid, i + n))
            ++n;
        unsigned char c = static_cast<unsigned char>(valid[i]);
        if (n == 1 && (c <= ' ' || c == 0x7F)) {
            space = !out.empty();
            ++i;
            continue;
        }
        if (out.size() + (space ? 1 : 0) + n > max_bytes) {
            out += "\xE2\x80\xA6"; // …
            return out;
        }
        if (space) out += ' ';
        space = false;
        out.append(valid, i, n);
        i += n;
    }
    return out;
}

} // namespace rio
