// The "busy" line rio-cli shows while a turn runs and nothing else is on the screen: a
// turning mark, what the agent is doing ("reading greet.py", "waiting for the model") and
// the time since the turn began. Drawn only on a terminal; every other output takes the
// line away first (hide), so it never mixes into text.
#pragma once

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <string>

namespace rio {

// "⠹ reading greet.py · 3s" (frame 2), "1m 05s" past a minute; the activity cut short so
// that the line fits `width` columns (a line the terminal wraps could not be erased).
std::string spinner_text(unsigned frame, const std::string& activity,
                         std::chrono::steady_clock::duration elapsed, int width);

class Spinner {
public:
    Spinner(asio::io_context& io, bool enabled, bool color); // enabled: stdout is a terminal

    void begin_turn(); // the clock starts
    void activity(std::string words) { activity_ = std::move(words); }
    void show(); // draws now and every tick until hide()
    void hide(); // erases the line, if it is drawn
    bool shown() const { return shown_; }

private:
    void draw();
    void tick();

    asio::steady_timer timer_;
    bool enabled_;
    bool color_;
    bool shown_ = false;
    unsigned generation_ = 0; // a tick from before the last hide() draws nothing
    unsigned frame_ = 0;
    std::string activity_ = "waiting for the model";
    std::chrono::steady_clock::time_point began_ = std::chrono::steady_clock::now();
};

} // namespace rio
