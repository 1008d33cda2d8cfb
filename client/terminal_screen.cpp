#include "client/terminal_screen.hpp"

#include "text/utf8.hpp"

#include <utility>
#include <vterm.h>

namespace rio::client {
namespace {

VTermModifier vterm_mods(TerminalModifiers m) {
    unsigned mods = VTERM_MOD_NONE;
    if (m.shift) mods |= VTERM_MOD_SHIFT;
    if (m.alt) mods |= VTERM_MOD_ALT;
    if (m.ctrl) mods |= VTERM_MOD_CTRL;
    return static_cast<VTermModifier>(mods);
}

VTermKey vterm_key(TerminalKey key, int function_number) {
    switch (key) {
    case TerminalKey::enter:
        return VTERM_KEY_ENTER;
    case TerminalKey::tab:
        return VTERM_KEY_TAB;
    case TerminalKey::backspace:
        return VTERM_KEY_BACKSPACE;
    case TerminalKey::escape:
        return VTERM_KEY_ESCAPE;
    case TerminalKey::up:
        return VTERM_KEY_UP;
    case TerminalKey::down:
        return VTERM_KEY_DOWN;
    case TerminalKey::left:
        return VTERM_KEY_LEFT;
    case TerminalKey::right:
        return VTERM_KEY_RIGHT;
    case TerminalKey::insert:
        return VTERM_KEY_INS;
    case TerminalKey::del:
        return VTERM_KEY_DEL;
    case TerminalKey::home:
        return VTERM_KEY_HOME;
    case TerminalKey::end:
        return VTERM_KEY_END;
    case TerminalKey::page_up:
        return VTERM_KEY_PAGEUP;
    case TerminalKey::page_down:
        return VTERM_KEY_PAGEDOWN;
    case TerminalKey::function:
        return static_cast<VTermKey>(VTERM_KEY_FUNCTION(function_number));
    }
    return VTERM_KEY_NONE;
}

} // namespace

// libvterm's C callbacks, each forwarding to the screen they were registered with.
struct TerminalScreen::Callbacks {
    static void output(const char* bytes, size_t length, void* user) {
        static_cast<TerminalScreen*>(user)->output_.append(bytes, length);
    }
    static int move_cursor(VTermPos pos, VTermPos, int visible, void* user) {
        auto* self = static_cast<TerminalScreen*>(user);
        self->cursor_row_ = pos.row;
        self->cursor_col_ = pos.col;
        self->cursor_visible_ = visible != 0;
        return 1;
    }
    static int set_property(VTermProp prop, VTermValue* value, void* user) {
        auto* self = static_cast<TerminalScreen*>(user);
        switch (prop) {
        case VTERM_PROP_CURSORVISIBLE:
            self->cursor_visible_ = value->boolean;
            break;
        case VTERM_PROP_ALTSCREEN:
            self->alternate_ = value->boolean;
            break;
        case VTERM_PROP_MOUSE:
            self->mouse_mode_ = value->number;
            break;
        case VTERM_PROP_TITLE:
            self->title_ = to_valid_utf8(std::string_view(value->string));
            break;
        default:
            break;
        }
        return 1;
    }
    static int push_line(int cols, const VTermScreenCell* cells, void* user) {
        auto* self = static_cast<TerminalScreen*>(user);
        if (self->max_scrollback_ == 0) return 1;
        // Only up to the last cell that shows something: a flood of short lines (`yes`)
        // converts a cell or two a line, not the screen's width.
        int used = cols;
        while (used > 0 && cells[used - 1].chars[0] == 0 &&
               VTERM_COLOR_IS_DEFAULT_BG(&cells[used - 1].bg) && !cells[used - 1].attrs.reverse)
            --used;
        TerminalLine line;
        line.reserve(static_cast<std::size_t>(used));
        for (int c = 0; c < used; ++c)
            line.push_back(self->convert(&cells[c]));
        self->scrollback_.push_back(std::move(line));
        if (self->scrollback_.size() > self->max_scrollback_) self->scrollback_.pop_front();
        return 1;
    }
    static int pop_line(int cols, VTermScreenCell* cells, void* user) {
        auto* self = static_cast<TerminalScreen*>(user);
        if (self->scrollback_.empty()) return 0;
        const TerminalLine line = std::move(self->scrollback_.back());
        self->scrollback_.pop_back();
        for (int c = 0; c < cols; ++c) {
            VTermScreenCell& cell = cells[c];
            cell = VTermScreenCell{};
            cell.width = 1;
            vterm_color_rgb(&cell.fg, 0, 0, 0);
            cell.fg.type |= VTERM_COLOR_DEFAULT_FG;
            vterm_color_rgb(&cell.bg, 0, 0, 0);
            cell.bg.type |= VTERM_COLOR_DEFAULT_BG;
            if (static_cast<std::size_t>(c) >= line.size()) continue;
            std::size_t at = 0, n = 0;
            const std::string& text = line[static_cast<std::size_t>(c)].text;
            while (at < text.size() && n < VTERM_MAX_CHARS_PER_CELL)
                cell.chars[n++] = next_code_point(text, at);
        }
        return 1;
    }
};

TerminalScreen::TerminalScreen(int rows, int cols, std::size_t max_scrollback)
    : vt_(vterm_new(std::max(rows, 1), std::max(cols, 1))), screen_(vterm_obtain_screen(vt_)),
      rows_(std::max(rows, 1)), cols_(std::max(cols, 1)), max_scrollback_(max_scrollback) {
    vterm_set_utf8(vt_, 1);
    vterm_output_set_callback(vt_, &Callbacks::output, this);
    static const VTermScreenCallbacks callbacks = {
        nullptr, nullptr, &Callbacks::move_cursor, &Callbacks::set_property,
        nullptr, nullptr, &Callbacks::push_line,   &Callbacks::pop_line};
    vterm_screen_set_callbacks(screen_, &callbacks, this);
    vterm_screen_enable_altscreen(screen_, 1);
    vterm_screen_reset(screen_, 1);
}

TerminalScreen::~TerminalScreen() {
    vterm_free(vt_);
}

std::string TerminalScreen::take_output() {
    return std::exchange(output_, std::string());
}

std::string TerminalScreen::feed(std::string_view bytes) {
    vterm_input_write(vt_, bytes.data(), bytes.size());
    vterm_screen_flush_damage(screen_);
    return take_output();
}

void TerminalScreen::resize(int rows, int cols) {
    rows_ = std::max(rows, 1);
    cols_ = std::max(cols, 1);
    vterm_set_size(vt_, rows_, cols_);
    vterm_screen_flush_damage(screen_);
}

TerminalCell TerminalScreen::convert(const void* vterm_cell) const {
    const auto& c = *static_cast<const VTermScreenCell*>(vterm_cell);
    TerminalCell out;
    // libvterm marks the cell under a wide character's right half with chars[0] == -1.
    if (c.chars[0] == static_cast<uint32_t>(-1)) {
        out.width = 0;
        return out;
    }
    for (int i = 0; i < VTERM_MAX_CHARS_PER_CELL && c.chars[i]; ++i)
        append_utf8(out.text, c.chars[i] <= 0x10FFFF ? c.chars[i] : U'\uFFFD');
    out.width = c.width;
    const auto colour = [this](VTermColor v, bool is_default) {
        TerminalColour t;
        t.is_default = is_default;
        if (is_default) return t;
        vterm_screen_convert_color_to_rgb(screen_, &v);
        t.red = v.rgb.red;
        t.green = v.rgb.green;
        t.blue = v.rgb.blue;
        return t;
    };
    out.fg = colour(c.fg, VTERM_COLOR_IS_DEFAULT_FG(&c.fg));
    out.bg = colour(c.bg, VTERM_COLOR_IS_DEFAULT_BG(&c.bg));
    out.bold = c.attrs.bold;
    out.italic = c.attrs.italic;
    out.underline = c.attrs.underline != VTERM_UNDERLINE_OFF;
    out.reverse = c.attrs.reverse;
    out.strike = c.attrs.strike;
    return out;
}

TerminalCell TerminalScreen::cell(int row, int col) const {
    VTermScreenCell c{};
    if (row < 0 || row >= rows_ || col < 0 || col >= cols_ ||
        !vterm_screen_get_cell(screen_, VTermPos{row, col}, &c))
        return {};
    return convert(&c);
}

std::string TerminalScreen::line_text(const TerminalLine& line) {
    std::string out;
    for (const TerminalCell& c : line) {
        if (c.width == 0) continue; // the right half of a wide character
        out += c.text.empty() ? std::string(" ") : c.text;
    }
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

std::string TerminalScreen::row_text(int row) const {
    TerminalLine line;
    for (int col = 0; col < cols_; ++col)
        line.push_back(cell(row, col));
    return line_text(line);
}

std::string TerminalScreen::press(TerminalKey key, TerminalModifiers mods, int function_number) {
    vterm_keyboard_key(vt_, vterm_key(key, function_number), vterm_mods(mods));
    return take_output();
}

std::string TerminalScreen::type(char32_t character, TerminalModifiers mods) {
    vterm_keyboard_unichar(vt_, character, vterm_mods(mods));
    return take_output();
}

std::string TerminalScreen::paste(std::string_view text) {
    vterm_keyboard_start_paste(vt_);
    std::string out = take_output();
    out += text;
    vterm_keyboard_end_paste(vt_);
    return out + take_output();
}

std::string TerminalScreen::mouse_button(int row, int col, int button, bool pressed,
                                         TerminalModifiers mods) {
    if (!wants_mouse()) return {};
    vterm_mouse_move(vt_, row, col, vterm_mods(mods));
    vterm_mouse_button(vt_, button, pressed, vterm_mods(mods));
    return take_output();
}

std::string TerminalScreen::mouse_move(int row, int col, TerminalModifiers mods) {
    if (!wants_mouse()) return {};
    vterm_mouse_move(vt_, row, col, vterm_mods(mods));
    return take_output();
}

} // namespace rio::client
