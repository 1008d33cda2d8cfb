#include "cli/spinner.hpp"

#include "cli/terminal.hpp"
#include "cli/terminal_safe.hpp"
#include "cli/unicode_width.hpp"
#include "client/activity.hpp"
#include "text/utf8.hpp"

#include <iostream>

namespace rio {
namespace {

constexpr const char* frames[] = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};
constexpr auto tick_every = std::chrono::milliseconds(120);

} // namespace

std::string spinner_text(unsigned frame, const std::string& activity,
                         std::chrono::steady_clock::duration elapsed, int width) {
    std::string tail =
        " · " + client::elapsed_text(std::chrono::duration_cast<std::chrono::seconds>(elapsed));
    std::string doing = md::terminal_safe(activity, md::Whitespace::inline_text);
    int room = width - 3 - md::display_width(tail); // the mark, its space, and a column spare
    if (md::display_width(doing) > room) {
        std::string cut;
        int column = 0;
        for (std::size_t at = 0; at < doing.size();) {
            DecodedChar d = decode_utf8(doing, at);
            if (column + md::code_point_width(d.cp) > room - 1) break;
            column += md::code_point_width(d.cp);
            cut.append(doing, at, d.length);
            at += d.length;
        }
        doing = cut + "…";
    }
    return std::string(frames[frame % std::size(frames)]) + " " + doing + tail;
}

Spinner::Spinner(asio::io_context& io, bool enabled, bool color)
    : timer_(io), enabled_(enabled), color_(color) {}

void Spinner::begin_turn() {
    began_ = std::chrono::steady_clock::now();
    activity_ = "waiting for the model";
}

// Drawn at once when it was not up; otherwise the next tick shows a new activity, so that
// a stream of small events does not redraw the line for each.
void Spinner::show() {
    if (!enabled_ || shown_) return;
    shown_ = true;
    draw();
    tick();
}

void Spinner::hide() {
    if (!shown_) return;
    shown_ = false;
    ++generation_;
    timer_.cancel();
    std::cout << "\r\x1b[K" << std::flush;
}

// The width is asked for each time: the window may have been resized meanwhile.
void Spinner::draw() {
    std::string text = spinner_text(frame_++, activity_, std::chrono::steady_clock::now() - began_,
                                    detect_terminal(1).width);
    std::cout << "\r\x1b[K" << styled(text, sgr::dim, color_) << std::flush;
}

void Spinner::tick() {
    timer_.expires_after(tick_every);
    timer_.async_wait([this, generation = generation_](std::error_code ec) {
        if (ec || !shown_ || generation != generation_) return;
        draw();
        tick();
    });
}

} // namespace rio
