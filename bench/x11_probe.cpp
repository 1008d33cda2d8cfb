// x11_probe: times a desktop editor from outside, as a person at the screen meets it, so rio
// and the editors a user would otherwise pick (Kate, gedit, geany) are measured the same way
// (bench/desktop_x11_bench.py runs it under Xvfb with a window manager). It starts the
// command, watches the X server's damage on the whole screen and presses keys through XTEST:
//
//   first_paint_ms  launch → the first painted area of at least 200×200 px (a window's
//                   content, not a title bar)
//   shown_ms        launch → the first area of at least 100×100 px painted once a window's
//                   title names the file (WORD): the file is on screen
//   type_ms         per key typed (a letter, KEYS times, in lines of 20): key sent → the
//                   first pixels it changed; the next key waits until the screen is quiet
//                   (type_unanswered: keys that changed nothing within 2 s)
//   burst_ms        BURST Page Downs sent at once → the last pixels they changed (paints
//                   less than 100 ms apart), and burst_paints_ms: when each paint began
//
// A caret blinking is not an answer to anything: areas at most 4 px wide are ignored.
// Prints one JSON object on stdout. Usage:
//   x11_probe --title WORD [--keys N] [--burst N] [--terminal] -- COMMAND [ARGS...]
// --terminal: Ctrl+` first (rio's terminal panel), and the keys typed there.
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/Xdamage.h>
#include <X11/keysym.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <poll.h>
#include <set>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

Clock::time_point after_ms(double ms) {
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double, std::milli>(ms));
}

struct Options {
    std::string title;
    int keys = 0;
    int burst = 0;
    bool terminal = false;
    std::vector<char*> command;
};

std::optional<Options> parse(int argc, char** argv) {
    Options options;
    int i = 1;
    for (; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
        const std::string flag = argv[i];
        if (flag == "--terminal") {
            options.terminal = true;
            continue;
        }
        if (i + 1 >= argc) return std::nullopt;
        if (flag == "--title")
            options.title = argv[++i];
        else if (flag == "--keys")
            options.keys = std::atoi(argv[++i]);
        else if (flag == "--burst")
            options.burst = std::atoi(argv[++i]);
        else
            return std::nullopt;
    }
    for (++i; i < argc; ++i)
        options.command.push_back(argv[i]);
    if (options.command.empty() || options.title.empty()) return std::nullopt;
    options.command.push_back(nullptr);
    return options;
}

// One painted area, when this process learned of it.
struct Paint {
    Clock::time_point at;
    XRectangle area;
};

class Watch {
public:
    explicit Watch(Display* display) : display_(display), root_(DefaultRootWindow(display)) {
        int error_base = 0;
        XDamageQueryExtension(display_, &damage_event_, &error_base);
        XDamageCreate(display_, root_, XDamageReportRawRectangles);
        XSelectInput(display_, root_, PropertyChangeMask);
        client_list_ = XInternAtom(display_, "_NET_CLIENT_LIST", False);
        net_wm_name_ = XInternAtom(display_, "_NET_WM_NAME", False);
        utf8_ = XInternAtom(display_, "UTF8_STRING", False);
        XSync(display_, False);
    }

    // The next paint worth counting before `deadline`, or none. Titles are read on the way.
    std::optional<Paint> next_paint(Clock::time_point deadline) {
        for (;;) {
            while (XPending(display_) > 0) {
                XEvent event;
                XNextEvent(display_, &event);
                const auto now = Clock::now();
                if (event.type == damage_event_ + XDamageNotify) {
                    const auto& damage = reinterpret_cast<const XDamageNotifyEvent&>(event);
                    if (damage.area.width > 4) return Paint{now, damage.area};
                } else if (event.type == PropertyNotify) {
                    const Atom atom = event.xproperty.atom;
                    if (event.xproperty.window == root_ && atom == client_list_)
                        watch_clients();
                    else if (atom == net_wm_name_ || atom == XA_WM_NAME)
                        read_title(event.xproperty.window);
                }
            }
            const double left = ms_between(Clock::now(), deadline);
            if (left <= 0) return std::nullopt;
            pollfd wait{ConnectionNumber(display_), POLLIN, 0};
            poll(&wait, 1, static_cast<int>(left) + 1);
        }
    }

    // Paints until the screen has been quiet for `quiet_ms` (or `limit_ms` passed); the last.
    // Each paint (one area or several within 2 ms) goes to `paints`, when it began.
    std::optional<Paint> settle(double quiet_ms, double limit_ms,
                                std::vector<Clock::time_point>* paints = nullptr) {
        const auto limit = after_ms(limit_ms);
        std::optional<Paint> last;
        for (;;) {
            const auto quiet = after_ms(quiet_ms);
            auto paint = next_paint(std::min(quiet, limit));
            if (!paint) return last;
            if (paints && (!last || ms_between(last->at, paint->at) > 2))
                paints->push_back(paint->at);
            last = paint;
        }
    }

    bool titled(const std::string& word) const {
        return std::any_of(titles_.begin(), titles_.end(), [&](const std::string& title) {
            return title.find(word) != std::string::npos;
        });
    }

    void press(KeySym symbol) {
        const KeyCode code = XKeysymToKeycode(display_, symbol);
        XTestFakeKeyEvent(display_, code, True, CurrentTime);
        XTestFakeKeyEvent(display_, code, False, CurrentTime);
    }

    void press_with_control(KeySym symbol) {
        const KeyCode control = XKeysymToKeycode(display_, XK_Control_L);
        XTestFakeKeyEvent(display_, control, True, CurrentTime);
        press(symbol);
        XTestFakeKeyEvent(display_, control, False, CurrentTime);
    }

    void flush() { XFlush(display_); }

private:
    void watch_clients() {
        Atom type = 0;
        int format = 0;
        unsigned long count = 0, after = 0;
        unsigned char* data = nullptr;
        if (XGetWindowProperty(display_, root_, client_list_, 0, 1024, False, XA_WINDOW, &type,
                               &format, &count, &after, &data) != Success ||
            !data)
            return;
        const auto* windows = reinterpret_cast<const Window*>(data);
        for (unsigned long i = 0; i < count; ++i)
            if (watched_.insert(windows[i]).second) {
                XSelectInput(display_, windows[i], PropertyChangeMask);
                read_title(windows[i]);
            }
        XFree(data);
    }

    void read_title(Window window) {
        for (const auto& [atom, type] : {std::pair{net_wm_name_, utf8_}, {XA_WM_NAME, XA_STRING}}) {
            Atom actual = 0;
            int format = 0;
            unsigned long count = 0, after = 0;
            unsigned char* data = nullptr;
            if (XGetWindowProperty(display_, window, atom, 0, 1024, False, type, &actual, &format,
                                   &count, &after, &data) == Success &&
                data) {
                titles_.emplace_back(reinterpret_cast<const char*>(data), count);
                XFree(data);
            }
        }
    }

    Display* display_;
    Window root_;
    int damage_event_ = 0;
    Atom client_list_, net_wm_name_, utf8_;
    std::set<Window> watched_;
    std::vector<std::string> titles_;
};

void print_list(const char* name, const std::vector<double>& values) {
    std::printf(", \"%s\": [", name);
    for (std::size_t i = 0; i < values.size(); ++i)
        std::printf("%s%.3f", i ? ", " : "", values[i]);
    std::printf("]");
}

} // namespace

int main(int argc, char** argv) {
    const auto options = parse(argc, argv);
    if (!options) {
        std::fprintf(stderr, "usage: x11_probe --title WORD [--keys N] [--burst N] -- COMMAND "
                             "[ARGS...]\n");
        return 2;
    }
    Display* display = XOpenDisplay(nullptr);
    int event_base = 0, error_base = 0, major = 0, minor = 0;
    if (!display || !XDamageQueryExtension(display, &event_base, &error_base) ||
        !XTestQueryExtension(display, &event_base, &error_base, &major, &minor)) {
        std::fprintf(stderr, "x11_probe: needs an X display with DAMAGE and XTEST\n");
        return 2;
    }
    Watch screen(display);
    screen.settle(200, 2000); // what was painted before (creating the watch reports the screen)

    const auto launched = Clock::now();
    const pid_t child = fork();
    if (child == 0) {
        setpgid(0, 0); // the editor and whatever it starts (a core, a language server) end together
        dup2(STDERR_FILENO, STDOUT_FILENO); // stdout is the probe's answer alone
        execvp(options->command[0], options->command.data());
        std::fprintf(stderr, "x11_probe: cannot run %s: %s\n", options->command[0],
                     std::strerror(errno));
        _exit(127);
    }
    const auto deadline = launched + std::chrono::seconds(30);
    double first_paint = -1, shown = -1;
    while (shown < 0) {
        const auto paint = screen.next_paint(deadline);
        if (!paint) break;
        const auto& area = paint->area;
        if (first_paint < 0 && area.width >= 200 && area.height >= 200)
            first_paint = ms_between(launched, paint->at);
        if (first_paint >= 0 && area.width >= 100 && area.height >= 100 &&
            screen.titled(options->title))
            shown = ms_between(launched, paint->at);
    }

    std::vector<double> typed, burst_paints;
    double burst = -1;
    int unanswered = 0; // keys that changed no pixels within 2 s (a popup took them, say)
    if (shown >= 0) {
        screen.settle(1000, 20000); // start-up's own work (a language server's first answers)
        // The first key from XTEST's own keyboard makes every client load the keymap again (the
        // server announces a new keyboard), a cost a person's keyboard pays once at log-in: a
        // Shift pays it here, outside the timings.
        screen.press(XK_Shift_L);
        screen.flush();
        screen.settle(300, 2000);
        if (options->terminal) { // the panel opens and its shell prints its prompt: not timed
            screen.press_with_control(XK_grave);
            screen.flush();
            screen.settle(500, 10000);
        }
        for (int i = 0; i < options->keys; ++i) {
            if (i > 0 && i % 20 == 0) { // a new line now and then, as code is typed: not timed
                screen.press(XK_Return);
                screen.flush();
                screen.settle(60, 2000);
            }
            const auto sent = Clock::now();
            screen.press(XK_x);
            screen.flush();
            if (const auto paint = screen.next_paint(sent + std::chrono::seconds(2)))
                typed.push_back(ms_between(sent, paint->at));
            else
                ++unanswered;
            screen.settle(60, 2000);
        }
        if (options->burst > 0) {
            screen.settle(500, 10000);
            const auto sent = Clock::now();
            for (int i = 0; i < options->burst; ++i)
                screen.press(XK_Next);
            screen.flush();
            // The keys' paints follow each other closely; one 100 ms after the last is something
            // else's (a language server's answer to the typing before), listed but not counted.
            std::vector<Clock::time_point> paints;
            screen.settle(300, 10000, &paints);
            bool apart = false;
            for (std::size_t i = 0; i < paints.size(); ++i) {
                burst_paints.push_back(ms_between(sent, paints[i]));
                apart = apart || (i > 0 && ms_between(paints[i - 1], paints[i]) >= 100);
                if (!apart) burst = burst_paints.back();
            }
        }
    }
    std::printf("{\"first_paint_ms\": %.3f, \"shown_ms\": %.3f, \"burst_ms\": %.3f, "
                "\"type_unanswered\": %d",
                first_paint, shown, burst, unanswered);
    print_list("burst_paints_ms", burst_paints);
    print_list("type_ms", typed);
    std::printf("}\n");
    std::fflush(stdout);

    kill(-child, SIGTERM);
    for (int i = 0; i < 20 && waitpid(child, nullptr, WNOHANG) == 0; ++i)
        usleep(50000);
    kill(-child, SIGKILL); // an editor asking whether to save what was typed
    waitpid(child, nullptr, 0);
    XCloseDisplay(display);
    return shown >= 0 ? 0 : 1;
}
