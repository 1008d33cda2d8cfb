#include "gui/main_window.hpp"

#include "client/trace_words.hpp"
#include "gui/centre_area.hpp"
#include "gui/changes_panel.hpp"
#include "gui/chat_dock.hpp"
#include "gui/code_editor.hpp"
#include "gui/code_navigation.hpp"
#include "gui/conflict_bar.hpp"
#include "gui/core_client.hpp"
#include "gui/desktop_settings.hpp"
#include "gui/editor_area.hpp"
#include "gui/editor_diagnostics.hpp"
#include "gui/editor_find.hpp"
#include "gui/file_commands.hpp"
#include "gui/file_icons.hpp"
#include "gui/file_tree.hpp"
#include "gui/find_bar.hpp"
#include "gui/git_margin.hpp"
#include "gui/go_to_line.hpp"
#include "gui/json_text.hpp"
#include "gui/manual_pages.hpp"
#include "gui/manual_view.hpp"
#include "gui/markdown_view.hpp"
#include "gui/plan_view.hpp"
#include "gui/plans_panel.hpp"
#include "gui/position_label.hpp"
#include "gui/problems_panel.hpp"
#include "gui/prompts.hpp"
#include "gui/quick_open.hpp"
#include "gui/remote_folder_dialog.hpp"
#include "gui/search_panel.hpp"
#include "gui/settings_dialog.hpp"
#include "gui/terminal_panel.hpp"
#include "gui/text_find.hpp"
#include "gui/trust_bar.hpp"
#include "gui/welcome_page.hpp"
#include "gui/window_size.hpp"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QResizeEvent>
#include <QScreen>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <memory>
#include <utility>

namespace rio::gui {
namespace {

constexpr int message_ms = 6000;

} // namespace

MainWindow::MainWindow(CoreClient& core, QWidget* parent)
    : QMainWindow(parent), core_(core), tree_(new FileTree(core)), editors_(new EditorArea(core)),
      centre_(new CentreArea(editors_)), trust_bar_(new TrustBar(core)),
      conflict_bar_(new ConflictBar(core, *editors_, *centre_)),
      quick_open_(new QuickOpen(core, centre_)), format_label_(new QLabel),
      position_label_(new PositionLabel), file_commands_(new FileCommands(core, *editors_, *this)),
      system_style_(QApplication::style()->name()) {
    use_icon_theme();
    auto* middle = new QWidget;
    auto* column = new QVBoxLayout(middle);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(trust_bar_);
    column->addWidget(conflict_bar_);
    column->addWidget(centre_, 1);
    setCentralWidget(middle);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    auto* files = new QDockWidget(tr("Files"), this);
    files_dock_ = files;
    files->setObjectName(QStringLiteral("files"));
    files->setFeatures(QDockWidget::DockWidgetMovable);
    files->setWidget(tree_);
    addDockWidget(Qt::LeftDockWidgetArea, files);
    resizeDocks({files}, {240}, Qt::Horizontal);
    // The side bar's tabs stand on its left edge, as an activity bar's do: their whole names
    // ("Problems (2)") fit there at any width, where four along the bottom of a 240 px side
    // bar put the last behind scroll buttons.
    setTabPosition(Qt::LeftDockWidgetArea, QTabWidget::West);
    QTimer::singleShot(0, this, [this] {
        for (QTabBar* bar : findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
            bar->setElideMode(Qt::ElideNone);
            bar->setUsesScrollButtons(true);
        }
    });

    statusBar()->addPermanentWidget(format_label_);
    statusBar()->addPermanentWidget(position_label_);
    build_menus();
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        resize(default_window_size(screen->availableSize()));
    else
        resize(default_window_size({}));
    update_title();

    connect(tree_, &FileTree::file_activated, this, &MainWindow::open_file);
    const auto say = [this](const QString& text) { statusBar()->showMessage(text, message_ms); };
    connect(editors_, &EditorArea::message, this, say);
    connect(file_commands_, &FileCommands::message, this, say);
    connect(conflict_bar_, &ConflictBar::message, this, say);
    connect(quick_open_, &QuickOpen::file_chosen, this, [this](const QString& path) {
        centre_->show_editors();
        open_file(path);
    });
    connect(quick_open_, &QuickOpen::place_chosen, this,
            [this](const QString& path, qulonglong line, qulonglong column) {
                navigation_->go_to(path, line, column);
            });
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
    connect(centre_, &CentreArea::notice_action, this, &MainWindow::reconnect);
    statusBar()->showMessage(tr("Starting rio-core…"));

    chat_ = new ChatDock(*this);
    add_side_panel(chat_);
    // The chat's share grows with the window; 380 px is where its buttons fit on a laptop.
    resizeDocks({chat_}, {std::max(380, width() * 28 / 100)}, Qt::Horizontal);
    plans_ = new PlansPanel(*this);
    addDockWidget(Qt::LeftDockWidgetArea, plans_);
    tabifyDockWidget(files, plans_);
    search_ = new SearchPanel(*this);
    addDockWidget(Qt::LeftDockWidgetArea, search_);
    tabifyDockWidget(plans_, search_);
    problems_ = new ProblemsPanel(*this);
    addDockWidget(Qt::LeftDockWidgetArea, problems_);
    tabifyDockWidget(search_, problems_);
    changes_ = new ChangesPanel(*this);
    addDockWidget(Qt::LeftDockWidgetArea, changes_);
    tabifyDockWidget(problems_, changes_);
    git_margin_ = new GitMargin(*this);
    connect(git_margin_, &GitMargin::compare_requested, changes_, &ChangesPanel::compare);
    connect(git_margin_, &GitMargin::message, this, say);
    connect(changes_, &ChangesPanel::message, this, say);
    terminals_ = new TerminalPanel(core_, this);
    addDockWidget(Qt::BottomDockWidgetArea, terminals_);
    terminals_->hide();
    files->raise();
    navigation_ = new CodeNavigation(*this);
    connect(problems_, &ProblemsPanel::file_changed, this, &MainWindow::draw_problems);
    connect(editors_, &EditorArea::file_opened, this, &MainWindow::draw_problems);
    connect(editors_, &EditorArea::hover_requested, navigation_, &CodeNavigation::hover);

    welcome_ = new WelcomePage(editors_);
    editors_->installEventFilter(this);
    files_dock_->installEventFilter(this);
    connect(editors_, &QTabWidget::currentChanged, this, &MainWindow::show_welcome);
    connect(welcome_, &WelcomePage::open_folder_requested, this, &MainWindow::choose_folder);
    connect(welcome_, &WelcomePage::recent_requested, this, &MainWindow::open_project);
    connect(welcome_, &WelcomePage::connect_requested, this,
            [this] { settings_dialog().show_providers_to_connect(); });
    connect(welcome_, &WelcomePage::manual_requested, this, &MainWindow::show_manual);
    connect(chat_, &ChatDock::model_connected, welcome_, &WelcomePage::set_model_connected);
    connect(this, &MainWindow::project_shown, this, &MainWindow::show_recent_on_welcome);
    connect(this, &MainWindow::recent_projects_changed, this, &MainWindow::show_recent_on_welcome);
    show_welcome();
}

MainWindow::~MainWindow() = default;

void MainWindow::build_menus() {
    build_file_menu();
    build_edit_menu();
    build_view_menu();

    QMenu* settings = menuBar()->addMenu(tr("&Settings"));
    QAction* providers = settings->addAction(tr("&Providers…"), this, [this] { show_providers(); });
    providers->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    settings->addAction(tr("&MCP Servers…"), this, &MainWindow::show_mcp_servers);
    settings->addAction(tr("&Language Servers…"), this, &MainWindow::show_lsp_servers);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* manual = help->addAction(tr("&Manual"), this, &MainWindow::show_manual);
    manual->setShortcut(QKeySequence(Qt::Key_F1));
}

void MainWindow::build_file_menu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* new_file = file->addAction(tr("&New File…"), this, [this] {
        if (root_.isEmpty())
            statusBar()->showMessage(tr("Open a folder first: new files go into the project"),
                                     message_ms);
        else
            file_commands_->new_file(current_folder());
    });
    new_file->setShortcut(QKeySequence::New);
    QAction* open = file->addAction(tr("&Open Folder…"), this, &MainWindow::choose_folder);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open Re&mote Folder…"), this, &MainWindow::choose_remote_folder);
    recent_projects_menu_ = file->addMenu(tr("Open &Recent"));
    connect(recent_projects_menu_, &QMenu::aboutToShow, this, &MainWindow::list_recent_projects);
    file->addSeparator();
    QAction* save = file->addAction(tr("&Save"), this, [this] { editors_->save_current(); });
    save->setShortcut(QKeySequence::Save);
    QAction* save_as =
        file->addAction(tr("Save &As…"), this, [this] { file_commands_->save_as(); });
    save_as->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    QAction* save_all = file->addAction(tr("Save A&ll"), this, [this] {
        const qsizetype count = editors_->dirty_paths().size();
        if (count == 0) statusBar()->showMessage(tr("Nothing to save"), message_ms);
        editors_->save_all([this, count](bool saved) {
            if (saved && count > 1)
                statusBar()->showMessage(tr("Saved %1 files").arg(count), message_ms);
        });
    });
    save_all->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    QAction* close = file->addAction(tr("Close &Tab"), this, [this] {
        if (CodeEditor* editor = editors_->current_editor()) editors_->close_file(editor->path());
    });
    close->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    file->addSeparator();
    recent_ = file->addMenu(tr("Recent &Conversations"));
    connect(recent_, &QMenu::aboutToShow, this, &MainWindow::list_recent_conversations);
    compact_ = file->addAction(tr("Compact Conversation"), this,
                               [this] { chat_->compact_conversation(); });
    compact_->setObjectName(QStringLiteral("compact_conversation"));
    compact_->setToolTip(tr("Make the conversation smaller: old tool outputs are cleared and "
                            "older turns summarized"));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::build_view_menu() {
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
    view->addSeparator();
    // Ctrl+` as VS Code, Zed and Cursor have it; the view keeps it from the shell.
    QAction* terminal = view->addAction(tr("&Terminal"), this, [this] { terminals_->toggle(); });
    terminal->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_QuoteLeft));
    view->addAction(tr("&New Terminal"), this, [this] { terminals_->open_terminal(); });
    view->addSeparator();
    QMenu* themes = view->addMenu(tr("&Theme"));
    auto* group = new QActionGroup(this);
    const std::pair<Theme, QString> choices[] = {
        {Theme::system, tr("&System")}, {Theme::light, tr("&Light")}, {Theme::dark, tr("&Dark")}};
    for (const auto& choice : choices) {
        const Theme theme = choice.first;
        QAction* action =
            themes->addAction(choice.second, this, [this, theme] { set_theme(theme); });
        action->setCheckable(true);
        action->setChecked(theme == theme_);
        group->addAction(action);
        theme_actions_ << action;
    }
}

void MainWindow::set_theme(Theme theme) {
    const bool changed = theme != theme_;
    theme_ = theme;
    apply_theme(theme, system_style_);
    theme_actions_.at(static_cast<int>(theme))->setChecked(true);
    if (changed) emit theme_changed(theme);
}

void MainWindow::choose_folder() {
    // Over ssh the folders are the far machine's: this machine's file dialog cannot list them.
    QString dir =
        core_.is_remote()
            ? QInputDialog::getText(this, tr("Open Folder"),
                                    tr("A folder on %1 (an absolute path):").arg(core_.far_host()),
                                    QLineEdit::Normal, root_)
            : QFileDialog::getExistingDirectory(this, tr("Open Folder"), root_);
    if (!dir.isEmpty()) open_project(dir);
}

void MainWindow::choose_remote_folder() {
    auto* dialog = new RemoteFolderDialog(recent_remotes_, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const QString address = dialog->address();
        recent_remotes_ = remember_project(recent_remotes_, address);
        emit remote_folder_requested(address);
    });
    dialog->open();
}

void MainWindow::set_recent_projects(const QStringList& roots) {
    recent_projects_ = roots;
    show_recent_on_welcome();
}

// The folders opened lately, but the one that is open now.
void MainWindow::show_recent_on_welcome() {
    QStringList others = recent_projects_;
    others.removeAll(root_);
    // The welcome page checks each folder on this disk; a far window's are elsewhere.
    welcome_->set_recent(core_.is_remote() ? QStringList() : others);
}

void MainWindow::show_welcome() {
    welcome_->setGeometry(editors_->rect());
    welcome_->setVisible(editors_->count() == 0);
    if (welcome_->isVisible()) welcome_->raise();
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == editors_ && event->type() == QEvent::Resize) show_welcome();
    // The side bar resized while the window kept its size: the person dragged its edge.
    if (watched == files_dock_ && event->type() == QEvent::Resize && !restoring_ &&
        size() == laid_out_ && files_dock_->isVisible())
        side_width_ = files_dock_->width();
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event); // the docks are laid out for the new size by now
    laid_out_ = size();
    const int room = centre_->width() + files_dock_->width() - side_width_;
    if (files_dock_->isVisible() && files_dock_->width() < side_width_ && room >= 400) {
        restoring_ = true;
        // The width given is the dock area's, which starts at the window's left edge: the
        // tabs' strip there is the dock's x.
        resizeDocks({files_dock_}, {files_dock_->x() + side_width_}, Qt::Horizontal);
        restoring_ = false;
    }
}

// Filled each time it opens: folders that are gone are named, not offered.
void MainWindow::list_recent_projects() {
    recent_projects_menu_->clear();
    for (const QString& root : recent_projects_) {
        const QString label = root.section(QLatin1Char('/'), -1) + QStringLiteral(" — ") + root;
        // A far project's folders are not on this disk to look at.
        if (!core_.is_remote() && !QDir(root).exists()) {
            recent_projects_menu_->addAction(label + tr(" (not found)"))->setEnabled(false);
            continue;
        }
        QAction* action =
            recent_projects_menu_->addAction(label, this, [this, root] { open_project(root); });
        action->setData(root);
    }
    if (recent_projects_.isEmpty()) {
        recent_projects_menu_->addAction(tr("No recent folders"))->setEnabled(false);
        return;
    }
    recent_projects_menu_->addSeparator();
    recent_projects_menu_->addAction(tr("&Clear Recent"), this, [this] {
        recent_projects_.clear();
        emit recent_projects_changed(recent_projects_);
    });
}

QString MainWindow::current_folder() const {
    const QString path = editors_->current_path();
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : path.left(slash);
}

// Issue 46: Undo, Redo, Cut, Copy, Paste and Select All, where people reach for them. Each
// acts on whatever has the keyboard — the code, the chat's composer, a field — which all have
// these slots (QsciScintilla, QLineEdit, QTextEdit, QPlainTextEdit). The widgets keep their own
// keys (they claim them first), so the shortcuts shown here are theirs too.
void MainWindow::add_clipboard_actions(QMenu& edit) {
    const struct {
        const char* text;
        const char* slot;
        QKeySequence::StandardKey key;
    } actions[] = {
        {QT_TR_NOOP("&Undo"), "undo()", QKeySequence::Undo},
        {QT_TR_NOOP("&Redo"), "redo()", QKeySequence::Redo},
        {nullptr, nullptr, QKeySequence::UnknownKey},
        {QT_TR_NOOP("Cu&t"), "cut()", QKeySequence::Cut},
        {QT_TR_NOOP("&Copy"), "copy()", QKeySequence::Copy},
        {QT_TR_NOOP("&Paste"), "paste()", QKeySequence::Paste},
        {QT_TR_NOOP("Select &All"), "selectAll()", QKeySequence::SelectAll},
    };
    for (const auto& a : actions) {
        if (!a.text) {
            edit.addSeparator();
            continue;
        }
        const QByteArray slot = a.slot;
        QAction* action = edit.addAction(tr(a.text), this, [slot] {
            QWidget* focus = QApplication::focusWidget();
            if (focus && focus->metaObject()->indexOfMethod(slot.constData()) >= 0)
                QMetaObject::invokeMethod(focus, slot.left(slot.indexOf('(')).constData());
        });
        action->setShortcut(a.key);
    }
}

void MainWindow::build_edit_menu() {
    // Alt+D, not Alt+E: that is the approval bar's Edit plan while a plan waits.
    QMenu* edit = menuBar()->addMenu(tr("E&dit"));
    add_clipboard_actions(*edit);
    edit->addSeparator();
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
    QAction* go_to_file = edit->addAction(tr("Go to F&ile…"), this, &MainWindow::open_quick_open);
    go_to_file->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    QAction* in_project = edit->addAction(tr("Find in Pro&ject…"), this, &MainWindow::open_search);
    in_project->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    edit->addSeparator();
    QAction* definition =
        edit->addAction(tr("Go to &Definition"), this, [this] { navigation_->go_to_definition(); });
    definition->setShortcut(QKeySequence(Qt::Key_F12));
    QAction* back = edit->addAction(tr("Go &Back"), this, [this] { navigation_->go_back(); });
    back->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
    // Only where code is: the manual and the chat have an Alt+Left of their own, and two
    // window-wide claims on one key make Qt run neither.
    back->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    editors_->addAction(back);
    QAction* references =
        edit->addAction(tr("Find Re&ferences"), this, [this] { navigation_->find_references(); });
    references->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F12));
}

void MainWindow::draw_problems(const QString& path) {
    CodeEditor* editor = editors_->editor(path);
    if (!editor) return;
    static const std::vector<DiagnosticInfo> none;
    const auto* list = problems_->problems().of(path.toStdString());
    draw_diagnostics(*editor, list ? *list : none);
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

void MainWindow::open_quick_open() {
    if (root_.isEmpty()) {
        statusBar()->showMessage(tr("No folder is open — File › Open Folder…"), message_ms);
        return;
    }
    CodeEditor* editor = centre_->current_view() == editors_ ? editors_->current_editor() : nullptr;
    quick_open_->set_symbol_file(editor ? editor->path() : QString());
    quick_open_->open_box();
}

void MainWindow::open_search() {
    QString selected;
    if (CodeEditor* editor =
            centre_->current_view() == editors_ ? editors_->current_editor() : nullptr)
        selected = editor->selectedText();
    if (selected.contains(QLatin1Char('\n')) || selected.contains(QLatin1Char('\r')))
        selected.clear(); // a search matches within one line
    search_->start(selected);
}

// Filled each time it opens: the project's saved sessions, newest first (DESIGN §14).
void MainWindow::list_recent_conversations() {
    recent_->clear();
    QAction* waiting = recent_->addAction(tr("Loading…"));
    waiting->setEnabled(false);
    core_.call(SessionsListParams{}, this, [this](const client::Typed<SessionsListParams>& result) {
        recent_->clear();
        const SessionsListResult listed = result ? *result : SessionsListResult{};
        const std::string current = chat_->session().state().session;
        for (const SessionInfo& info : listed.sessions) {
            QString label = QString::fromStdString(info.title.empty() ? "(untitled)" : info.title) +
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
                recent_->addAction(!result ? QString::fromStdString(result.error().message)
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

void MainWindow::show_lsp_servers() {
    settings_dialog().show_lsp_servers();
}

void MainWindow::show_providers(const QString& provider) {
    settings_dialog().show_providers(provider);
}

void MainWindow::on_connected() {
    const bool again = std::exchange(lost_, false);
    was_connected_ = true;
    centre_->hide_notice();
    update_title();
    statusBar()->showMessage(core_.is_remote()
                                 ? tr("Connected to rio-core on %1").arg(core_.far_host())
                                 : tr("Connected to rio-core"),
                             message_ms);
    const Json& hello = core_.hello();
    if (again && !root_.isEmpty() && json_string(hello, "root") != root_) {
        // A core started again opens the folder it was first given; this window had moved on
        // to another, whose tabs are still open. That one first, then the tabs.
        core_.call(ProjectOpenParams{root_.toStdString(), std::nullopt}, this,
                   [this](const client::Typed<ProjectOpenParams>& opened) {
                       if (!opened)
                           statusBar()->showMessage(
                               tr("Cannot open %1 again: %2")
                                   .arg(root_, QString::fromStdString(opened.error().message)));
                       else
                           show_project(*opened);
                       editors_->core_back();
                   });
        return;
    }
    if (again) editors_->core_back();
    if (!hello.contains("root") || !hello["root"].is_string()) {
        show_project(ProjectInfo{});
        return;
    }
    core_.call(ProjectInfoParams{}, this, [this](const client::Typed<ProjectInfoParams>& info) {
        if (!info) {
            statusBar()->showMessage(
                tr("No project: %1").arg(QString::fromStdString(info.error().message)));
            return;
        }
        show_project(*info);
    });
}

void MainWindow::on_event(const client::CoreEvent& event) {
    if (auto* buffer = std::get_if<BufferChangedEvent>(&event))
        editors_->buffer_changed(*buffer);
    else if (auto* files = std::get_if<FsChangedEvent>(&event))
        tree_->files_changed(*files);
    else if (auto* project = std::get_if<ProjectChangedEvent>(&event))
        show_project(*project);
    // agent.* and plans.* belong to the chat and plan views, which subscribe themselves.
}

void MainWindow::on_disconnected(const QString& why) {
    lost_ = true;
    editors_->core_lost();
    const QString reason = why.toHtmlEscaped();
    if (!was_connected_)
        centre_->show_notice(tr("<b>Cannot start rio-core.</b> %1").arg(reason), tr("Try Again"));
    else if (core_.is_remote())
        centre_->show_notice(
            tr("<b>The connection to %1 is lost.</b> %2<br>Text you have not saved is still "
               "shown and is kept. The far rio-core keeps the conversation in its session file; "
               "Reconnect picks it up, a plan waiting for a decision included.")
                .arg(core_.far_host().toHtmlEscaped(), reason),
            tr("Reconnect"));
    else
        centre_->show_notice(
            tr("<b>rio-core is not running any more.</b> %1<br>"
               "Files cannot be opened or saved from this window now. Text you have not saved "
               "is still shown and is kept; Restart starts rio-core again and picks up the "
               "conversation.")
                .arg(reason),
            tr("Restart"));
    statusBar()->showMessage(tr("Disconnected from rio-core"));
    update_title();
}

void MainWindow::reconnect() {
    if (!lost_) return;
    centre_->show_notice(core_.is_remote() ? tr("Connecting to %1…").arg(core_.far_host())
                                           : tr("Starting rio-core…"));
    core_.reconnect();
}

void MainWindow::show_project(const ProjectInfo& info) {
    const QString root = QString::fromStdString(info.root.value_or(std::string()));
    const bool changed = root != root_;
    if (changed && !root_.isEmpty()) open_files_[root_] = editors_->open_paths();
    root_ = root;
    name_ = QString::fromStdString(info.name.value_or(std::string()));
    if (name_.isEmpty() && !root_.isEmpty()) name_ = root_.section(QLatin1Char('/'), -1);
    update_title();
    if (changed) editors_->drop_all(); // the core dropped the old project's buffers
    for (const QPointer<PlanView>& view : plan_views_)
        if (view) view->set_project_root(root_);
    if (root_.isEmpty()) {
        if (changed) quick_open_->follow_project(false);
        tree_->clear();
        trust_bar_->hide();
        statusBar()->showMessage(tr("No folder open — File › Open Folder…"));
        return;
    }
    tree_->reload();
    if (changed) {
        // Asked after the tree's first folder, which the core then answers first.
        quick_open_->follow_project(true);
        for (const QString& path : open_files_.value(root_))
            editors_->open(path);
        problems_->reload();
    }
    changes_->reload();
    trust_bar_->refresh();
    statusBar()->showMessage(tr("Opened %1").arg(root_), message_ms);
    if (const QStringList recent = remember_project(recent_projects_, root_);
        recent != recent_projects_) {
        recent_projects_ = recent;
        emit recent_projects_changed(recent_projects_);
    }
    emit project_shown(root_);
}

// "big.c — project — rio", as the window lists and task bars show it: the file first.
void MainWindow::update_title() {
    QStringList parts;
    if (const CodeEditor* editor = editors_->current_editor())
        parts << QFileInfo(editor->path()).fileName();
    QString where = name_;
    if (core_.is_remote())
        where = name_.isEmpty() ? core_.far_host() : tr("%1 on %2").arg(name_, core_.far_host());
    if (!where.isEmpty()) parts << where;
    parts << QStringLiteral("rio");
    QString title = parts.join(QStringLiteral(" — "));
    if (lost_) title += tr(" (disconnected)");
    setWindowTitle(title);
}

void MainWindow::open_project(const QString& path) {
    if (!may_leave_running_turn(path)) return;
    send_project_open(path, /*discard=*/false);
}

bool MainWindow::may_leave_running_turn(const QString& path) {
    const client::SessionState& state = chat_->session().state();
    // A plan or edit waiting for a decision is not running: it waits in its session.
    if (!state.busy || state.pending || QDir(path) == QDir(root_)) return true;
    return ask(stop_turn_prompt(this, path)) == QMessageBox::Yes;
}

QHash<QString, QStringList> MainWindow::open_files() const {
    QHash<QString, QStringList> files = open_files_;
    if (!root_.isEmpty()) files[root_] = editors_->open_paths();
    return files;
}

void MainWindow::send_project_open(const QString& path, bool discard) {
    ProjectOpenParams params{path.toStdString(), std::nullopt};
    if (discard) params.discard = true;
    core_.call(params, this, [this, path](const client::Typed<ProjectOpenParams>& opened) {
        if (opened) {
            show_project(*opened);
            return;
        }
        if (opened.error().code == ErrorCode::conflict) {
            if (ask(drop_unsaved_prompt(this, path)) == QMessageBox::Discard)
                send_project_open(path, /*discard=*/true);
            return;
        }
        statusBar()->showMessage(
            tr("Cannot open %1: %2").arg(path, QString::fromStdString(opened.error().message)));
    });
}

void MainWindow::open_file(const QString& path) {
    editors_->open(path);
}

void MainWindow::open_file_at(const QString& path, int line) {
    centre_->show_editors();
    editors_->open(path, line);
}

void MainWindow::join_plan_view(PlanView* view) {
    plan_views_ << QPointer<PlanView>(view);
    view->set_project_root(root_);
    connect(view, &PlanView::file_link_activated, this, &MainWindow::open_file_at);
    connect(view, &PlanView::link_refused, this,
            [this](const QString& why) { statusBar()->showMessage(why, message_ms); });
    connect(view, &PlanView::check_requested, this, &MainWindow::check_step);
}

// Issue 43: the answer is a line in the status bar; plans.progress updates the steps.
void MainWindow::check_step(quint64 step) {
    statusBar()->showMessage(tr("Running step %1's check…").arg(step));
    core().call(PlansCheckParams{step}, this, [this](const client::Typed<PlansCheckParams>& r) {
        statusBar()->showMessage(
            QString::fromStdString(r ? client::recheck_text(*r) : r.error().message), message_ms);
    });
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
    update_title();
    CodeEditor* editor = editors_->current_editor();
    if (!editor) {
        format_label_->clear();
        position_label_->forget();
        return;
    }
    format_label_->setText(editors_->describe(editor->path()));
    int line = 0, index = 0;
    editor->getCursorPosition(&line, &index);
    position_label_->show_position(line, index);
    cursor_connection_ = connect(editor, &QsciScintilla::cursorPositionChanged, position_label_,
                                 &PositionLabel::show_position);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    const QStringList dirty = editors_->dirty_paths();
    // A private core ends with this window, and its unsaved buffers with it; a shared one
    // keeps them for its other clients.
    if (closing_ || lost_ || !core_.is_private() || dirty.isEmpty()) {
        event->accept();
        return;
    }
    const QMessageBox::StandardButton answer = ask(unsaved_files_prompt(this, dirty));
    if (answer == QMessageBox::Discard) {
        event->accept();
        return;
    }
    event->ignore();
    if (answer == QMessageBox::Save) save_all_then_close();
}

void MainWindow::save_all_then_close() {
    editors_->save_all([this](bool saved) {
        if (!saved) return; // what went wrong is in the status bar; the window stays
        closing_ = true;
        close();
    });
}

} // namespace rio::gui
