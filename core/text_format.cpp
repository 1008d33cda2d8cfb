#include "core/text_format.hpp"

#include "text/utf8.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace rio {
namespace {

constexpr std::string_view bom = "\xEF\xBB\xBF";

} // namespace

Result<DecodedText> decode_text(std::string_view bytes, std::string_view name) {
    DecodedText out;
    std::size_t skipped = 0; // offsets in messages count from the file's first byte
    if (bytes.substr(0, bom.size()) == bom) {
        out.encoding = Encoding::utf8_bom;
        skipped = bom.size();
        bytes.remove_prefix(skipped);
    }
    if (auto bad = find_invalid_utf8(bytes)) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(bytes[*bad]));
        return make_error(ErrorCode::refused,
                          std::string(name) + " is not valid UTF-8 (byte " + hex + " at offset " +
                              std::to_string(*bad + skipped) +
                              "); rio edits only UTF-8 text and will not rewrite it");
    }
    if (auto nul = bytes.find('\0'); nul != std::string_view::npos)
        return make_error(ErrorCode::refused,
                          std::string(name) + " looks binary (NUL byte at offset " +
                              std::to_string(nul + skipped) + "); rio edits only text");
    out.text.assign(bytes);
    return out;
}

std::string encode_text(std::string_view text, Encoding encoding) {
    std::string out;
    out.reserve(text.size() + bom.size());
    if (encoding == Encoding::utf8_bom) out.append(bom);
    out.append(text);
    return out;
}

Eol detect_eol(std::string_view text) {
    bool lf = false, crlf = false;
    for (std::size_t i = text.find('\n'); i != std::string_view::npos; i = text.find('\n', i + 1)) {
        (i > 0 && text[i - 1] == '\r' ? crlf : lf) = true;
        if (lf && crlf) return Eol::mixed;
    }
    return crlf ? Eol::crlf : lf ? Eol::lf : Eol::none;
}

} // namespace rio
