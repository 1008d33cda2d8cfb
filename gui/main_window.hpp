// rio's window: the project tree on the left, the centre (editor tabs, or another centre
// view) in the middle, the chat and any other side panels on the right, a status bar
// below. It renders what the core says and sends what the person does; it never
// touches project files itself.
#pragma once

#include "client/events.hpp"
#include "protocol/wire.hpp"

#include <QMainWindow>
#include <memory>

class QDockWidget;
class QMenu;
class QLabel;

namespace rio::gui {

class CentreArea;
class ChatDock;
class CoreClient;
class EditorArea;
class FileTree;
class FindTarget;
class ManualView;
class PlansPanel;
class SettingsDialog;
class TrustBar;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // The window follows `core` from its `connected()` on; start the core after this.
    explicit MainWindow(CoreClient& core, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Asks the core to open a folder as the project (asking first to drop unsaved edits).
    void open_project(const QString& path);
    void open_file(const QString& path); // project-relative
    // A panel on the right-hand side, beside the chat: docked, tabbed with the others.
    void add_side_panel(QDockWidget* panel);

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
    // Settings ▸ MCP Servers… and Settings ▸ Providers… (on `provider`, by default the one in
    // use): the dialog is made the first time it is asked for.
    void show_mcp_servers();
    void show_providers(const QString& provider = {});
    SettingsDialog* settings() const { return settings_; }
    QString project_root() const { return root_; }
    QString project_name() const { return name_; }
    // Connected, the project's root listed, and no request of ours waiting: what a
    // screenshot or a test waits for.
    bool settled() const;

signals:
    void project_shown(const QString& root); // a project is open and shown

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void build_menus();
    void build_edit_menu();
    // What Ctrl+F searches: the current editor, or the plan or manual in the centre.
    std::unique_ptr<FindTarget> find_target() const;
    void open_find(bool replace);
    void open_go_to_line();
    void list_recent_conversations();
    void on_connected();
    void on_event(const client::CoreEvent& event);
    void on_disconnected(const QString& why);
    void send_project_open(const QString& path, bool discard);
    void show_project(const Json& info); // {root, name}; root null when none is open
    void update_title();
    void follow_current_editor();
    void save_all_then_close();
    SettingsDialog& settings_dialog();

    CoreClient& core_;
    FileTree* tree_;
    EditorArea* editors_;
    CentreArea* centre_;
    TrustBar* trust_bar_;
    ChatDock* chat_ = nullptr; // made last: it joins the centre and the core's signals
    PlansPanel* plans_ = nullptr;
    QLabel* format_label_;
    QLabel* position_label_;
    QMetaObject::Connection cursor_connection_;
    QString root_;
    QString name_;
    bool lost_ = false;
    ManualView* manual_ = nullptr;
    SettingsDialog* settings_ = nullptr;
    QMenu* recent_ = nullptr; // File ▸ Recent Conversations
    bool closing_ = false;    // unsaved work was dealt with; let the close through
};

} // namespace rio::gui
