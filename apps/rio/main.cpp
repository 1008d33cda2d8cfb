// rio: the desktop frontend (DESIGN §9). A thin main: read the options (before Qt, so --help
// and --version need no display), then a window over a private or attached rio-core.
#include "client/remote_address.hpp"
#include "core/version.hpp"
#include "gui/centre_area.hpp"
#include "gui/core_client.hpp"
#include "gui/desktop_settings.hpp"
#include "gui/editor_area.hpp"
#include "gui/first_show.hpp"
#include "gui/main_window.hpp"
#include "gui/screenshot.hpp"

#include <CLI/CLI.hpp>
#include <QApplication>
#include <QDir>
#include <QProcess>
#include <QSettings>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Options {
    std::string dir;
    std::string provider;
    std::string mode;
    std::string connect;
    std::string token;
    std::vector<std::string> open;
    std::string screenshot;
};

// Qt aborts with a page about platform plugins when it finds no display; say it plainly.
bool has_display() {
    for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        if (const char* value = std::getenv(name); value && *value) return true;
    return false;
}

} // namespace

int main(int argc, char** argv) {
    Options options;
    CLI::App app{"rio: a small, fast code editor whose core runs a coding agent. Starts its own "
                 "rio-core on DIR, or attaches to a running one with --connect.",
                 "rio"};
    app.set_version_flag("--version", std::string("rio ") + rio::version_text);
    auto* dir = app.add_option("DIR", options.dir,
                               "the folder to open (default: the one opened last time)");
    auto* provider = app.add_option(
        "--provider", options.provider,
        "the model provider for the private rio-core: anthropic, openai, echo or script:FILE");
    auto* mode = app.add_option("--mode", options.mode,
                                "the mode the private rio-core starts in, plan or build "
                                "(default: default_mode in ~/.config/rio/config.json, else plan)")
                     ->check(CLI::IsMember({"plan", "build"}));
    app.add_option("--connect", options.connect,
                   "attach to a running rio-core (unix:PATH or HOST:PORT) instead of starting "
                   "one, or start one on another machine: ssh://[user@]host[:port]/path")
        ->excludes(dir);
    app.add_option("--token", options.token,
                   "with --connect HOST:PORT: the core's token (default: read from the file "
                   "rio-core wrote in $XDG_RUNTIME_DIR/rio)");
    app.add_option("--open", options.open, "also open this project-relative file (repeatable)");
    // For docs and tests (`make screenshots`): render, wait until the tree and editors have
    // settled, save the window as PNG to FILE and exit. Hidden from --help.
    app.add_option("--screenshot", options.screenshot)->group("");
    CLI11_PARSE(app, argc, argv);
    // Said before anything else. A core started over ssh takes the options a local one would.
    const bool remote = rio::client::is_remote_spec(options.connect);
    if (!options.connect.empty() && !remote && (*provider || *mode)) {
        std::fprintf(stderr, "rio: --provider and --mode are for a core rio starts (here, or "
                             "over ssh://); a running core keeps its own\n");
        return 1;
    }
    if (remote)
        if (auto address = rio::client::parse_remote_address(options.connect); !address) {
            std::fprintf(stderr, "rio: %s\n", address.error().message.c_str());
            return 1;
        }
    if (!has_display()) {
        std::fprintf(stderr, "rio: there is no display to open a window on (DISPLAY and "
                             "WAYLAND_DISPLAY are not set). In a terminal, run rio-cli "
                             "instead; `make run` picks it for you.\n");
        return 1;
    }

    int qt_argc = 1; // Qt's own options are not offered; QT_QPA_PLATFORM and friends still work
    QApplication qt(qt_argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("rio"));
    QCoreApplication::setApplicationName(QStringLiteral("rio"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(rio::version));
    QGuiApplication::setDesktopFileName(QStringLiteral("rio")); // rio.desktop; Wayland app id
    QSettings settings;
    rio::gui::DesktopSettings remembered = rio::gui::load_desktop_settings(settings);
    const auto remember = [&settings, &remembered] {
        rio::gui::save_desktop_settings(settings, remembered);
    };

    rio::gui::CoreOptions core_options;
    core_options.connect = QString::fromStdString(options.connect);
    core_options.token = QString::fromStdString(options.token);
    core_options.provider = QString::fromStdString(options.provider);
    core_options.mode = QString::fromStdString(options.mode);
    QString reopen; // the folder of last time: asked for after start, so a gone folder is harmless
    if (options.connect.empty()) {
        if (!options.dir.empty())
            core_options.project = QDir::cleanPath(
                QDir::current().absoluteFilePath(QString::fromStdString(options.dir)));
        else
            reopen = remembered.last_project;
    }
    const bool screenshot = !options.screenshot.empty();

    rio::gui::CoreClient core;
    rio::gui::MainWindow window(core);
    if (options.connect.empty() && !screenshot)
        QObject::connect(&window, &rio::gui::MainWindow::project_shown, &window,
                         [&](const QString& root) {
                             remembered.last_project = root;
                             remember();
                         });
    if (remote && !screenshot)
        QObject::connect(&core, &rio::gui::CoreClient::connected, &window, [&] {
            remembered.recent_remotes = rio::gui::remember_project(
                remembered.recent_remotes, QString::fromStdString(options.connect));
            remember();
        });
    // A remote folder gets a window (and a core) of its own, as Open Remote Folder… says.
    QObject::connect(&window, &rio::gui::MainWindow::remote_folder_requested, &window,
                     [&](const QString& address) {
                         remembered.recent_remotes = window.recent_remotes();
                         remember();
                         if (!QProcess::startDetached(QCoreApplication::applicationFilePath(),
                                                      {QStringLiteral("--connect"), address}))
                             window.centre()->show_notice(
                                 QObject::tr("Cannot start another rio for %1").arg(address));
                     });
    QObject::connect(&core, &rio::gui::CoreClient::connected, &window, [&] {
        if (!reopen.isEmpty()) window.open_project(reopen);
        for (const std::string& path : options.open)
            window.open_file(QString::fromStdString(path));
    });

    // Screenshots are drawn at their fixed size, font and theme, whatever the user last chose.
    if (!screenshot) {
        window.restoreGeometry(remembered.geometry);
        window.restoreState(remembered.layout);
        window.editors()->set_zoom(remembered.zoom);
        window.set_theme(remembered.theme);
        // Folders on this machine: not ones a far core could open.
        if (!remote) window.set_recent_projects(remembered.recent_projects);
        if (!remote) window.set_open_files(remembered.open_files);
        window.set_recent_remotes(remembered.recent_remotes);
        QObject::connect(window.editors(), &rio::gui::EditorArea::zoom_changed, &window,
                         [&](int points) {
                             remembered.zoom = points;
                             remember();
                         });
        QObject::connect(&window, &rio::gui::MainWindow::theme_changed, &window,
                         [&](rio::gui::Theme theme) {
                             remembered.theme = theme;
                             remember();
                         });
        // A core attached to may have its project on another machine: not one to reopen.
        if (options.connect.empty())
            QObject::connect(&window, &rio::gui::MainWindow::recent_projects_changed, &window,
                             [&](const QStringList& roots) {
                                 remembered.recent_projects = roots;
                                 remember();
                             });
        QObject::connect(&qt, &QCoreApplication::aboutToQuit, &window, [&] {
            remembered.geometry = window.saveGeometry();
            remembered.layout = window.saveState();
            if (!remote) remembered.open_files = window.open_files();
            remember();
        });
    }
    // Screenshots are grabbed, not painted on a screen: their window shows at once.
    if (screenshot)
        window.show();
    else
        rio::gui::show_when_settled(window, 500);
    core.start(core_options);
    if (screenshot)
        rio::gui::screenshot_when_settled(window, QString::fromStdString(options.screenshot), 15000,
                                          [](bool ok, const QString& why) {
                                              if (!ok)
                                                  std::fprintf(stderr, "rio: no screenshot: %s\n",
                                                               qPrintable(why));
                                              QCoreApplication::exit(ok ? 0 : 1);
                                          });
    return qt.exec();
}
