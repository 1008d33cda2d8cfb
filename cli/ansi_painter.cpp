#include "cli/ansi_painter.hpp"

#include "core/text_format.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <utility>

namespace rio::md {
namespace {

struct Range {
    char32_t first;
    char32_t last;
};

// Generated from Unicode 14 (Python's unicodedata): general categories Mn, Me and Cf, plus
// Hangul medial and final jamo, merged across unassigned gaps. U+00AD (soft hyphen) stays 1.
constexpr Range zero_width[] = {
    {0x0300, 0x036F},   {0x0483, 0x0489},   {0x0591, 0x05BD},   {0x05BF, 0x05BF},
    {0x05C1, 0x05C2},   {0x05C4, 0x05C5},   {0x05C7, 0x05C7},   {0x0600, 0x0605},
    {0x0610, 0x061A},   {0x061C, 0x061C},   {0x064B, 0x065F},   {0x0670, 0x0670},
    {0x06D6, 0x06DD},   {0x06DF, 0x06E4},   {0x06E7, 0x06E8},   {0x06EA, 0x06ED},
    {0x070F, 0x070F},   {0x0711, 0x0711},   {0x0730, 0x074A},   {0x07A6, 0x07B0},
    {0x07EB, 0x07F3},   {0x07FD, 0x07FD},   {0x0816, 0x0819},   {0x081B, 0x0823},
    {0x0825, 0x0827},   {0x0829, 0x082D},   {0x0859, 0x085B},   {0x0890, 0x089F},
    {0x08CA, 0x0902},   {0x093A, 0x093A},   {0x093C, 0x093C},   {0x0941, 0x0948},
    {0x094D, 0x094D},   {0x0951, 0x0957},   {0x0962, 0x0963},   {0x0981, 0x0981},
    {0x09BC, 0x09BC},   {0x09C1, 0x09C4},   {0x09CD, 0x09CD},   {0x09E2, 0x09E3},
    {0x09FE, 0x0A02},   {0x0A3C, 0x0A3C},   {0x0A41, 0x0A51},   {0x0A70, 0x0A71},
    {0x0A75, 0x0A75},   {0x0A81, 0x0A82},   {0x0ABC, 0x0ABC},   {0x0AC1, 0x0AC8},
    {0x0ACD, 0x0ACD},   {0x0AE2, 0x0AE3},   {0x0AFA, 0x0B01},   {0x0B3C, 0x0B3C},
    {0x0B3F, 0x0B3F},   {0x0B41, 0x0B44},   {0x0B4D, 0x0B56},   {0x0B62, 0x0B63},
    {0x0B82, 0x0B82},   {0x0BC0, 0x0BC0},   {0x0BCD, 0x0BCD},   {0x0C00, 0x0C00},
    {0x0C04, 0x0C04},   {0x0C3C, 0x0C3C},   {0x0C3E, 0x0C40},   {0x0C46, 0x0C56},
    {0x0C62, 0x0C63},   {0x0C81, 0x0C81},   {0x0CBC, 0x0CBC},   {0x0CBF, 0x0CBF},
    {0x0CC6, 0x0CC6},   {0x0CCC, 0x0CCD},   {0x0CE2, 0x0CE3},   {0x0D00, 0x0D01},
    {0x0D3B, 0x0D3C},   {0x0D41, 0x0D44},   {0x0D4D, 0x0D4D},   {0x0D62, 0x0D63},
    {0x0D81, 0x0D81},   {0x0DCA, 0x0DCA},   {0x0DD2, 0x0DD6},   {0x0E31, 0x0E31},
    {0x0E34, 0x0E3A},   {0x0E47, 0x0E4E},   {0x0EB1, 0x0EB1},   {0x0EB4, 0x0EBC},
    {0x0EC8, 0x0ECD},   {0x0F18, 0x0F19},   {0x0F35, 0x0F35},   {0x0F37, 0x0F37},
    {0x0F39, 0x0F39},   {0x0F71, 0x0F7E},   {0x0F80, 0x0F84},   {0x0F86, 0x0F87},
    {0x0F8D, 0x0FBC},   {0x0FC6, 0x0FC6},   {0x102D, 0x1030},   {0x1032, 0x1037},
    {0x1039, 0x103A},   {0x103D, 0x103E},   {0x1058, 0x1059},   {0x105E, 0x1060},
    {0x1071, 0x1074},   {0x1082, 0x1082},   {0x1085, 0x1086},   {0x108D, 0x108D},
    {0x109D, 0x109D},   {0x1160, 0x11FF},   {0x135D, 0x135F},   {0x1712, 0x1714},
    {0x1732, 0x1733},   {0x1752, 0x1753},   {0x1772, 0x1773},   {0x17B4, 0x17B5},
    {0x17B7, 0x17BD},   {0x17C6, 0x17C6},   {0x17C9, 0x17D3},   {0x17DD, 0x17DD},
    {0x180B, 0x180F},   {0x1885, 0x1886},   {0x18A9, 0x18A9},   {0x1920, 0x1922},
    {0x1927, 0x1928},   {0x1932, 0x1932},   {0x1939, 0x193B},   {0x1A17, 0x1A18},
    {0x1A1B, 0x1A1B},   {0x1A56, 0x1A56},   {0x1A58, 0x1A60},   {0x1A62, 0x1A62},
    {0x1A65, 0x1A6C},   {0x1A73, 0x1A7F},   {0x1AB0, 0x1B03},   {0x1B34, 0x1B34},
    {0x1B36, 0x1B3A},   {0x1B3C, 0x1B3C},   {0x1B42, 0x1B42},   {0x1B6B, 0x1B73},
    {0x1B80, 0x1B81},   {0x1BA2, 0x1BA5},   {0x1BA8, 0x1BA9},   {0x1BAB, 0x1BAD},
    {0x1BE6, 0x1BE6},   {0x1BE8, 0x1BE9},   {0x1BED, 0x1BED},   {0x1BEF, 0x1BF1},
    {0x1C2C, 0x1C33},   {0x1C36, 0x1C37},   {0x1CD0, 0x1CD2},   {0x1CD4, 0x1CE0},
    {0x1CE2, 0x1CE8},   {0x1CED, 0x1CED},   {0x1CF4, 0x1CF4},   {0x1CF8, 0x1CF9},
    {0x1DC0, 0x1DFF},   {0x200B, 0x200F},   {0x202A, 0x202E},   {0x2060, 0x206F},
    {0x20D0, 0x20F0},   {0x2CEF, 0x2CF1},   {0x2D7F, 0x2D7F},   {0x2DE0, 0x2DFF},
    {0x302A, 0x302D},   {0x3099, 0x309A},   {0xA66F, 0xA672},   {0xA674, 0xA67D},
    {0xA69E, 0xA69F},   {0xA6F0, 0xA6F1},   {0xA802, 0xA802},   {0xA806, 0xA806},
    {0xA80B, 0xA80B},   {0xA825, 0xA826},   {0xA82C, 0xA82C},   {0xA8C4, 0xA8C5},
    {0xA8E0, 0xA8F1},   {0xA8FF, 0xA8FF},   {0xA926, 0xA92D},   {0xA947, 0xA951},
    {0xA980, 0xA982},   {0xA9B3, 0xA9B3},   {0xA9B6, 0xA9B9},   {0xA9BC, 0xA9BD},
    {0xA9E5, 0xA9E5},   {0xAA29, 0xAA2E},   {0xAA31, 0xAA32},   {0xAA35, 0xAA36},
    {0xAA43, 0xAA43},   {0xAA4C, 0xAA4C},   {0xAA7C, 0xAA7C},   {0xAAB0, 0xAAB0},
    {0xAAB2, 0xAAB4},   {0xAAB7, 0xAAB8},   {0xAABE, 0xAABF},   {0xAAC1, 0xAAC1},
    {0xAAEC, 0xAAED},   {0xAAF6, 0xAAF6},   {0xABE5, 0xABE5},   {0xABE8, 0xABE8},
    {0xABED, 0xABED},   {0xD7B0, 0xD7FF},   {0xFB1E, 0xFB1E},   {0xFE00, 0xFE0F},
    {0xFE20, 0xFE2F},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x101FD, 0x101FD},
    {0x102E0, 0x102E0}, {0x10376, 0x1037A}, {0x10A01, 0x10A0F}, {0x10A38, 0x10A3F},
    {0x10AE5, 0x10AE6}, {0x10D24, 0x10D27}, {0x10EAB, 0x10EAC}, {0x10F46, 0x10F50},
    {0x10F82, 0x10F85}, {0x11001, 0x11001}, {0x11038, 0x11046}, {0x11070, 0x11070},
    {0x11073, 0x11074}, {0x1107F, 0x11081}, {0x110B3, 0x110B6}, {0x110B9, 0x110BA},
    {0x110BD, 0x110BD}, {0x110C2, 0x110CD}, {0x11100, 0x11102}, {0x11127, 0x1112B},
    {0x1112D, 0x11134}, {0x11173, 0x11173}, {0x11180, 0x11181}, {0x111B6, 0x111BE},
    {0x111C9, 0x111CC}, {0x111CF, 0x111CF}, {0x1122F, 0x11231}, {0x11234, 0x11234},
    {0x11236, 0x11237}, {0x1123E, 0x1123E}, {0x112DF, 0x112DF}, {0x112E3, 0x112EA},
    {0x11300, 0x11301}, {0x1133B, 0x1133C}, {0x11340, 0x11340}, {0x11366, 0x11374},
    {0x11438, 0x1143F}, {0x11442, 0x11444}, {0x11446, 0x11446}, {0x1145E, 0x1145E},
    {0x114B3, 0x114B8}, {0x114BA, 0x114BA}, {0x114BF, 0x114C0}, {0x114C2, 0x114C3},
    {0x115B2, 0x115B5}, {0x115BC, 0x115BD}, {0x115BF, 0x115C0}, {0x115DC, 0x115DD},
    {0x11633, 0x1163A}, {0x1163D, 0x1163D}, {0x1163F, 0x11640}, {0x116AB, 0x116AB},
    {0x116AD, 0x116AD}, {0x116B0, 0x116B5}, {0x116B7, 0x116B7}, {0x1171D, 0x1171F},
    {0x11722, 0x11725}, {0x11727, 0x1172B}, {0x1182F, 0x11837}, {0x11839, 0x1183A},
    {0x1193B, 0x1193C}, {0x1193E, 0x1193E}, {0x11943, 0x11943}, {0x119D4, 0x119DB},
    {0x119E0, 0x119E0}, {0x11A01, 0x11A0A}, {0x11A33, 0x11A38}, {0x11A3B, 0x11A3E},
    {0x11A47, 0x11A47}, {0x11A51, 0x11A56}, {0x11A59, 0x11A5B}, {0x11A8A, 0x11A96},
    {0x11A98, 0x11A99}, {0x11C30, 0x11C3D}, {0x11C3F, 0x11C3F}, {0x11C92, 0x11CA7},
    {0x11CAA, 0x11CB0}, {0x11CB2, 0x11CB3}, {0x11CB5, 0x11CB6}, {0x11D31, 0x11D45},
    {0x11D47, 0x11D47}, {0x11D90, 0x11D91}, {0x11D95, 0x11D95}, {0x11D97, 0x11D97},
    {0x11EF3, 0x11EF4}, {0x13430, 0x13438}, {0x16AF0, 0x16AF4}, {0x16B30, 0x16B36},
    {0x16F4F, 0x16F4F}, {0x16F8F, 0x16F92}, {0x16FE4, 0x16FE4}, {0x1BC9D, 0x1BC9E},
    {0x1BCA0, 0x1CF46}, {0x1D167, 0x1D169}, {0x1D173, 0x1D182}, {0x1D185, 0x1D18B},
    {0x1D1AA, 0x1D1AD}, {0x1D242, 0x1D244}, {0x1DA00, 0x1DA36}, {0x1DA3B, 0x1DA6C},
    {0x1DA75, 0x1DA75}, {0x1DA84, 0x1DA84}, {0x1DA9B, 0x1DAAF}, {0x1E000, 0x1E02A},
    {0x1E130, 0x1E136}, {0x1E2AE, 0x1E2AE}, {0x1E2EC, 0x1E2EF}, {0x1E8D0, 0x1E8D6},
    {0x1E944, 0x1E94A}, {0xE0001, 0xE01EF},
};

// East Asian Width W and F (wide emoji included), plus the unassigned rest of the CJK
// ideograph planes, which will be wide when assigned.
constexpr Range wide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x3247},   {0x3250, 0x4DBF},   {0x4E00, 0xA4C6},   {0xA960, 0xA97C},
    {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6B},
    {0xFF01, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x1B2FB}, {0x1F004, 0x1F004},
    {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F320},
    {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA},
    {0x1F3CF, 0x1F3D3}, {0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E},
    {0x1F440, 0x1F440}, {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E},
    {0x1F550, 0x1F567}, {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4},
    {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5}, {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2},
    {0x1F6D5, 0x1F6DF}, {0x1F6EB, 0x1F6EC}, {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7F0},
    {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1F9FF}, {0x1FA70, 0x1FAF6},
    {0x20000, 0x3FFFD},
};

bool in(const Range* begin, const Range* end, char32_t cp) {
    const Range* r = std::upper_bound(
        begin, end, cp, [](char32_t c, const Range& range) { return c < range.first; });
    return r != begin && cp <= (r - 1)->last;
}

int code_point_width(char32_t cp) {
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) return 0;
    if (cp < 0x300) return 1;
    if (in(std::begin(zero_width), std::end(zero_width), cp)) return 0;
    if (in(std::begin(wide), std::end(wide), cp)) return 2;
    return 1;
}

struct Decoded {
    char32_t cp;
    std::size_t length; // bytes
    bool valid;
};

Decoded decode(std::string_view s, std::size_t at) {
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    unsigned char lead = byte(at);
    if (lead < 0x80) return {lead, 1, true};
    std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    if (at + length > s.size() || find_invalid_utf8(s.substr(at, length)))
        return {0xFFFD, 1, false};
    char32_t cp = lead & (0x7F >> length);
    for (std::size_t i = 1; i < length; ++i)
        cp = (cp << 6) | (byte(at + i) & 0x3F);
    return {cp, length, true};
}

// Past the escape sequence at `at` (an ESC): CSI, OSC/DCS-style strings, or ESC + one byte.
std::size_t skip_escape(std::string_view s, std::size_t at) {
    std::size_t i = at + 1;
    if (i >= s.size()) return i;
    char kind = s[i++];
    if (kind == '[') {
        while (i < s.size() && !(s[i] >= 0x40 && s[i] <= 0x7E))
            ++i;
        return std::min(i + 1, s.size());
    }
    if (kind == ']' || kind == 'P' || kind == 'X' || kind == '^' || kind == '_') {
        while (i < s.size()) {
            if (s[i] == '\a') return i + 1;
            if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '\\') return i + 2;
            ++i;
        }
        return i;
    }
    return i;
}

// ---- styled text ----------------------------------------------------------------------

enum Style : unsigned {
    plain = 0,
    bold = 1,
    dim = 2,
    italic = 4,
    underline = 8,
    strike = 16,
    code = 32,    // inline code and code blocks
    checked = 64, // a done task's box
};

std::string sgr_codes(unsigned style) {
    std::string codes;
    auto add = [&](unsigned bit, const char* code) {
        if (!(style & bit)) return;
        if (!codes.empty()) codes.push_back(';');
        codes += code;
    };
    add(bold, "1");
    add(dim, "2");
    add(italic, "3");
    add(underline, "4");
    add(strike, "9");
    add(code, "36");
    add(checked, "32");
    return codes;
}

std::string sgr_change(unsigned from, unsigned to) {
    if (to == plain) return "\x1b[0m";
    return (from == plain ? "\x1b[" : "\x1b[0;") + sgr_codes(to) + "m";
}

struct Run {
    std::string text;
    unsigned style = plain;
};

using Line = std::vector<Run>;

void append(Line& line, std::string_view text, unsigned style) {
    if (text.empty()) return;
    if (line.empty() || line.back().style != style) line.push_back({{}, style});
    line.back().text += text;
}

void append(Line& line, const Line& more) {
    for (const Run& run : more)
        append(line, run.text, run.style);
}

int width_of(const Line& line) {
    int width = 0;
    for (const Run& run : line)
        width += display_width(run.text);
    return width;
}

std::string repeat(std::string_view s, int count) {
    std::string out;
    for (int i = 0; i < count; ++i)
        out += s;
    return out;
}

void trim_right(Line& line) {
    while (!line.empty()) {
        std::string& text = line.back().text;
        text.erase(text.find_last_not_of(' ') + 1);
        if (!text.empty()) return;
        line.pop_back();
    }
}

// Text as the terminal may receive it: valid UTF-8, and every control character (an ESC
// would let a document drive the terminal) as its visible Control Picture. Inline text turns
// tabs and line breaks into spaces; code expands tabs to stops of four columns.
std::string clean(std::string_view text, bool code_text) {
    std::string valid;
    if (find_invalid_utf8(text)) {
        valid = to_valid_utf8(text);
        text = valid;
    }
    std::string out;
    out.reserve(text.size());
    int column = 0;
    for (std::size_t at = 0; at < text.size();) {
        Decoded d = decode(text, at);
        std::string_view bytes = text.substr(at, d.length);
        at += d.length;
        if (d.cp == '\t' && code_text) {
            int spaces = 4 - column % 4;
            out.append(static_cast<std::size_t>(spaces), ' ');
            column += spaces;
            continue;
        }
        if (!code_text && (d.cp == '\t' || d.cp == '\n' || d.cp == '\r')) {
            out.push_back(' ');
        } else if (d.cp < 0x20) { // U+2400 + c, as UTF-8
            out += "\xE2\x90";
            out.push_back(static_cast<char>(0x80 + d.cp));
            ++column;
        } else if (d.cp == 0x7F) {
            out += "\u2421";
            ++column;
        } else if (d.cp >= 0x80 && d.cp < 0xA0) {
            out += "\uFFFD";
            ++column;
        } else {
            out += bytes;
            column += code_point_width(d.cp);
        }
    }
    return out;
}

// ---- filling lines ----------------------------------------------------------------------

// A paragraph as words (runs without whitespace between them: "**a**b" is one word),
// spaces and joints (where a line may break, with or without a space) and hard breaks.
struct Token {
    enum Kind { word, space, joint, newline } kind;
    Line runs;
};

constexpr std::u32string_view no_break_before = U")]},.:;!?\u3001\u3002\uFF0C\uFF0E\uFF1A\uFF1B"
                                                U"\uFF01\uFF1F\uFF09\uFF3D\uFF5D\u300D\u300F"
                                                U"\u3011\u3015\u3009\u300B\u3019\u301B\u301E"
                                                U"\u301F\u30FC\u30FB\u3041\u3043\u3045\u3047"
                                                U"\u3049\u3063\u3083\u3085\u3087\u308E\u30A1"
                                                U"\u30A3\u30A5\u30A7\u30A9\u30C3\u30E3\u30E5"
                                                U"\u30E7\u30EE\u30F5\u30F6\u309D\u309E\u30FD"
                                                U"\u30FE\u3005\u301C\uFF5E";
constexpr std::u32string_view no_break_after =
    U"([{\uFF08\uFF3B\uFF5B\u300C\u300E\u3010\u3014\u3008\u300A\u3018\u301A\u301D";

// CJK text has no spaces: a line may break next to a wide character, except before closing
// punctuation or small kana and after opening punctuation (UAX #14, roughly).
bool breaks_between(char32_t before, char32_t after) {
    int w_before = code_point_width(before);
    int w_after = code_point_width(after);
    if (w_before == 0 || w_after == 0 || (w_before != 2 && w_after != 2)) return false;
    return no_break_before.find(after) == std::u32string_view::npos &&
           no_break_after.find(before) == std::u32string_view::npos;
}

struct Flow {
    std::vector<Token> tokens;
    char32_t last = 0; // the last character of the word being built, 0 after a space

    void word_part(std::string_view text, unsigned style) {
        if (text.empty()) return;
        if (tokens.empty() || tokens.back().kind != Token::word)
            tokens.push_back({Token::word, {}});
        append(tokens.back().runs, text, style);
    }

    void word(std::string_view text, unsigned style) {
        std::size_t part = 0;
        for (std::size_t at = 0; at < text.size();) {
            Decoded d = decode(text, at);
            if (last != 0 && breaks_between(last, d.cp)) {
                word_part(text.substr(part, at - part), style);
                tokens.push_back({Token::joint, {}});
                part = at;
            }
            last = d.cp;
            at += d.length;
        }
        word_part(text.substr(part), style);
    }

    void text(std::string_view text, unsigned style) {
        std::string cleaned = clean(text, false);
        std::string_view rest = cleaned;
        while (!rest.empty()) {
            std::size_t gap = rest.find(' ');
            word(rest.substr(0, gap), style);
            if (gap == std::string_view::npos) break;
            if (tokens.empty() || tokens.back().kind != Token::space)
                tokens.push_back({Token::space, {{" ", style}}});
            last = 0;
            rest = rest.substr(gap + 1);
        }
    }

    void newline() {
        tokens.push_back({Token::newline, {}});
        last = 0;
    }

    void spans(const std::vector<Span>& spans, unsigned style) {
        for (const Span& span : spans)
            this->span(span, style);
    }

    // A link's destination is shown, so that the reader can judge where it goes; an
    // autolink already shows it.
    void link(const Span& span, unsigned style) {
        std::string label = plain_text(span.children);
        bool shown = span.href.empty() || label == span.href || "mailto:" + label == span.href ||
                     "http://" + label == span.href || "https://" + label == span.href;
        if (span.children.empty()) {
            text(span.href, style | underline);
            return;
        }
        spans(span.children, style | underline);
        if (!shown) text(" (" + span.href + ")", dim);
    }

    void span(const Span& span, unsigned style) {
        switch (span.kind) {
        case SpanKind::text:
            text(span.text, style);
            break;
        case SpanKind::code:
            text(span.text, style | code);
            break;
        case SpanKind::emphasis:
            spans(span.children, style | italic);
            break;
        case SpanKind::strong:
            spans(span.children, style | bold);
            break;
        case SpanKind::strike:
            spans(span.children, style | strike);
            break;
        case SpanKind::link:
            link(span, style);
            break;
        case SpanKind::image:
            text(span.children.empty() ? "image" : "image: ", dim);
            spans(span.children, style | italic);
            if (!span.href.empty()) text(" (" + span.href + ")", dim);
            break;
        case SpanKind::soft_break:
            text(" ", style);
            break;
        case SpanKind::hard_break:
            newline();
            break;
        }
    }
};

// Greedy filling by display width. A word wider than the line is cut between characters
// (never inside one; a combining mark stays with its base).
std::vector<Line> wrap(const std::vector<Token>& tokens, int width) {
    std::vector<Line> lines;
    Line line;
    int column = 0;
    bool started = false;
    const Run* space = nullptr; // the space before the next word, if it may go on this line
    bool joint = false;
    auto next_line = [&] {
        lines.push_back(std::move(line));
        line.clear();
        column = 0;
        started = false;
    };
    for (const Token& token : tokens) {
        if (token.kind == Token::space) {
            if (started) space = &token.runs.front();
            continue;
        }
        if (token.kind == Token::joint) {
            joint = started;
            continue;
        }
        if (token.kind == Token::newline) {
            next_line();
            space = nullptr;
            joint = false;
            continue;
        }
        int w = width_of(token.runs);
        if (started && space && column + 1 + w <= width) {
            append(line, " ", space->style);
            append(line, token.runs);
            column += 1 + w;
        } else if (started && joint && !space && column + w <= width) {
            append(line, token.runs);
            column += w;
        } else {
            if (started) next_line();
            if (w <= width) {
                append(line, token.runs);
                column = w;
                started = true;
            } else {
                for (const Run& run : token.runs) {
                    for (std::size_t at = 0; at < run.text.size();) {
                        Decoded d = decode(run.text, at);
                        int cw = code_point_width(d.cp);
                        if (started && column + cw > width) next_line();
                        append(line, std::string_view(run.text).substr(at, d.length), run.style);
                        column += cw;
                        started = true;
                        at += d.length;
                    }
                }
            }
        }
        space = nullptr;
        joint = false;
    }
    if (started) lines.push_back(std::move(line));
    return lines;
}

std::vector<Token> flow_of(const std::vector<Span>& spans, unsigned style) {
    Flow flow;
    flow.spans(spans, style);
    return std::move(flow.tokens);
}

int widest(const std::vector<Line>& lines) {
    int width = 0;
    for (const Line& line : lines)
        width = std::max(width, width_of(line));
    return width;
}

// Code is never wrapped (a wrapped line reads as two); what does not fit ends in "…".
std::string truncate(const std::string& text, int width) {
    if (display_width(text) <= width) return text;
    std::string out;
    int column = 0;
    for (std::size_t at = 0; at < text.size();) {
        Decoded d = decode(text, at);
        int cw = code_point_width(d.cp);
        if (column + cw > width - 1) break;
        out.append(text, at, d.length);
        column += cw;
        at += d.length;
    }
    return out + "\u2026";
}

// ---- tables -----------------------------------------------------------------------------

// Columns narrower than an equal share of `target` keep their width, the wide ones share the
// rest in proportion to theirs.
std::vector<int> shrink(const std::vector<int>& wanted, int target) {
    std::size_t count = wanted.size();
    std::vector<int> widths(count, 0);
    std::vector<bool> settled(count, false);
    int remaining = target;
    std::size_t open = count;
    for (bool changed = true; changed && open > 0;) {
        changed = false;
        int share = remaining / static_cast<int>(open);
        for (std::size_t c = 0; c < count; ++c) {
            if (settled[c] || wanted[c] > share) continue;
            widths[c] = wanted[c];
            settled[c] = true;
            remaining -= wanted[c];
            --open;
            changed = true;
        }
    }
    std::int64_t open_total = 0;
    for (std::size_t c = 0; c < count; ++c)
        if (!settled[c]) open_total += wanted[c];
    int given = 0;
    for (std::size_t c = 0; c < count; ++c) {
        if (settled[c]) continue;
        widths[c] = std::max(1, static_cast<int>(std::int64_t{remaining} * wanted[c] / open_total));
        given += widths[c];
    }
    // Rounding: single columns to the widest open column first, or back from it.
    std::vector<std::size_t> order;
    for (std::size_t c = 0; c < count; ++c)
        if (!settled[c]) order.push_back(c);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return wanted[a] > wanted[b]; });
    for (std::size_t i = 0; given != remaining && !order.empty() && i < 4 * count; ++i) {
        std::size_t c = order[i % order.size()];
        if (given < remaining) {
            ++widths[c];
            ++given;
        } else if (widths[c] > 1) {
            --widths[c];
            --given;
        }
    }
    return widths;
}

// Column widths for `target` columns of content, the way browsers lay out tables: every
// column as wide as its longest word if that fits, the rest handed out in proportion to
// how much more each would take; if even the words do not fit, shrink to fit and cut them.
std::vector<int> fit_columns(const std::vector<int>& natural, const std::vector<int>& longest_word,
                             int target) {
    std::size_t count = natural.size();
    int total = 0;
    std::vector<int> minimum(count);
    int minimum_total = 0;
    for (std::size_t c = 0; c < count; ++c) {
        total += natural[c];
        minimum[c] = std::min(natural[c], longest_word[c]);
        minimum_total += minimum[c];
    }
    if (total <= target) return natural;
    if (minimum_total > target) return shrink(minimum, target);
    std::vector<int> widths = minimum;
    int extra = target - minimum_total;
    std::int64_t wanting = total - minimum_total;
    int given = 0;
    for (std::size_t c = 0; c < count; ++c) {
        int more = static_cast<int>(extra * std::int64_t{natural[c] - minimum[c]} / wanting);
        widths[c] += more;
        given += more;
    }
    for (std::size_t c = 0; given < extra; c = (c + 1) % count) {
        if (widths[c] < natural[c]) {
            ++widths[c];
            ++given;
        }
    }
    return widths;
}

Line aligned(Line content, int width, Align align) {
    int pad = std::max(0, width - width_of(content));
    int left = align == Align::right ? pad : align == Align::center ? pad / 2 : 0;
    Line line;
    append(line, std::string(static_cast<std::size_t>(left), ' '), plain);
    append(line, content);
    append(line, std::string(static_cast<std::size_t>(pad - left), ' '), plain);
    return line;
}

// ---- blocks -----------------------------------------------------------------------------

// Where a block's lines go: the prefix of its first line (a bullet, a quote bar), of the
// lines after it, and the columns left for the content.
struct Frame {
    Line first;
    Line rest;
    int width;
};

const char* const bullets[] = {"\u2022", "\u25E6", "\u25AA"}; // • ◦ ▪
constexpr std::string_view unchecked_box = "\u2610";          // ☐
constexpr std::string_view checked_box = "\u2611";            // ☑
constexpr std::string_view bar = "\u2502";                    // │
constexpr std::string_view light = "\u2500";                  // ─
constexpr std::string_view heavy = "\u2501";                  // ━
constexpr int max_width = 1000; // rules and tables span the width: a huge one is a mistake
constexpr int code_indent = 4;
constexpr int min_column = 6; // narrower shrunken table columns turn the table into records

struct Painter {
    int min_width; // what nesting may leave for content, however deep it goes
    std::vector<Line> lines;
    std::optional<Line> blank; // the separating line the next content line brings

    void emit(Frame& frame, const Line& content) {
        if (blank && !lines.empty()) lines.push_back(std::move(*blank));
        blank.reset();
        Line line = frame.first;
        append(line, content);
        trim_right(line);
        lines.push_back(std::move(line));
        frame.first = frame.rest;
    }

    void separate(const Frame& frame) {
        Line line = frame.rest;
        trim_right(line);
        blank = std::move(line);
    }

    Frame nested(const Frame& frame, const Line& first, const Line& rest) {
        Frame inner = frame;
        append(inner.first, first);
        append(inner.rest, rest);
        inner.width = std::max(frame.width - width_of(first), min_width);
        return inner;
    }

    // After a nested frame: its first line, if it wrote one, was also the outer's.
    void carry(Frame& frame, std::size_t lines_before) {
        if (lines.size() > lines_before) frame.first = frame.rest;
    }

    void blocks(const std::vector<Block>& children, Frame& frame, bool loose, int depth) {
        for (std::size_t i = 0; i < children.size(); ++i) {
            if (i > 0 && loose) separate(frame);
            block(children[i], frame, depth);
        }
    }

    void text(const std::vector<Span>& spans, Frame& frame, unsigned style) {
        for (const Line& line : wrap(flow_of(spans, style), frame.width))
            emit(frame, line);
    }

    void heading(const Block& heading, Frame& frame) {
        std::vector<Line> text = wrap(flow_of(heading.spans, bold), frame.width);
        for (const Line& line : text)
            emit(frame, line);
        if (heading.level <= 2 && !text.empty())
            emit(frame, {{repeat(heading.level == 1 ? heavy : light, widest(text)), dim}});
    }

    void verbatim(const Block& block, Frame& frame, unsigned style) {
        std::string_view text = block.text;
        if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
        if (text.empty()) return;
        std::string indent(code_indent, ' ');
        std::size_t before = lines.size();
        Frame inner = nested(frame, {{indent, plain}}, {{indent, plain}});
        while (true) {
            std::size_t nl = text.find('\n');
            emit(inner, {{truncate(clean(text.substr(0, nl), true), inner.width), style}});
            if (nl == std::string_view::npos) break;
            text.remove_prefix(nl + 1);
        }
        carry(frame, before);
    }

    void quote(const Block& quote, Frame& frame, int depth) {
        std::size_t before = lines.size();
        Line prefix = {{std::string(bar), dim}, {" ", plain}};
        Frame inner = nested(frame, prefix, prefix);
        blocks(quote.children, inner, true, depth);
        if (lines.size() == before) emit(inner, {});
        carry(frame, before);
    }

    void item(const Block& item, Frame& frame, const Line& marker, bool loose, int depth) {
        std::size_t before = lines.size();
        Line indent = {{std::string(static_cast<std::size_t>(width_of(marker)), ' '), plain}};
        Frame inner = nested(frame, marker, indent);
        if (item.kind == BlockKind::item)
            blocks(item.children, inner, loose, depth + 1);
        else
            block(item, inner, depth + 1);
        if (lines.size() == before) emit(inner, {});
        carry(frame, before);
    }

    Line marker(const Block& list, const Block& item, std::size_t index, int number_width,
                int depth) {
        Line marker;
        if (list.ordered) {
            std::string number = std::to_string(std::uint64_t{list.start} + index);
            number.insert(0, std::max<std::size_t>(number.size(), number_width) - number.size(),
                          ' ');
            append(marker, number + ". ", plain);
        }
        if (item.task) {
            append(marker, *item.task ? checked_box : unchecked_box, *item.task ? checked : plain);
            append(marker, " ", plain);
        } else if (!list.ordered) {
            append(marker, std::string(bullets[depth % 3]) + " ", plain);
        }
        return marker;
    }

    void list(const Block& list, Frame& frame, int depth) {
        std::uint64_t last = std::uint64_t{list.start} + list.children.size();
        int number_width = static_cast<int>(std::to_string(last > 0 ? last - 1 : 0).size());
        for (std::size_t i = 0; i < list.children.size(); ++i) {
            if (i > 0 && !list.tight) separate(frame);
            const Block& child = list.children[i];
            item(child, frame, marker(list, child, i, number_width, depth), !list.tight, depth);
        }
    }

    void table(const Block& table, Frame& frame) {
        std::size_t columns = table.aligns.size();
        for (const Block& row : table.children)
            columns = std::max(columns, row.children.size());
        if (columns == 0) return;
        // cells[row][column]: the header row bold, a missing cell empty.
        std::vector<std::vector<std::vector<Token>>> cells;
        for (std::size_t r = 0; r < table.children.size(); ++r) {
            const Block& row = table.children[r];
            cells.emplace_back(columns);
            for (std::size_t c = 0; c < row.children.size(); ++c)
                cells.back()[c] = flow_of(row.children[c].spans, r == 0 ? bold : plain);
        }
        std::vector<int> natural(columns, 0);
        std::vector<int> longest_word(columns, 0);
        for (const auto& row : cells) {
            for (std::size_t c = 0; c < columns; ++c) {
                natural[c] = std::max(natural[c], widest(wrap(row[c], INT_MAX / 2)));
                for (const Token& token : row[c])
                    if (token.kind == Token::word)
                        longest_word[c] = std::max(longest_word[c], width_of(token.runs));
            }
        }
        int frame_width = static_cast<int>(columns) * 3 + 1; // "│ " … " │ " … " │"
        int target = frame.width - frame_width;
        // Text squeezed into columns a few characters wide reads as noise: a table that
        // would need that becomes "header: value" lines, one group per row.
        int total = 0;
        for (int n : natural)
            total += n;
        if (total > target && target < min_column * static_cast<int>(columns)) {
            records(cells, frame);
            return;
        }
        std::vector<int> widths = fit_columns(natural, longest_word, target);

        auto border = [&](std::string_view left, std::string_view middle, std::string_view right) {
            std::string text(left);
            for (std::size_t c = 0; c < columns; ++c) {
                text += repeat(light, widths[c] + 2);
                text += c + 1 < columns ? middle : right;
            }
            emit(frame, {{text, dim}});
        };
        std::vector<std::vector<std::vector<Line>>> laid_out;
        bool tall_rows = false;
        for (std::size_t r = 0; r < cells.size(); ++r) {
            laid_out.emplace_back();
            for (std::size_t c = 0; c < columns; ++c) {
                laid_out.back().push_back(wrap(cells[r][c], widths[c]));
                if (r > 0 && laid_out.back().back().size() > 1) tall_rows = true;
            }
        }
        border("\u250C", "\u252C", "\u2510"); // ┌ ┬ ┐
        for (std::size_t r = 0; r < laid_out.size(); ++r) {
            if (r == 1 || (r > 1 && tall_rows)) border("\u251C", "\u253C", "\u2524"); // ├ ┼ ┤
            std::size_t height = 1;
            for (const auto& cell : laid_out[r])
                height = std::max(height, cell.size());
            for (std::size_t k = 0; k < height; ++k) {
                Line line = {{std::string(bar), dim}};
                for (std::size_t c = 0; c < columns; ++c) {
                    const auto& cell = laid_out[r][c];
                    Align align = c < table.aligns.size() ? table.aligns[c] : Align::none;
                    append(line, " ", plain);
                    append(line, aligned(k < cell.size() ? cell[k] : Line{}, widths[c], align));
                    append(line, " ", plain);
                    append(line, bar, dim);
                }
                emit(frame, line);
            }
        }
        border("\u2514", "\u2534", "\u2518"); // └ ┴ ┘
    }

    void records(const std::vector<std::vector<std::vector<Token>>>& cells, Frame& frame) {
        std::size_t first = cells.size() > 1 ? 1 : 0;
        for (std::size_t r = first; r < cells.size(); ++r) {
            if (r > first) separate(frame);
            for (std::size_t c = 0; c < cells[r].size(); ++c) {
                std::vector<Token> tokens = cells[0][c];
                if (r > 0) {
                    if (!tokens.empty() && tokens.back().kind == Token::word)
                        append(tokens.back().runs, ":", bold);
                    tokens.push_back({Token::space, {{" ", plain}}});
                    tokens.insert(tokens.end(), cells[r][c].begin(), cells[r][c].end());
                }
                for (const Line& line : wrap(tokens, frame.width))
                    emit(frame, line);
            }
        }
    }

    void block(const Block& block, Frame& frame, int depth) {
        switch (block.kind) {
        case BlockKind::document:
        case BlockKind::table_row:
            blocks(block.children, frame, true, depth);
            break;
        case BlockKind::heading:
            heading(block, frame);
            break;
        case BlockKind::paragraph:
        case BlockKind::table_cell:
            text(block.spans, frame, plain);
            break;
        case BlockKind::code:
            verbatim(block, frame, code);
            break;
        case BlockKind::html:
            verbatim(block, frame, dim);
            break;
        case BlockKind::quote:
            quote(block, frame, depth);
            break;
        case BlockKind::list:
            list(block, frame, depth);
            break;
        case BlockKind::item: // outside a list: a list of one
            item(block, frame, {{std::string(bullets[depth % 3]) + " ", plain}}, false, depth);
            break;
        case BlockKind::table:
            table(block, frame);
            break;
        case BlockKind::rule:
            emit(frame, {{repeat(light, frame.width), dim}});
            break;
        }
    }
};

} // namespace

int display_width(std::string_view text) {
    int width = 0;
    for (std::size_t at = 0; at < text.size();) {
        if (text[at] == '\x1b') {
            at = skip_escape(text, at);
            continue;
        }
        Decoded d = decode(text, at);
        width += d.valid ? code_point_width(d.cp) : 1;
        at += d.length;
    }
    return width;
}

std::string paint_ansi(const Block& document, const AnsiStyle& style) {
    int width = std::clamp(style.width, 1, max_width);
    Painter painter{std::min(width, 10), {}, std::nullopt};
    Frame frame{{}, {}, width};
    painter.block(document, frame, 0);
    std::string out;
    for (const Line& line : painter.lines) {
        unsigned current = plain;
        for (const Run& run : line) {
            if (style.color && run.style != current) {
                out += sgr_change(current, run.style);
                current = run.style;
            }
            out += run.text;
        }
        if (current != plain) out += "\x1b[0m";
        out.push_back('\n');
    }
    return out;
}

} // namespace rio::md
