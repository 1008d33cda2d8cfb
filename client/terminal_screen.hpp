// A terminal's screen as libvterm keeps it (decision 0093), without Qt: what the pty printed
// fed in, cells out (each character with its colours and attributes), a bounded scrollback,
// and the bytes each key, paste or mouse event sends to the program — in the modes the
// program asked for (application cursor keys, bracketed paste, mouse reporting). The desktop
// paints it; tests read it cell by cell.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct VTerm;
struct VTermScreen;

namespace rio::client {

struct TerminalColour {
    std::uint8_t red = 0, green = 0, blue = 0;
    bool is_default = true; // the theme's foreground or background
    friend bool operator==(const TerminalColour&, const TerminalColour&) = default;
};

struct TerminalCell {
    std::string text; // UTF-8: the character and its combining marks; "" when blank
    int width = 1;    // 2 for a wide character; the cell after it has width 0
    TerminalColour fg, bg;
    bool bold = false, italic = false, underline = false, reverse = false, strike = false;
};

using TerminalLine = std::vector<TerminalCell>;

enum class TerminalKey {
    enter,
    tab,
    backspace,
    escape,
    up,
    down,
    left,
    right,
    insert,
    del,
    home,
    end,
    page_up,
    page_down,
    function, // F1…F12: with `function_number`
};

struct TerminalModifiers {
    bool shift = false, alt = false, ctrl = false;
};

class TerminalScreen {
public:
    TerminalScreen(int rows, int cols, std::size_t max_scrollback = 10'000);
    ~TerminalScreen();
    TerminalScreen(const TerminalScreen&) = delete;
    TerminalScreen& operator=(const TerminalScreen&) = delete;

    // The program's output. Returns what the terminal answers it (a query of the cursor's
    // place or of the terminal's kind), to be sent to the program as input.
    std::string feed(std::string_view bytes);
    // No reflow (libvterm 0.1.4): longer lines are cut at the new width, as in xterm.
    void resize(int rows, int cols);

    int rows() const { return rows_; }
    int cols() const { return cols_; }
    TerminalCell cell(int row, int col) const;
    // A row's characters, trailing blanks left out: for tests and copying.
    std::string row_text(int row) const;
    int cursor_row() const { return cursor_row_; }
    int cursor_col() const { return cursor_col_; }
    bool cursor_visible() const { return cursor_visible_; }
    const std::string& title() const { return title_; }
    // The program asked for mouse events (vim, htop): clicks go to it, not to selection.
    bool wants_mouse() const { return mouse_mode_ != 0; }
    bool alternate_screen() const { return alternate_; }

    // Lines scrolled off the top, oldest first, at most max_scrollback.
    const std::deque<TerminalLine>& scrollback() const { return scrollback_; }
    static std::string line_text(const TerminalLine& line);

    // The bytes a key, a typed character, a paste or the mouse sends to the program.
    std::string press(TerminalKey key, TerminalModifiers mods, int function_number = 0);
    std::string type(char32_t character, TerminalModifiers mods);
    std::string paste(std::string_view text);
    std::string mouse_button(int row, int col, int button, bool pressed, TerminalModifiers mods);
    std::string mouse_move(int row, int col, TerminalModifiers mods);

private:
    struct Callbacks;
    std::string take_output();
    TerminalCell convert(const void* vterm_cell) const;

    VTerm* vt_;
    VTermScreen* screen_;
    int rows_, cols_;
    std::size_t max_scrollback_;
    std::deque<TerminalLine> scrollback_;
    std::string output_;
    int cursor_row_ = 0, cursor_col_ = 0;
    bool cursor_visible_ = true;
    bool alternate_ = false;
    int mouse_mode_ = 0;
    std::string title_;
};

} // namespace rio::client
