// rio's window: the project tree on the left, the centre (editor tabs, or another centre
// view) in the middle, the chat and any other side panels on the right, a status bar
// below. It renders what the core says and sends what the person does; it never
// touches project files itself.
#pragma once

#include "client/events.hpp"
#include "gui/theme.hpp"
#include "protocol/messages.hpp"
#include "protocol/wire.hpp"

#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <memory>

class QDockWidget;
class QMenu;
class QLabel;

namespace rio::gui {

class CentreArea;
class ChatDock;
class ChangesPanel;
class CodeNavigation;
class GitMargin;
class TerminalPanel;
class ConflictBar;
class CoreClient;
class EditorArea;
class FileCommands;
class FileTree;
class FindTarget;
class ManualView;
class PlanView;
class PlansPanel;
class PositionLabel;
class ProblemsPanel;
class QuickOpen;
class SearchPanel;
class SettingsDialog;
class TrustBar;
class WelcomePage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // The window follows `core` from its `connected()` on; start the core after this.
    explicit MainWindow(CoreClient& core, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Asks the core to open a folder as the project (asking first to drop unsaved edits).
    void open_project(const QString& path);
    void open_file(const QString& path); // project-relative
    // The file at `line` (from 1; 0 leaves the cursor where it is).
    void open_file_at(const QString& path, int line);
    // A panel on the right-hand side, beside the chat: docked, tabbed with the others.
    void add_side_panel(QDockWidget* panel);
    // A plan view's links to the project's files open them here, as long as both live.
    void join_plan_view(PlanView* view);
    // Runs a step's check again (plans.check) and says how it ended in the status bar.
    void check_step(quint64 step);

    CoreClient& core() { return core_; }
    FileTree* file_tree() const { return tree_; }
    EditorArea* editors() const { return editors_; }
    CentreArea* centre() const { return centre_; }
    // F1: rio's manual in the centre, made the first time it is asked for.
    void show_manual();
    ManualView* manual() const { return manual_; }
    ChatDock* chat() const { return chat_; }
    PlansPanel* plans() const { return plans_; } // the Plans panel, tabbed with Files
    TrustBar* trust_bar() const { return trust_bar_; }
    ConflictBar* conflict_bar() const { return conflict_bar_; } // a file changed under edits
    QuickOpen* quick_open() const { return quick_open_; }       // Ctrl+P
    SearchPanel* search() const { return search_; }             // Ctrl+Shift+F, tabbed with Files
    ProblemsPanel* problems() const { return problems_; }       // tabbed with Files
    ChangesPanel* changes() const { return changes_; }          // tabbed with Files
    GitMargin* git_margin() const { return git_margin_; }
    TerminalPanel* terminals() const { return terminals_; }    // below the editor, Ctrl+`
    CodeNavigation* navigation() const { return navigation_; } // F12, Alt+Left, Shift+F12
    // Settings ▸ MCP Servers… and Settings ▸ Providers… (on `provider`, by default the one in
    // use): the dialog is made the first time it is asked for.
    void show_mcp_servers();
    void show_lsp_servers();
    void show_providers(const QString& provider = {});
    SettingsDialog* settings() const { return settings_; }
    QString project_root() const { return root_; }
    QString project_name() const { return name_; }
    // Connected, the project's root listed, and no request of ours waiting: what a
    // screenshot or a test waits for.
    bool settled() const;

    // File ▸ Open Recent: the folders opened last, most recent first. The app hands in what
    // it remembered and keeps what recent_projects_changed says.
    void set_recent_projects(const QStringList& roots);
    QStringList recent_projects() const { return recent_projects_; }
    // The files each project had open (issue 46): a folder opened again gets its tabs back.
    // The app hands in what it remembered and asks again when it quits.
    void set_open_files(const QHash<QString, QStringList>& files) { open_files_ = files; }
    QHash<QString, QStringList> open_files() const;
    QAction* compact_ = nullptr; // File ▸ Compact Conversation
    QMenu* recent_projects_menu() const { return recent_projects_menu_; }
    // File ▸ Open Remote Folder…: the ssh:// addresses opened lately, most recent first.
    void set_recent_remotes(const QStringList& addresses) { recent_remotes_ = addresses; }
    QStringList recent_remotes() const { return recent_remotes_; }
    // Asks for an ssh:// folder (recent ones offered); remote_folder_requested says which.
    void choose_remote_folder();
    // View ▸ Theme.
    void set_theme(Theme theme);
    Theme theme() const { return theme_; }
    FileCommands* file_commands() const { return file_commands_; }
    // In the editor area while no file is open.
    WelcomePage* welcome() const { return welcome_; }
    QDockWidget* side_bar() const { return files_dock_; } // Files, Plans, Search, Problems

signals:
    void project_shown(const QString& root); // a project is open and shown
    void recent_projects_changed(const QStringList& roots);
    // A folder on another machine, for a window of its own (the app starts it).
    void remote_folder_requested(const QString& address);
    void theme_changed(rio::gui::Theme theme);

protected:
    void closeEvent(QCloseEvent* event) override;
    // The side bar keeps the width the person gave it: a window shrunk and enlarged again
    // gives it back.
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override; // the welcome page's size

private:
    void build_menus();
    void choose_folder(); // File ▸ Open Folder…
    void show_welcome();  // while no file is open
    void show_recent_on_welcome();
    void build_file_menu();
    void build_edit_menu();
    void add_clipboard_actions(QMenu& edit);
    void build_view_menu();
    void list_recent_projects();
    QString current_folder() const; // of the current tab's file, project-relative
    // What Ctrl+F searches: the current editor, or the plan or manual in the centre.
    std::unique_ptr<FindTarget> find_target() const;
    void open_find(bool replace);
    void open_go_to_line();
    void open_quick_open();
    void open_search(); // with the editor's selection, when it is one line
    void list_recent_conversations();
    void on_connected();
    void on_event(const client::CoreEvent& event);
    void on_disconnected(const QString& why);
    void reconnect();
    void send_project_open(const QString& path, bool discard);
    // Before a folder replaces this one: true when nothing runs, or the person agreed to stop it.
    bool may_leave_running_turn(const QString& path);
    void show_project(const ProjectInfo& info); // root absent when none is open
    void update_title();
    void follow_current_editor();
    void draw_problems(const QString& path); // into its editor, if it is open
    void save_all_then_close();
    SettingsDialog& settings_dialog();

    CoreClient& core_;
    WelcomePage* welcome_ = nullptr;
    QDockWidget* files_dock_ = nullptr;
    int side_width_ = 240;   // what the person gave the side bar (or the default)
    QSize laid_out_;         // the window's size its last resize laid the docks out for
    bool restoring_ = false; // the side bar is being given its width back
    FileTree* tree_;
    EditorArea* editors_;
    CentreArea* centre_;
    TrustBar* trust_bar_;
    ConflictBar* conflict_bar_;
    QuickOpen* quick_open_;
    ChatDock* chat_ = nullptr; // made last: it joins the centre and the core's signals
    PlansPanel* plans_ = nullptr;
    SearchPanel* search_ = nullptr;
    ProblemsPanel* problems_ = nullptr;
    ChangesPanel* changes_ = nullptr;
    GitMargin* git_margin_ = nullptr;
    TerminalPanel* terminals_ = nullptr;
    CodeNavigation* navigation_ = nullptr;
    QLabel* format_label_;
    PositionLabel* position_label_;
    QMetaObject::Connection cursor_connection_;
    QString root_;
    QString name_;
    bool lost_ = false;
    bool was_connected_ = false; // a core answered once: a loss is a lost connection
    ManualView* manual_ = nullptr;
    SettingsDialog* settings_ = nullptr;
    QMenu* recent_ = nullptr; // File ▸ Recent Conversations
    QMenu* recent_projects_menu_ = nullptr;
    QStringList recent_projects_;
    QHash<QString, QStringList> open_files_; // by project root; the current one's as it was left
    QStringList recent_remotes_;
    QList<QPointer<PlanView>> plan_views_; // joined (null once destroyed)
    FileCommands* file_commands_ = nullptr;
    Theme theme_ = Theme::system;
    QString system_style_;          // the style Qt chose at start, for Theme::system
    QList<QAction*> theme_actions_; // View ▸ Theme, in Theme's order
    bool closing_ = false;          // unsaved work was dealt with; let the close through
};

} // namespace rio::gui
