#include "cli/line_input.hpp"

#include "cli/terminal.hpp"

#include <asio/post.hpp>
#include <atomic>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <editline/readline.h>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rio {
namespace {

// libedit's getc hook is a plain function; the one reading thread finds its wake-up fd and
// Ctrl+C flag here. Only one LineInput reads at a time.
std::atomic<int> reading_wake_fd{-1};
std::atomic<bool> ctrl_c_pressed{false};
// Shift+Tab (ESC [ Z) ends the prompt only where the reader asked for it; the line typed so
// far is kept for the next prompt.
std::atomic<bool> shift_tab_wanted{false};
std::atomic<bool> shift_tab_pressed{false};
std::string typed_before_shift_tab; // the reading thread's, read after it posted
// Bytes libedit gets before the terminal's: read ahead after an ESC that did not make
// Shift+Tab, or the text a prompt starts with. Set before the reading thread starts; then
// only it touches them.
std::string read_ahead;
// The words Tab completes, for libedit's completion hooks (plain functions too); set before
// the reading thread starts and unchanged while it runs.
std::atomic<const std::vector<std::string>*> completion_words{nullptr};

constexpr int history_lines = 1000;

char* next_command(const char* text, int state) {
    static std::size_t next = 0; // libedit asks for one match at a time, state 0 first
    const std::vector<std::string>* words = completion_words.load();
    if (state == 0) next = 0;
    std::size_t length = std::strlen(text);
    while (words && next < words->size()) {
        const std::string& word = (*words)[next++];
        if (word.compare(0, length, text) == 0) return ::strdup(word.c_str());
    }
    return nullptr;
}

// A command at the start of the line; nothing (not file names) anywhere else.
char** complete(const char* text, int start, int) {
    rl_attempted_completion_over = 1;
    if (start != 0 || text[0] != '/') return nullptr;
    return rl_completion_matches(text, next_command);
}

// A byte from stdin, or EOF when cancelled; `wait_ms` 0 takes only one already there.
int read_byte(int wait_ms) {
    pollfd fds[2] = {{0, POLLIN, 0}, {reading_wake_fd.load(), POLLIN, 0}};
    for (;;) {
        int ready = ::poll(fds, 2, wait_ms);
        if (ready < 0) continue;
        if (ready == 0 || fds[1].revents) return EOF; // nothing yet, or cancelled
        unsigned char c = 0;
        if (::read(0, &c, 1) != 1) return EOF;
        return c;
    }
}

// A terminal sends Shift+Tab as ESC [ Z in one write, so the two bytes after the ESC are
// there already; anything else read ahead goes to libedit unchanged.
bool shift_tab_follows() {
    int bracket = read_byte(0);
    if (bracket == EOF) return false;
    if (bracket != '[') {
        read_ahead.push_back(static_cast<char>(bracket));
        return false;
    }
    int z = read_byte(0);
    if (z == 'Z') return true;
    read_ahead.push_back('[');
    if (z != EOF) read_ahead.push_back(static_cast<char>(z));
    return false;
}

int next_byte(int wait_ms) {
    if (read_ahead.empty()) return read_byte(wait_ms);
    unsigned char c = static_cast<unsigned char>(read_ahead.front());
    read_ahead.erase(0, 1);
    return c;
}

// libedit takes what its getc hook returns as a whole character, not a byte: a UTF-8
// sequence is decoded here (its bytes come in one write) or "é" is edited and sent as "Ã©".
int whole_character(int lead) {
    if (lead < 0xC0 || lead > 0xF7) return lead;
    const int more = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : 1;
    int code = lead & (0x3F >> more);
    for (int i = 0; i < more; ++i) {
        int next = next_byte(0);
        if (next == EOF || (next & 0xC0) != 0x80) return 0xFFFD;
        code = (code << 6) | (next & 0x3F);
    }
    return code;
}

int read_key(FILE*) {
    int c = next_byte(-1);
    if (c == 0x03) { // Ctrl+C: end this prompt; the session decides what it means
        ctrl_c_pressed = true;
        return EOF;
    }
    if (c == 0x1b && shift_tab_wanted && read_ahead.empty() && shift_tab_follows()) {
        // libedit's rl_line_buffer is stale between keys; rl_copy_text asks for the live line
        // and so points rl_line_buffer at it (its own copy drops the last byte).
        std::free(::rl_copy_text(0, 0));
        typed_before_shift_tab = rl_line_buffer ? rl_line_buffer : "";
        shift_tab_pressed = true;
        return EOF;
    }
    return whole_character(c);
}

} // namespace

LineInput::LineInput(asio::io_context& io, std::function<void()> on_ctrl_c,
                     std::filesystem::path history, std::vector<std::string> commands)
    : io_(io), on_ctrl_c_(std::move(on_ctrl_c)), history_(std::move(history)),
      commands_(std::move(commands)), wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    std::setlocale(LC_CTYPE, ""); // libedit edits UTF-8 only in a UTF-8 locale
    rl_catch_signals = 0;
    rl_getc_function = read_key;
    completion_words = &commands_;
    rl_attempted_completion_function = complete;
    stifle_history(history_lines);
    if (!history_.empty()) ::read_history(history_.c_str());
}

LineInput::~LineInput() {
    cancel();
    completion_words = nullptr;
    if (wake_fd_ >= 0) ::close(wake_fd_);
}

void LineInput::read(const std::string& prompt, OnLine then, ReadOptions options) {
    finish();
    std::uint64_t drain = 0;
    (void)!::read(wake_fd_, &drain, sizeof drain); // forget an old cancel
    reading_wake_fd = wake_fd_;
    ctrl_c_pressed = false;
    shift_tab_pressed = false;
    shift_tab_wanted = static_cast<bool>(options.on_shift_tab);
    // A line that starts with text is typed for the person: its bytes come first, as keys.
    read_ahead = std::move(options.typed);
    std::uint64_t generation = ++generation_;
    hold_typed_keys(0);
    thread_ = std::thread([this, generation, prompt, then = std::move(then),
                           on_shift_tab = std::move(options.on_shift_tab)]() mutable {
        char* raw = ::readline(prompt.c_str());
        std::optional<std::string> line;
        if (raw) {
            line = raw;
            std::free(raw);
            if (!line->empty()) remember(*line);
        }
        bool interrupted = ctrl_c_pressed.exchange(false);
        bool shifted = shift_tab_pressed.exchange(false);
        std::string typed = std::move(typed_before_shift_tab);
        asio::post(io_, [this, generation, line, interrupted, shifted, typed = std::move(typed),
                         then = std::move(then), on_shift_tab = std::move(on_shift_tab)] {
            if (generation != generation_) return; // cancelled meanwhile
            finish();
            if (interrupted) {
                std::fputs("^C\n", stdout);
                on_ctrl_c_();
            } else if (shifted) {
                on_shift_tab(typed);
            } else {
                then(line);
            }
        });
    });
}

// On the reading thread, the only one touching libedit's history. Written whole each time
// (libedit's own format) so that a crash loses nothing; private, since a typed line may
// carry anything.
void LineInput::remember(const std::string& line) {
    ::add_history(line.c_str());
    if (history_.empty()) return;
    int fd = ::open(history_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ::fchmod(fd, 0600);
        ::close(fd);
    }
    ::write_history(history_.c_str());
}

void LineInput::cancel() {
    ++generation_;
    if (!thread_.joinable()) return;
    std::uint64_t one = 1;
    (void)!::write(wake_fd_, &one, sizeof one);
    thread_.join();
}

// The reading thread is done (it posted its result); reap it.
void LineInput::finish() {
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

} // namespace rio
