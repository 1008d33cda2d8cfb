#include "gui/main_window.hpp"

#include "gui/centre_area.hpp"
#include "gui/chat_dock.hpp"
#include "gui/code_editor.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/editor_find.hpp"
#include "gui/file_tree.hpp"
#include "gui/find_bar.hpp"
#include "gui/go_to_line.hpp"
#include "gui/json_text.hpp"
#include "gui/manual_pages.hpp"
#include "gui/manual_view.hpp"
#include "gui/markdown_view.hpp"
#include "gui/plan_view.hpp"
#include "gui/plans_panel.hpp"
#include "gui/settings_dialog.hpp"
#include "gui/text_find.hpp"
#include "gui/trust_bar.hpp"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QVBoxLayout>
#include <memory>

namespace rio::gui {
namespace {

constexpr int message_ms = 6000;

} // namespace

MainWindow::MainWindow(CoreClient& core, QWidget* parent)
    : QMainWindow(parent), core_(core), tree_(new FileTree(core)), editors_(new EditorArea(core)),
      centre_(new CentreArea(editors_)), trust_bar_(new TrustBar(core)), format_label_(new QLabel),
      position_label_(new QLabel) {
    auto* middle = new QWidget;
    auto* column = new QVBoxLayout(middle);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(trust_bar_);
    column->addWidget(centre_, 1);
    setCentralWidget(middle);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    auto* files = new QDockWidget(tr("Files"), this);
    files->setObjectName(QStringLiteral("files"));
    files->setFeatures(QDockWidget::DockWidgetMovable);
    files->setWidget(tree_);
    addDockWidget(Qt::LeftDockWidgetArea, files);
    resizeDocks({files}, {240}, Qt::Horizontal);

    statusBar()->addPermanentWidget(format_label_);
    statusBar()->addPermanentWidget(position_label_);
    build_menus();
    resize(1200, 780);
    update_title();

    connect(tree_, &FileTree::file_activated, this, &MainWindow::open_file);
    connect(editors_, &EditorArea::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, message_ms); });
    connect(editors_, &QTabWidget::currentChanged, this, &MainWindow::follow_current_editor);
    connect(editors_, &EditorArea::file_opened, this, &MainWindow::follow_current_editor);
    // An open find bar follows the view shown; the go-to-line bar is the editor's alone.
    const auto view_changed = [this] {
        centre_->find_bar()->retarget(find_target());
        if (centre_->current_view() != editors_ || !editors_->current_editor())
            centre_->go_to_line_bar()->hide();
    };
    connect(editors_, &QTabWidget::currentChanged, this, view_changed);
    connect(centre_, &CentreArea::view_changed, this, view_changed);
    connect(centre_->go_to_line_bar(), &GoToLineBar::go_to, this, [this](int line, int column) {
        if (CodeEditor* editor = editors_->current_editor()) editor->go_to(line, column);
    });
    connect(&core_, &CoreClient::connected, this, &MainWindow::on_connected);
    connect(&core_, &CoreClient::core_event, this, &MainWindow::on_event);
    connect(&core_, &CoreClient::disconnected, this, &MainWindow::on_disconnected);
    statusBar()->showMessage(tr("Starting rio-core…"));

    chat_ = new ChatDock(*this);
    add_side_panel(chat_);
    resizeDocks({chat_}, {380}, Qt::Horizontal);
    plans_ = new PlansPanel(*this);
    addDockWidget(Qt::LeftDockWidgetArea, plans_);
    tabifyDockWidget(files, plans_);
    files->raise();
}

MainWindow::~MainWindow() = default;

void MainWindow::build_menus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Folder…"), this, [this] {
        QString dir = QFileDialog::getExistingDirectory(this, tr("Open Folder"), root_);
        if (!dir.isEmpty()) open_project(dir);
    });
    open->setShortcut(QKeySequence::Open);
    QAction* save = file->addAction(tr("&Save"), this, [this] { editors_->save_current(); });
    save->setShortcut(QKeySequence::Save);
    QAction* close = file->addAction(tr("&Close Tab"), this, [this] {
        if (CodeEditor* editor = editors_->current_editor()) editors_->close_file(editor->path());
    });
    close->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    file->addSeparator();
    recent_ = file->addMenu(tr("Recent &Conversations"));
    connect(recent_, &QMenu::aboutToShow, this, &MainWindow::list_recent_conversations);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    build_edit_menu();

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* zoom_in =
        view->addAction(tr("Zoom &In"), this, [this] { editors_->set_zoom(editors_->zoom() + 1); });
    zoom_in->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence::ZoomIn});
    QAction* zoom_out = view->addAction(tr("Zoom &Out"), this,
                                        [this] { editors_->set_zoom(editors_->zoom() - 1); });
    zoom_out->setShortcut(QKeySequence::ZoomOut);
    QAction* zoom_reset =
        view->addAction(tr("&Reset Zoom"), this, [this] { editors_->set_zoom(0); });
    zoom_reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));

    QMenu* settings = menuBar()->addMenu(tr("&Settings"));
    QAction* providers = settings->addAction(tr("&Providers…"), this, [this] { show_providers(); });
    providers->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    settings->addAction(tr("&MCP Servers…"), this, &MainWindow::show_mcp_servers);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* manual = help->addAction(tr("&Manual"), this, &MainWindow::show_manual);
    manual->setShortcut(QKeySequence(Qt::Key_F1));
}

void MainWindow::build_edit_menu() {
    // Alt+D, not Alt+E: that is the approval bar's Edit plan while a plan waits.
    QMenu* edit = menuBar()->addMenu(tr("E&dit"));
    QAction* find = edit->addAction(tr("&Find…"), this, [this] { open_find(false); });
    find->setShortcut(QKeySequence::Find);
    // F3 alone: Qt's FindNext also holds Ctrl+G on some desktops, which is Go to Line here.
    QAction* next = edit->addAction(tr("Find &Next"), this, [this] {
        FindBar* bar = centre_->find_bar();
        if (bar->isHidden())
            open_find(false);
        else
            bar->find_next();
    });
    next->setShortcut(QKeySequence(Qt::Key_F3));
    QAction* previous = edit->addAction(tr("Find &Previous"), this, [this] {
        FindBar* bar = centre_->find_bar();
        if (bar->isHidden())
            open_find(false);
        else
            bar->find_previous();
    });
    previous->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));
    QAction* replace = edit->addAction(tr("&Replace…"), this, [this] { open_find(true); });
    replace->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    edit->addSeparator();
    QAction* line = edit->addAction(tr("&Go to Line…"), this, &MainWindow::open_go_to_line);
    line->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
}

std::unique_ptr<FindTarget> MainWindow::find_target() const {
    QWidget* view = centre_->current_view();
    if (view == editors_) {
        CodeEditor* editor = editors_->current_editor();
        if (!editor) return nullptr;
        return std::make_unique<EditorFind>(*editor);
    }
    MarkdownView* body = nullptr;
    if (auto* plan = qobject_cast<PlanView*>(view))
        body = plan->body();
    else if (auto* manual = qobject_cast<ManualView*>(view))
        body = manual->body();
    if (!body) return nullptr;
    // TextFind drops the call once the view is gone, so the pointer is never used stale.
    return std::make_unique<TextFind>(*body, [body] { body->finish_painting(); });
}

void MainWindow::open_find(bool replace) {
    std::unique_ptr<FindTarget> target = find_target();
    if (!target) {
        statusBar()->showMessage(tr("Nothing to search here"), message_ms);
        return;
    }
    centre_->go_to_line_bar()->hide();
    centre_->find_bar()->open(std::move(target), replace);
}

void MainWindow::open_go_to_line() {
    CodeEditor* editor = centre_->current_view() == editors_ ? editors_->current_editor() : nullptr;
    if (!editor) {
        statusBar()->showMessage(tr("Go to Line needs an open file"), message_ms);
        return;
    }
    centre_->find_bar()->hide();
    centre_->go_to_line_bar()->open(editor->lines(), editor);
}

// Filled each time it opens: the project's saved sessions, newest first (DESIGN §14).
void MainWindow::list_recent_conversations() {
    recent_->clear();
    QAction* waiting = recent_->addAction(tr("Loading…"));
    waiting->setEnabled(false);
    core_.request(
        op::agent_sessions_list, Json::object(), this,
        [this](const Json& result, const std::optional<Error>& error) {
            recent_->clear();
            SessionsListResult listed;
            if (!error) {
                try {
                    listed = result.get<SessionsListResult>();
                } catch (const std::exception&) {
                }
            }
            const std::string current = chat_->session().state().session;
            for (const SessionInfo& info : listed.sessions) {
                QString label =
                    QString::fromStdString(info.title.empty() ? "(untitled)" : info.title) +
                    QStringLiteral(" — ") +
                    QString::fromStdString(info.updated.substr(0, 16))
                        .replace(QLatin1Char('T'), QLatin1Char(' ')) +
                    (info.turns == 1 ? tr(" · 1 turn") : tr(" · %1 turns").arg(info.turns));
                if (info.pending) label += tr(" · waiting for you");
                QAction* a = recent_->addAction(label);
                a->setData(QString::fromStdString(info.id));
                a->setCheckable(info.id == current);
                a->setChecked(info.id == current);
                connect(a, &QAction::triggered, this,
                        [this, id = info.id] { chat_->resume_session(id); });
            }
            if (listed.sessions.empty()) {
                QAction* none =
                    recent_->addAction(error ? QString::fromStdString(error->message)
                                             : tr("No earlier conversations in this project"));
                none->setEnabled(false);
            }
        });
}

void MainWindow::show_manual() {
    if (!manual_) {
        manual_ = new ManualView(find_manual_dir());
        connect(manual_, &ManualView::close_requested, this, [this] {
            if (centre_->current_view() == manual_) centre_->show_editors();
        });
    }
    centre_->show_view(manual_);
    manual_->setFocus(Qt::ShortcutFocusReason); // so Esc and Alt+Left reach it
}

SettingsDialog& MainWindow::settings_dialog() {
    if (!settings_) settings_ = new SettingsDialog(core_, this);
    return *settings_;
}

void MainWindow::show_mcp_servers() {
    settings_dialog().show_mcp_servers();
}

void MainWindow::show_providers(const QString& provider) {
    settings_dialog().show_providers(provider);
}

void MainWindow::on_connected() {
    lost_ = false;
    centre_->hide_notice();
    statusBar()->showMessage(tr("Connected to rio-core"), message_ms);
    const Json& hello = core_.hello();
    if (!hello.contains("root") || !hello["root"].is_string()) {
        show_project(Json{{"root", nullptr}, {"name", nullptr}});
        return;
    }
    core_.request(op::project_info, Json::object(), this,
                  [this](const Json& result, const std::optional<Error>& error) {
                      if (error) {
                          statusBar()->showMessage(
                              tr("No project: %1").arg(QString::fromStdString(error->message)));
                          return;
                      }
                      show_project(result);
                  });
}

void MainWindow::on_event(const client::CoreEvent& event) {
    if (auto* buffer = std::get_if<BufferChangedEvent>(&event))
        editors_->buffer_changed(Json(*buffer));
    else if (auto* files = std::get_if<FsChangedEvent>(&event))
        tree_->files_changed(Json(*files));
    else if (auto* project = std::get_if<ProjectChangedEvent>(&event))
        show_project(Json(*project));
    // agent.* and plans.* belong to the chat and plan views, which subscribe themselves.
}

void MainWindow::on_disconnected(const QString& why) {
    lost_ = true;
    editors_->core_lost();
    centre_->show_notice(
        tr("<b>rio-core is not running any more.</b> %1<br>"
           "Files cannot be opened or saved from this window now. Text you have not saved is "
           "still shown, so you can copy it; then restart rio.")
            .arg(why.toHtmlEscaped()));
    statusBar()->showMessage(tr("Disconnected from rio-core"));
    update_title();
}

void MainWindow::show_project(const Json& info) {
    const QString root = json_string(info, "root");
    const bool changed = root != root_;
    root_ = root;
    name_ = json_string(info, "name");
    if (name_.isEmpty() && !root_.isEmpty()) name_ = root_.section(QLatin1Char('/'), -1);
    update_title();
    if (changed) editors_->drop_all(); // the core dropped the old project's buffers
    if (root_.isEmpty()) {
        tree_->clear();
        trust_bar_->hide();
        statusBar()->showMessage(tr("No folder open — File › Open Folder…"));
        return;
    }
    tree_->reload();
    trust_bar_->refresh();
    statusBar()->showMessage(tr("Opened %1").arg(root_), message_ms);
    emit project_shown(root_);
}

void MainWindow::update_title() {
    QString title = QStringLiteral("rio");
    if (!name_.isEmpty()) title += QStringLiteral(" — ") + name_;
    if (lost_) title += tr(" (disconnected)");
    setWindowTitle(title);
}

void MainWindow::open_project(const QString& path) {
    send_project_open(path, /*discard=*/false);
}

void MainWindow::send_project_open(const QString& path, bool discard) {
    Json params{{"path", path.toStdString()}};
    if (discard) params["discard"] = true;
    core_.request(
        op::project_open, std::move(params), this,
        [this, path](const Json& result, const std::optional<Error>& error) {
            if (!error) {
                show_project(result);
                return;
            }
            if (error->code == ErrorCode::conflict) {
                auto answer = QMessageBox::question(
                    this, tr("Unsaved changes"),
                    tr("Some files have unsaved changes. Open %1 and drop them?").arg(path),
                    QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
                if (answer == QMessageBox::Discard) send_project_open(path, /*discard=*/true);
                return;
            }
            statusBar()->showMessage(
                tr("Cannot open %1: %2").arg(path, QString::fromStdString(error->message)));
        });
}

void MainWindow::open_file(const QString& path) {
    editors_->open(path);
}

void MainWindow::add_side_panel(QDockWidget* panel) {
    addDockWidget(Qt::RightDockWidgetArea, panel);
}

bool MainWindow::settled() const {
    if (!core_.is_connected() || core_.pending() > 0 || editors_->busy()) return false;
    return root_.isEmpty() || tree_->files().is_loaded(QString());
}

void MainWindow::follow_current_editor() {
    disconnect(cursor_connection_);
    CodeEditor* editor = editors_->current_editor();
    if (!editor) {
        format_label_->clear();
        position_label_->clear();
        return;
    }
    format_label_->setText(editors_->describe(editor->path()));
    auto show_position = [this](int line, int index) {
        position_label_->setText(tr("Ln %1, Col %2").arg(line + 1).arg(index + 1));
    };
    int line = 0, index = 0;
    editor->getCursorPosition(&line, &index);
    show_position(line, index);
    cursor_connection_ =
        connect(editor, &QsciScintilla::cursorPositionChanged, position_label_, show_position);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    const QStringList dirty = editors_->dirty_paths();
    // A private core ends with this window, and its unsaved buffers with it; a shared one
    // keeps them for its other clients.
    if (closing_ || lost_ || !core_.is_private() || dirty.isEmpty()) {
        event->accept();
        return;
    }
    auto answer = QMessageBox::question(
        this, tr("Unsaved changes"),
        tr("%n file(s) have unsaved changes:\n%1\n\nSave them before quitting?", nullptr,
           static_cast<int>(dirty.size()))
            .arg(dirty.join(QLatin1Char('\n'))),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Discard) {
        event->accept();
        return;
    }
    event->ignore();
    if (answer == QMessageBox::Save) save_all_then_close();
}

void MainWindow::save_all_then_close() {
    const QStringList dirty = editors_->dirty_paths();
    auto left = std::make_shared<int>(static_cast<int>(dirty.size()));
    auto failed = std::make_shared<bool>(false);
    for (const QString& path : dirty) {
        core_.request(
            op::buffer_save, Json{{"path", path.toStdString()}}, this,
            [this, path, left, failed](const Json&, const std::optional<Error>& error) {
                if (error) {
                    *failed = true;
                    statusBar()->showMessage(
                        tr("Cannot save %1: %2").arg(path, QString::fromStdString(error->message)));
                }
                if (--*left == 0 && !*failed) {
                    closing_ = true;
                    close();
                }
            });
    }
}

} // namespace rio::gui
