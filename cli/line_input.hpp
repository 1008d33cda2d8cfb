// Reading one line from the user with libedit (editing, history), without stopping the
// event loop: libedit's blocking readline() runs on a thread of its own for as long as the
// prompt is up, and the line comes back to the loop's thread.
#pragma once

#include <asio/io_context.hpp>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rio {

class LineInput {
public:
    using OnLine = std::function<void(std::optional<std::string> line)>; // nullopt: Ctrl+D

    // `on_ctrl_c` runs on io's thread when Ctrl+C is pressed at the prompt; the prompt is
    // then gone (libedit turns terminal signals off while it edits, so the key comes as a
    // byte, not a signal).
    // `history`: the file lines are remembered in (read now, written after each line, 0600);
    // empty for none. `commands`: the words Tab completes at the start of a line ("/plans").
    LineInput(asio::io_context& io, std::function<void()> on_ctrl_c,
              std::filesystem::path history = {}, std::vector<std::string> commands = {});
    ~LineInput();
    LineInput(const LineInput&) = delete;
    LineInput& operator=(const LineInput&) = delete;

    struct ReadOptions {
        std::string typed; // the line starts with this, as if typed
        // Set: Shift+Tab ends the prompt and this gets the line typed so far (the mode
        // prompt cycles modes with it, as every peer does). Unset: libedit has the key.
        std::function<void(std::string typed)> on_shift_tab;
    };
    // Shows `prompt` and reads a line; `then` runs on io's thread. One read at a time.
    void read(const std::string& prompt, OnLine then, ReadOptions options = {});
    // Takes a prompt that is up away, without calling its `then`.
    void cancel();
    bool active() const { return thread_.joinable(); }

private:
    void finish();
    void remember(const std::string& line);

    asio::io_context& io_;
    std::function<void()> on_ctrl_c_;
    std::filesystem::path history_;
    std::vector<std::string> commands_;
    std::thread thread_;
    int wake_fd_ = -1;             // an eventfd that makes the reading thread give up
    std::uint64_t generation_ = 0; // a read's result is dropped once a newer read or a cancel came
};

} // namespace rio
