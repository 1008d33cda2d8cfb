// What the agent gui tests share: the script provider's steps (DESIGN §11), and one window on
// a private core whose provider plays them, with a second client on the same core that reads
// what the core really holds and acts as another frontend would.
#pragma once

#include "gui/approval_bar.hpp"
#include "gui/centre_area.hpp"
#include "gui/chat_dock.hpp"
#include "gui/chat_transcript.hpp"
#include "gui/compare_view.hpp"
#include "gui/composer.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/main_window.hpp"
#include "gui/plan_view.hpp"
#include "gui/review_flow.hpp"
#include "tests/gui/gui_support.hpp"

#include <QAbstractButton>
#include <QMenu>
#include <QTemporaryDir>
#include <vector>

namespace rio::gui::test {

// The core reads the person's prompt overrides, allow-list and provider settings from
// XDG_CONFIG_HOME and XDG_DATA_HOME: pointed into `home`, none of the developer's own leak
// into a test; no language server runs (language_servers). False when `home` could not be
// made.
bool keep_home_private(const QTemporaryDir& home);

// The script provider's steps.
Json tool(const char* name, Json input);
Json step(std::vector<Json> tools, const char* text = "");
Json text_step(const char* text);
Json plan_step(const char* title, const char* plan);
Json edit_step(const char* path, const char* old_string, const char* new_string);

// json[key] as a QString, "" when it is not a string.
QString qstr(const Json& json, const char* key);
// The pending edit's diff, "" when no edit is pending.
QString pending_diff(const std::optional<Proposal>& pending);

struct Agent {
    Agent(const TempProject& project, const Json& steps);

    // The window settled and the second client attached.
    bool start();
    bool activate();

    ChatDock& chat() const { return *window.chat(); }
    ReviewFlow& review() const { return *chat().review(); }
    ApprovalBar& bar() const { return *review().bar(); }
    Composer& composer() const { return *chat().composer(); }
    ChatTranscript& transcript() const { return *chat().transcript(); }
    PlanView* plan_view() const { return review().plan_view(); }
    CompareView* compare_view() const { return review().compare_view(); }
    QWidget* centre_view() const { return window.centre()->current_view(); }
    bool shows_editors() const { return centre_view() == window.editors(); }

    // As a person does it: the text in the composer, then Enter.
    void send(const QString& text);
    bool plan_shown();
    // Where most plan tests begin: the window started, plan mode with auto-accept as given,
    // `text` sent, and the presented plan shown.
    bool up_to_plan_shown(bool auto_accept, const QString& text = QStringLiteral("plan it"));
    // The bar shows a proposal and every request of the window has been answered (an edit's
    // texts and diff are fetched as it arrives).
    bool proposal_shown(const QString& heading);
    bool dismissed();

    // What the core holds, read by the second client.
    Json ask(const char* op, Json params = Json::object());
    Json status() { return ask("agent.status"); }
    // Every provider call so far: {call, tools, system, conversation}.
    std::vector<Json> provider_calls() const;
    // Sets the core's mode and auto-accept from the second client and waits for the chat's
    // mode control to show it.
    bool set_mode(const char* mode, bool auto_accept);

    const TempProject& project_;
    CoreClient core;
    MainWindow window;
    CoreClient other;
};

// Another window, attached to the same core later: it knows the conversation only from
// the core's history.
struct LateWindow {
    LateWindow() : window(core) {}
    // Attached, shown, and settled with nothing left to ask.
    bool attach(const TempProject& project);

    CoreClient core;
    MainWindow window;
};

void click(QAbstractButton* button);
// Clicks one entry of a popup menu, once it is open.
void click_menu(QMenu* menu, QAction* action);

} // namespace rio::gui::test
