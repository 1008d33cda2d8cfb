// Quick open on a 50k-file project, in the desktop on the offscreen platform against a real
// rio-core (issue 15): the file listing's cost (`fs.files` answered, and the box's first
// list), each keystroke of a query until its results are painted, the matching alone, and
// the CPU an idle rio-core spends watching the tree. Medians of several runs.
//
//   rio_gui_quick_open_bench             all of it, in a fresh generated tree
//   rio_gui_quick_open_bench --tree DIR  only writes the tree into DIR (for farm-bench runs
//                                        of a whole rio-core on it)
#include "client/fuzzy_match.hpp"
#include "gui/core_client.hpp"
#include "gui/main_window.hpp"
#include "gui/quick_open.hpp"
#include "tests/gui/gui_support.hpp"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QListWidget>
#include <QTest>
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;
namespace fs = std::filesystem;

constexpr std::array<const char*, 20> words{"widget", "factory", "parser", "buffer", "render",
                                            "socket", "config",  "layout", "window", "cache",
                                            "stream", "token",   "schema", "driver", "plugin",
                                            "theme",  "index",   "query",  "match",  "event"};
constexpr std::array<const char*, 5> extensions{".cpp", ".hpp", ".py", ".md", ".json"};

double median(std::vector<double> values) {
    if (values.empty()) return -1;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

double elapsed_ms(const QElapsedTimer& clock) {
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

void write_file(const fs::path& file) {
    std::ofstream(file) << "// " << file.filename().string() << "\n";
}

// 25 packages × 40 modules × 50 files = 50,000 files the quick open offers, and what it must
// leave out: a .gitignore'd build/ of 5,000 and a .git of 1,000.
std::size_t write_tree(const fs::path& root) {
    std::size_t files = 0;
    for (int p = 0; p < 25; ++p) {
        const fs::path package = root / ("pkg_" + std::to_string(p) + "_" + words[p % 20]);
        for (int m = 0; m < 40; ++m) {
            const fs::path module = package / (std::string(words[(p + m) % 20]) + "_" +
                                               words[(m * 7) % 20] + "_" + std::to_string(m));
            fs::create_directories(module);
            for (int f = 0; f < 50; ++f, ++files)
                write_file(module /
                           (std::string(words[(f * 3 + m) % 20]) + "_" + words[(f + p) % 20] + "_" +
                            std::to_string(f) + extensions[f % 5]));
        }
    }
    std::ofstream(root / ".gitignore") << "build/\n";
    ++files;
    for (int b = 0; b < 50; ++b) {
        const fs::path out = root / "build" / ("obj_" + std::to_string(b));
        fs::create_directories(out);
        for (int f = 0; f < 100; ++f)
            write_file(out / ("widget_factory_" + std::to_string(f) + ".o"));
    }
    fs::create_directories(root / ".git/objects");
    for (int f = 0; f < 1000; ++f)
        write_file(root / ".git/objects" / ("pack_" + std::to_string(f)));
    return files;
}

// CPU time of every thread of `pid` so far, in nanoseconds (schedstat's first field).
long long cpu_ns(qint64 pid) {
    long long total = 0;
    const fs::path tasks = "/proc/" + std::to_string(pid) + "/task";
    std::error_code ec;
    for (const auto& task : fs::directory_iterator(tasks, ec)) {
        std::ifstream stat(task.path() / "schedstat");
        long long ns = 0;
        if (stat >> ns) total += ns;
    }
    return total;
}

bool watch_complete(CoreClient& core) {
    Reply info = call(core, QStringLiteral("project.info"), Json::object());
    return !info.error && info.result["watch"].value("complete", false);
}

struct Timings {
    std::vector<double> fs_files_ms;   // fs.files answered, through the window's client
    std::vector<double> first_list_ms; // Ctrl+P on a stale list until its new files are in
    std::vector<double> keystroke_ms;  // a key in the field until the list is painted
    std::vector<double> match_ms;      // client::fuzzy_find alone on the 50k paths
    std::vector<double> idle_core_pct; // rio-core's CPU while nothing happens
    std::size_t listed = 0;
};

const std::vector<QString> queries{QStringLiteral("widget"), QStringLiteral("pkg3cache"),
                                   QStringLiteral("themeidx"), QStringLiteral("render_s_4.py"),
                                   QStringLiteral("zzq")};

void time_keystrokes(MainWindow& window, Timings& t) {
    QuickOpen& box = *window.quick_open();
    for (const QString& query : queries) {
        box.open_box();
        for (QChar c : query) {
            QElapsedTimer key;
            key.start();
            QTest::keyClick(box.field(), c.toLatin1());
            box.list()->repaint(); // painted, not only listed
            t.keystroke_ms.push_back(elapsed_ms(key));
        }
        box.close_box();
    }
}

void time_matching(const std::vector<std::string>& paths, Timings& t) {
    for (const QString& query : queries) {
        const std::string q = query.toStdString();
        for (std::size_t n = 1; n <= q.size(); ++n) {
            QElapsedTimer clock;
            clock.start();
            auto hits = client::fuzzy_find(paths, std::string_view(q).substr(0, n), 100);
            t.match_ms.push_back(elapsed_ms(clock));
            if (hits.size() > paths.size()) std::abort(); // keeps the call
        }
    }
}

bool run_once(Timings& t) {
    TempProject project;
    write_tree(project.path().toStdString());
    CoreClient core;
    MainWindow window(core);
    core.start(private_core(project));
    window.show();
    if (!spin_until([&] { return window.settled(); }, 60000)) return false;
    if (!spin_until([&] { return watch_complete(core); }, 60000)) return false;

    for (int i = 0; i < 5; ++i) {
        QElapsedTimer clock;
        clock.start();
        Reply files = call(core, QStringLiteral("fs.files"), Json::object(), 30000);
        t.fs_files_ms.push_back(elapsed_ms(clock));
        if (files.error) return false;
        t.listed = files.result["files"].size();
    }
    // A change makes the box's list stale; opening it lists again.
    QuickOpen& box = *window.quick_open();
    int changes = 0;
    QObject::connect(&core, &CoreClient::core_event, &box, [&changes](const client::CoreEvent& e) {
        changes += std::holds_alternative<FsChangedEvent>(e) ? 1 : 0;
    });
    for (int i = 0; i < 3; ++i) {
        const int seen = changes;
        project.write(QStringLiteral("touched_%1.txt").arg(i), "t\n");
        if (!spin_until([&] { return changes > seen; }, 10000)) return false;
        QElapsedTimer clock;
        clock.start();
        box.open_box();
        if (!spin_until([&] { return !box.listing(); }, 30000)) return false;
        t.first_list_ms.push_back(elapsed_ms(clock));
        box.close_box();
    }
    time_keystrokes(window, t);

    // Kept in a variable: a range-for over a member of the temporary reply would outlive it.
    const Reply listing = call(core, QStringLiteral("fs.files"), Json::object(), 30000);
    std::vector<std::string> paths;
    for (const Json& p : listing.result.value("files", Json::array()))
        paths.push_back(p.get<std::string>());
    if (paths.size() < t.listed) return false; // the three files touched above are in it too
    time_matching(paths, t);

    // Idle: nothing typed, nothing changed, for 10 s.
    const qint64 pid = core.core_pid();
    const long long before = cpu_ns(pid);
    QElapsedTimer idle;
    idle.start();
    spin_until([] { return false; }, 10000);
    const long long after = cpu_ns(pid);
    t.idle_core_pct.push_back(100.0 * static_cast<double>(after - before) /
                              static_cast<double>(idle.nsecsElapsed()));
    return true;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--tree") {
        const std::size_t files = write_tree(argv[2]);
        std::printf("%zu files offered (and 5,000 ignored, 1,000 in .git) in %s\n", files, argv[2]);
        return 0;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("RIO_PROVIDER", "echo");
    QApplication app(argc, argv);
    Timings t;
    for (int run = 0; run < 3; ++run)
        if (!run_once(t)) {
            std::fprintf(stderr, "run %d did not finish\n", run + 1);
            return 1;
        }
    std::printf("files listed by fs.files: %zu\n", t.listed);
    std::printf("fs.files answered (window's client), median: %.1f ms\n", median(t.fs_files_ms));
    std::printf("Ctrl+P after a change until the new list is in, median: %.1f ms\n",
                median(t.first_list_ms));
    std::printf("keystroke until results painted, median: %.2f ms, max %.2f ms (%zu keys)\n",
                median(t.keystroke_ms),
                *std::max_element(t.keystroke_ms.begin(), t.keystroke_ms.end()),
                t.keystroke_ms.size());
    std::printf("fuzzy_find alone on %zu paths, median: %.2f ms, max %.2f ms\n", t.listed,
                median(t.match_ms), *std::max_element(t.match_ms.begin(), t.match_ms.end()));
    std::printf("idle rio-core CPU over 10 s, median of %zu: %.3f %%\n", t.idle_core_pct.size(),
                median(t.idle_core_pct));
    return 0;
}
