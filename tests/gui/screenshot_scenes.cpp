// `make screenshots`: the pictures in docs/screenshots/, rendered on the offscreen platform
// from a copy of examples/demo with the script provider playing the model, so they show
// what rio really draws and can be made again after any change to it.
//
//   rio_screenshots OUTDIR
//
// main-window.png  a file open, the chat after a short exchange
// manual.png       the manual (F1)
// plan-view.png    the demo's plan in the centre, its approval bar in the chat
// compare-view.png the demo's first edit, side by side
// plan-comments.png   the demo's plan with two comments beside it, its decision at head and foot
// plan-revision.png   the plan revised after those comments, its changes marked
// plans-panel.png     the Plans panel: the revision over the plan it revises, that one open
// editor-find.png     find and replace (Ctrl+H) in greet.py, the second of its matches selected
// dark-theme.png      the dark theme: greet.py open, the demo's plan waiting in the chat
// edit-card.png       the demo's edits applied in Auto as cards, the first unfolded, the turn's
//                     summary with its tokens and Undo this turn
// quick-open.png      Go to File (Ctrl+P) over the demo and a few more files, "gret" typed
// providers.png       Settings ▸ Providers on a local OpenAI-compatible server (the fake LLM
//                     server): a key stored, the server's models listed, Test answered
// welcome.png         the demo open and no file yet: the welcome page in the editor area
// command-card.png    a failing test run approved, its card unfolded to what it printed
//
// RIO_SCREENSHOT_SIZE=WIDTHxHEIGHT draws the windows at another size than 1440x900 (to look
// at the layout at 1200x780 or 1600x1000).
#include "gui/approval_bar.hpp"
#include "gui/centre_area.hpp"
#include "gui/change_cards.hpp"
#include "gui/changes_panel.hpp"
#include "gui/chat_dock.hpp"
#include "gui/chat_transcript.hpp"
#include "gui/code_editor.hpp"
#include "gui/command_card.hpp"
#include "gui/compare_view.hpp"
#include "gui/composer.hpp"
#include "gui/core_client.hpp"
#include "gui/edit_card.hpp"
#include "gui/editor_area.hpp"
#include "gui/find_bar.hpp"
#include "gui/git_margin.hpp"
#include "gui/main_window.hpp"
#include "gui/markdown_view.hpp"
#include "gui/plan_decisions.hpp"
#include "gui/plan_view.hpp"
#include "gui/plans_panel.hpp"
#include "gui/problems_panel.hpp"
#include "gui/providers_page.hpp"
#include "gui/quick_open.hpp"
#include "gui/review_flow.hpp"
#include "gui/screenshot.hpp"
#include "gui/settings_dialog.hpp"
#include "gui/terminal_panel.hpp"
#include "gui/terminal_view.hpp"
#include "gui/theme.hpp"
#include "tests/gui/gui_support.hpp"
#include "tests/support/fake_llm.hpp"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QScrollBar>
#include <QStatusBar>
#include <QTest>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>
#include <QTreeWidget>
#include <cstdio>
#include <memory>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

constexpr int wait_ms = 15000;

const QString demo_dir = QStringLiteral(RIO_SOURCE_DIR "/examples/demo");
const QString demo_script = QStringLiteral(RIO_SOURCE_DIR "/examples/demo.script.json");

// The model's side of the main window's exchange.
const char* const question_script = R"({"steps": [
  {"text": "I'll read it first.", "tools": [{"name": "read_file", "input": {"path": "greet.py"}}]},
  {"text": "`greet.py` prints a greeting for the name given on the command line:\n\n- `greeting(name)` builds the text, `Hello, <name>!`\n- `main(argv)` takes the first argument, or `world` when there is none\n\n`test_greet.py` checks `greeting` with **unittest**."}
]})";

bool fail(const QString& what) {
    std::fprintf(stderr, "rio_screenshots: %s\n", qPrintable(what));
    return false;
}

// A script for the script provider: its model steps.
bool write_script(const QString& path, const Json& steps) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(QByteArray::fromStdString(Json{{"steps", steps}}.dump(2))) < 0)
        return fail("cannot write " + path);
    return true;
}

bool copy_demo(const TempProject& project) {
    const QDir demo(demo_dir);
    const QStringList names = demo.entryList(QDir::Files);
    if (names.isEmpty()) return fail("no files in " + demo_dir);
    for (const QString& name : names) {
        QFile file(demo.filePath(name));
        if (!file.open(QIODevice::ReadOnly)) return fail("cannot read " + file.fileName());
        project.write(name, file.readAll());
    }
    return true;
}

// The size the docs show, unless RIO_SCREENSHOT_SIZE asks for another.
QSize size() {
    const QStringList wh = qEnvironmentVariable("RIO_SCREENSHOT_SIZE").split(QLatin1Char('x'));
    if (wh.size() == 2 && wh[0].toInt() > 0 && wh[1].toInt() > 0)
        return {wh[0].toInt(), wh[1].toInt()};
    return {1440, 900};
}

// A window on a private core whose model plays `script`, at the size the docs show.
struct Scene {
    Scene(const TempProject& project, const QString& script) : window(core) {
        CoreOptions options = private_core(project);
        options.provider = QStringLiteral("script:") + script;
        core.start(options);
        // The demo is a project the person works in, trusted: no trust bar in the pictures,
        // and pylsp runs (decision 0071).
        trust_project(core);
        window.resize(size());
        window.show();
    }

    bool wait(const std::function<bool()>& done, const char* what) {
        return spin_until(done, wait_ms) || fail(QStringLiteral("timed out waiting for ") + what);
    }
    // Saves the window once it has settled, without the passing status message (it names
    // the temporary folder the demo was copied to).
    bool save(const QString& file) {
        window.statusBar()->clearMessage();
        auto result = std::make_shared<std::optional<QString>>();
        screenshot_when_settled(window, file, wait_ms, [result](bool ok, const QString& why) {
            *result = ok ? QString() : why;
        });
        if (!spin_until([&] { return result->has_value(); }, 2 * wait_ms))
            return fail("no picture for " + file);
        if (!(*result)->isEmpty()) return fail(file + ": " + **result);
        std::printf("wrote %s\n", qPrintable(file));
        return true;
    }
    bool request(const char* op, Json params) {
        Reply reply = call(core, QString::fromLatin1(op), std::move(params));
        return !reply.error ||
               fail(QString::fromLatin1(op) + ": " + QString::fromStdString(reply.error->message));
    }

    ChatDock& chat() const { return *window.chat(); }
    ReviewFlow& review() const { return *chat().review(); }

    CoreClient core;
    MainWindow window;
};

bool main_window_and_manual(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    const QString script = project.beside(QStringLiteral("question.json"));
    {
        QFile file(script);
        if (!file.open(QIODevice::WriteOnly) || file.write(question_script) < 0)
            return fail("cannot write " + script);
    }
    Scene s(project, script);
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    s.window.open_file(QStringLiteral("greet.py"));
    if (!s.wait([&] { return s.window.editors()->editor(QStringLiteral("greet.py")) != nullptr; },
                "greet.py"))
        return false;
    s.chat().send_message(QStringLiteral("What does greet.py do?"));
    const auto answered = [&] {
        return !s.chat().composer()->busy() &&
               !s.chat().transcript()->texts_of(ChatTranscript::Entry::message).isEmpty();
    };
    if (!s.wait(answered, "the answer")) return false;
    if (!s.save(out.filePath(QStringLiteral("main-window.png")))) return false;

    s.window.show_manual();
    if (!s.wait([&] { return s.window.centre()->current_view() != s.window.editors(); },
                "the manual"))
        return false;
    return s.save(out.filePath(QStringLiteral("manual.png")));
}

bool plan_and_compare(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    Scene s(project, demo_script);
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    if (!s.request("agent.mode.set", Json{{"mode", "plan"}})) return false;
    s.chat().send_message(QStringLiteral("Add a --shout flag to greet.py"));
    const auto plan_shown = [&] {
        return s.window.centre()->current_view() == s.review().plan_view() &&
               s.review().bar()->showing();
    };
    if (!s.wait(plan_shown, "the plan")) return false;
    if (!s.save(out.filePath(QStringLiteral("plan-view.png")))) return false;

    s.review().approve(QStringLiteral("review"));
    const auto edit_shown = [&] {
        return s.review().bar()->showing() &&
               s.review().bar()->heading()->text() == QStringLiteral("Edit greet.py");
    };
    if (!s.wait(edit_shown, "the first edit")) return false;
    s.review().compare();
    if (!s.wait([&] { return s.window.centre()->current_view() == s.review().compare_view(); },
                "the compare view"))
        return false;
    return s.save(out.filePath(QStringLiteral("compare-view.png")));
}

// The demo's plan, and the revision that answers the comments plan_review makes on it.
struct DemoPlans {
    std::string title, first, revised;
};

// The demo script's steps, or an empty array (having said why).
Json demo_steps() {
    QFile file(demo_script);
    if (!file.open(QIODevice::ReadOnly)) {
        fail("cannot read " + demo_script);
        return Json::array();
    }
    const Json script = Json::parse(file.readAll().toStdString(), nullptr, false);
    if (script.is_object() && script.contains("steps") && script["steps"].is_array())
        return script["steps"];
    fail("no steps in " + demo_script);
    return Json::array();
}

std::optional<DemoPlans> demo_plans() {
    std::optional<Json> input;
    for (const Json& step : demo_steps())
        if (step.contains("tools"))
            for (const Json& tool : step["tools"])
                if (tool.value("name", "") == "present_plan") input = tool.value("input", Json());
    if (!input || !input->is_object()) {
        fail("no present_plan in " + demo_script);
        return std::nullopt;
    }
    DemoPlans plans{input->value("title", ""), input->value("plan", ""), {}};
    std::string revised = plans.first;
    const auto swap = [&](const std::string& from, const std::string& to) {
        const std::size_t at = revised.find(from);
        if (at != std::string::npos) revised.replace(at, from.size(), to);
        return at != std::string::npos;
    };
    const bool fits =
        swap("| a test for the shouted greeting |",
             "| tests for the shouted greeting and for `main` with `--shout` |") &&
        swap("both tests pass.\n", "all three tests pass.\n- Run `python3 greet.py --shout Ada`: "
                                   "it prints `HELLO, ADA!`.\n") &&
        swap("- No change to the default name.\n", "");
    if (!fits) {
        fail("the demo's plan is not the one plan_review revises");
        return std::nullopt;
    }
    plans.revised = revised;
    return plans;
}

// Selects `passage` in the plan view and comments on it, as a person does.
bool comment_on(PlanView& view, const QString& passage, const QString& text) {
    const QTextCursor found = view.body()->document()->find(passage);
    if (found.isNull()) return fail("no \"" + passage + "\" in the plan");
    view.body()->setTextCursor(found);
    if (!view.start_comment()) return fail("cannot comment on \"" + passage + "\"");
    QTest::keyClicks(view.comment_field(), text);
    QTest::keyClick(view.comment_field(), Qt::Key_Return);
    return true;
}

bool plan_review(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    const std::optional<DemoPlans> plans = demo_plans();
    if (!plans) return false;
    const auto present = [](const char* text, const std::string& title, const std::string& plan) {
        return Json{{"text", text},
                    {"tools", Json::array({{{"name", "present_plan"},
                                            {"input", {{"title", title}, {"plan", plan}}}}})}};
    };
    // The revision answers the first comment (issue 44) and leaves the second open.
    Json revision = present("Revised: `main` is tested too, and the flag is tried by hand.",
                            plans->title, plans->revised);
    revision["tools"][0]["input"]["addresses"] =
        Json::array({{{"id", "c1"}, {"reply", "test_main_shouts now runs main() with --shout."}}});
    const Json steps =
        Json::array({present("I have what I need for a plan.", plans->title, plans->first),
                     revision,
                     {{"text", "Done."}}});
    const QString script = project.beside(QStringLiteral("review.json"));
    if (!write_script(script, steps)) return false;
    Scene s(project, script);
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    if (!s.request("agent.mode.set", Json{{"mode", "plan"}})) return false;
    s.chat().send_message(QStringLiteral("Add a --shout flag to greet.py"));
    PlanView& view = *s.review().plan_view();
    if (!s.wait([&] { return s.window.centre()->current_view() == &view; }, "the plan"))
        return false;
    if (!comment_on(view, QStringLiteral("a test for the shouted greeting"),
                    QStringLiteral("Test main() with --shout as well, not only greeting().")) ||
        !comment_on(view, QStringLiteral("both tests pass"),
                    QStringLiteral("And run greet.py --shout once by hand.")))
        return false;
    view.comment_list()->clearSelection();
    QTextCursor unselected = view.body()->textCursor();
    unselected.clearSelection();
    view.body()->setTextCursor(unselected);
    if (!s.save(out.filePath(QStringLiteral("plan-comments.png")))) return false;

    // Request changes: the comments go with it, and the model revises the plan.
    s.review().reject(QString());
    if (!s.wait([&] { return view.changes_button()->isVisible() && view.decidable(); },
                "the revision"))
        return false;
    if (!s.wait([&] { return view.thread_list()->count() == 2; }, "the review threads"))
        return false;
    view.thread_list()->setCurrentRow(1);
    if (!s.save(out.filePath(QStringLiteral("plan-threads.png")))) return false;
    view.changes_button()->setChecked(true);
    if (!s.save(out.filePath(QStringLiteral("plan-revision.png")))) return false;

    // The Plans panel: the revision heads its chain; the plan it revises, opened, shows the
    // review it got.
    PlansPanel& panel = *s.window.plans();
    panel.raise();
    s.window.resizeDocks({&panel}, {400}, Qt::Horizontal); // the titles whole
    QTreeWidget& list = *panel.list();
    const auto listed = [&] {
        return list.topLevelItemCount() == 1 && list.topLevelItem(0)->childCount() == 1;
    };
    if (!s.wait(listed, "the Plans panel")) return false;
    list.expandAll();
    bool opened = false;
    QObject::connect(&panel, &PlansPanel::opened, [&] { opened = true; });
    QTreeWidgetItem* earlier = list.topLevelItem(0)->child(0);
    list.setCurrentItem(earlier);
    emit list.itemActivated(earlier, 0);
    if (!s.wait([&] { return opened; }, "the plan opened from the panel")) return false;
    panel.view()->body()->finish_painting();
    if (!panel.view()->body()->scroll_to_anchor(QStringLiteral("review")))
        return fail("no Review in the plan opened from the panel");
    return s.save(out.filePath(QStringLiteral("plans-panel.png")));
}

// The window settled with greet.py open in the editor.
bool open_greet(Scene& s) {
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    s.window.open_file(QStringLiteral("greet.py"));
    return s.wait([&] { return s.window.editors()->editor(QStringLiteral("greet.py")) != nullptr; },
                  "greet.py");
}

// Triggers the menu entry called `text`, as a person would pick it.
bool pick_from_menu(MainWindow& window, const QString& text) {
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu())
            for (QAction* action : menu->menu()->actions())
                if (action->text() == text) {
                    action->trigger();
                    return true;
                }
    return fail("no menu entry " + text);
}

bool editor_find(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    Scene s(project, demo_script);
    if (!open_greet(s) || !pick_from_menu(s.window, QStringLiteral("&Replace…"))) return false;
    FindBar* bar = s.window.centre()->find_bar();
    if (bar->isHidden()) return fail("the find bar did not open");
    QTest::keyClicks(bar->find_field(), QStringLiteral("name"));
    bar->replace_field()->setText(QStringLiteral("who"));
    bar->find_next();
    return s.save(out.filePath(QStringLiteral("editor-find.png")));
}

bool dark_theme(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    Scene s(project, demo_script);
    s.window.set_theme(Theme::dark);
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    if (!s.request("agent.mode.set", Json{{"mode", "plan"}})) return false;
    s.chat().send_message(QStringLiteral("Add a --shout flag to greet.py"));
    if (!s.wait([&] { return s.review().bar()->showing(); }, "the plan")) return false;
    // The plan waits in the chat; the file is what the centre shows.
    s.window.open_file(QStringLiteral("greet.py"));
    if (!s.wait([&] { return s.window.editors()->editor(QStringLiteral("greet.py")) != nullptr; },
                "greet.py"))
        return false;
    s.window.centre()->show_editors();
    s.window.editors()->editor(QStringLiteral("greet.py"))->setCursorPosition(4, 0);
    const bool saved = s.save(out.filePath(QStringLiteral("dark-theme.png")));
    s.window.set_theme(Theme::system); // the scenes after this one are light
    return saved;
}

// The demo's step of edits, carried out in Auto: a card per edit, the first unfolded.
bool edit_card(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    Json edits;
    for (const Json& step : demo_steps())
        if (step.contains("tools") && step["tools"].at(0).value("name", "") == "edit_file")
            edits = step["tools"];
    if (!edits.is_array()) return fail("no step of edits in " + demo_script);
    const Json steps = Json::array(
        {{{"text", "I'll add the flag and its test."},
          {"tools", edits},
          {"usage",
           {{"input_tokens", 1840}, {"output_tokens", 262}, {"cache_read_input_tokens", 1536}}}},
         {{"text", "Done: `greet.py --shout` upper-cases the greeting, with a test for it."},
          {"usage",
           {{"input_tokens", 2210}, {"output_tokens", 31}, {"cache_read_input_tokens", 1792}}}}});
    const QString script = project.beside(QStringLiteral("edits.json"));
    if (!write_script(script, steps)) return false;
    Scene s(project, script);
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    if (!s.request("agent.autoaccept.set", Json{{"on", true}}) ||
        !s.request("agent.mode.set", Json{{"mode", "build"}}))
        return false;
    s.window.open_file(QStringLiteral("greet.py"));
    if (!s.wait([&] { return s.window.editors()->editor(QStringLiteral("greet.py")) != nullptr; },
                "greet.py"))
        return false;
    s.chat().send_message(QStringLiteral("Add a --shout flag to greet.py, with a test"));
    const auto applied = [&] {
        return s.chat().changes()->cards().size() == 3 && !s.chat().composer()->busy() &&
               !s.chat().transcript()->texts_of(ChatTranscript::Entry::summary).isEmpty();
    };
    if (!s.wait(applied, "the edit cards")) return false;
    s.chat().changes()->cards().front()->set_expanded(true);
    return s.save(out.filePath(QStringLiteral("edit-card.png")));
}

// DESIGN §20: the demo's plan approved and under way — its first step done, the second in
// progress, the first edit waiting for review; the plan view beside the work with its
// checkboxes, and the chat's "1/N ▸ step" line.
bool plan_progress(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    Json steps = Json::array();
    for (const Json& step : demo_steps()) {
        if (step.contains("tools") && step["tools"].at(0).value("name", "") == "edit_file")
            steps.push_back(
                {{"text", "Step 1 is understood; on to the code."},
                 {"tools", Json::array({{{"name", "plan_progress"},
                                         {"input", {{"step", 1}, {"status", "done"}}}},
                                        {{"name", "plan_progress"},
                                         {"input", {{"step", 2}, {"status", "in_progress"}}}}})}});
        steps.push_back(step);
    }
    const QString script = project.beside(QStringLiteral("progress.json"));
    if (!write_script(script, steps)) return false;
    Scene s(project, script);
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    if (!s.request("agent.mode.set", Json{{"mode", "plan"}})) return false;
    s.chat().send_message(QStringLiteral("Add a --shout flag to greet.py"));
    if (!s.wait([&] { return s.review().bar()->showing(); }, "the plan")) return false;
    s.review().approve(QStringLiteral("review"));
    const auto edit_waits = [&] {
        return s.review().bar()->showing() &&
               s.review().bar()->heading()->text() == QStringLiteral("Edit greet.py") &&
               s.chat().plan_line()->isVisible();
    };
    if (!s.wait(edit_waits, "the first edit, under way")) return false;
    // Review mode shows the edit in the compare view first; the plan comes back beside it.
    if (!s.wait([&] { return s.window.centre()->current_view() == s.review().compare_view(); },
                "the compare view"))
        return false;
    s.chat().plan_line()->click();
    PlanView* view = s.window.plans()->view();
    const auto ticked = [&] {
        return s.window.centre()->current_view() == view && view->step_list()->count() > 1 &&
               view->step_list()->item(0)->checkState() == Qt::Checked;
    };
    if (!s.wait(ticked, "the plan's steps")) return false;
    return s.save(out.filePath(QStringLiteral("plan-progress.png")));
}

// Issue 43: a plan whose steps declared checks, carried out — one step verified by its check,
// one whose check failed, one done without a check — and the plan view's checklist saying so.
bool plan_checks(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    auto progress = [](int step) {
        return Json{{"tools", Json::array({{{"name", "plan_progress"},
                                            {"input", {{"step", step}, {"status", "done"}}}}})}};
    };
    Json declared =
        Json::array({{{"text", "Add --shout to greet.py"},
                      {"files", {"greet.py"}},
                      {"check", {{"argv", {"python3", "greet.py", "--shout", "rio"}}}}},
                     {{"text", "Test the flag"},
                      {"files", {"test_greet.py"}},
                      {"check", {{"argv", {"sh", "-c", "echo '1 failed: test_shout'; exit 1"}}}}},
                     {{"text", "Mention it in the README"}, {"files", {"README.md"}}}});
    Json steps = Json::array(
        {{{"tools", Json::array({{{"name", "present_plan"},
                                  {"input",
                                   {{"title", "Add a --shout flag"},
                                    {"plan", "Add `--shout` to greet.py, test it, say so in the "
                                             "README.\n\n## Not doing\n\n- colours\n"},
                                    {"steps", declared}}}}})}},
         progress(1),
         progress(2),
         progress(3),
         {{"text", "Step 2's test still fails; the rest is done."}}});
    const QString script = project.beside(QStringLiteral("checks.json"));
    if (!write_script(script, steps)) return false;
    Scene s(project, script);
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    if (!s.request("agent.mode.set", Json{{"mode", "plan"}})) return false;
    s.chat().send_message(QStringLiteral("Add a --shout flag to greet.py"));
    if (!s.wait([&] { return s.review().bar()->showing(); }, "the plan")) return false;
    // Before the decision: the declared steps, with their files and checks, under the plan.
    MarkdownView* pending = s.review().plan_view()->body();
    pending->finish_painting();
    pending->verticalScrollBar()->setValue(pending->verticalScrollBar()->maximum());
    if (!s.save(out.filePath(QStringLiteral("plan-steps.png")))) return false;
    s.review().approve(QStringLiteral("auto"));
    if (!s.wait([&] { return s.chat().plan_line()->isVisible() && !s.chat().composer()->busy(); },
                "the turn's end"))
        return false;
    s.chat().plan_line()->click();
    PlanView* view = s.window.plans()->view();
    const auto checked = [&] {
        return s.window.centre()->current_view() == view && view->step_list()->count() == 3 &&
               view->step_list()->item(2)->text().contains(QStringLiteral("unverified")) &&
               view->body()->toPlainText().contains(QStringLiteral("Receipt"));
    };
    if (!s.wait(checked, "the checked steps and the receipt")) return false;
    return s.save(out.filePath(QStringLiteral("plan-checks.png")));
}

// No file open yet: what rio is and how to begin.
bool welcome(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    const QString script = project.beside(QStringLiteral("none.json"));
    if (!write_script(script, Json::array())) return false;
    Scene s(project, script);
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    return s.save(out.filePath(QStringLiteral("welcome.png")));
}

// A test run that fails, approved, its card unfolded to what it printed.
bool command_card(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    const char* program =
        "import sys\n"
        "print('..F.')\n"
        "print('=' * 60, file=sys.stderr)\n"
        "print('FAIL: test_shout (test_greet.GreetTest.test_shout)', file=sys.stderr)\n"
        "print('-' * 60, file=sys.stderr)\n"
        "print('Traceback (most recent call last):', file=sys.stderr)\n"
        "print('  File \"test_greet.py\", line 14, in test_shout', file=sys.stderr)\n"
        "print(\"    self.assertEqual(greeting('Ada', shout=True), 'HELLO, ADA!')\", "
        "file=sys.stderr)\n"
        "print(\"AssertionError: 'Hello, Ada!' != 'HELLO, ADA!'\", file=sys.stderr)\n"
        "print('', file=sys.stderr)\n"
        "print('Ran 4 tests in 0.002s', file=sys.stderr)\n"
        "print('', file=sys.stderr)\n"
        "print('FAILED (failures=1)', file=sys.stderr)\n"
        "sys.exit(1)\n";
    const Json steps = Json::array(
        {{{"text", "Let me run the tests."},
          {"tools", Json::array({{{"name", "run_command"},
                                  {"input", {{"argv", {"python3", "-c", program}}}}}})}},
         {{"text", "`test_shout` fails: `greeting` ignores `shout`. I'll fix that next."}}});
    const QString script = project.beside(QStringLiteral("tests.json"));
    if (!write_script(script, steps)) return false;
    Scene s(project, script);
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    if (!s.request("agent.mode.set", Json{{"mode", "build"}})) return false;
    s.chat().send_message(QStringLiteral("Run the tests"));
    if (!s.wait([&] { return s.review().bar()->showing(); }, "the command")) return false;
    s.review().approve(QString());
    const auto ran = [&] {
        return !s.chat().transcript()->findChildren<CommandCard*>().isEmpty() &&
               !s.chat().composer()->busy();
    };
    if (!s.wait(ran, "the command's card")) return false;
    s.chat().transcript()->findChildren<CommandCard*>().front()->set_expanded(true);
    return s.save(out.filePath(QStringLiteral("command-card.png")));
}

bool quick_open(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    // A project that has grown a little, so that there is something to choose between.
    for (const char* file : {"greeter/__init__.py", "greeter/format.py", "greeter/cli.py",
                             "tests/test_greeter_cli.py", "docs/greetings.md", "setup.cfg"})
        project.write(QString::fromLatin1(file), "\n");
    project.write(QStringLiteral(".gitignore"), "build/\n");
    project.write(QStringLiteral("build/greet_report.txt"), "\n");
    Scene s(project, demo_script);
    if (!open_greet(s) || !pick_from_menu(s.window, QStringLiteral("Go to F&ile…"))) return false;
    QuickOpen* box = s.window.quick_open();
    if (box->isHidden()) return fail("quick open did not open");
    if (!s.wait([&] { return !box->listing() && box->file_count() > 0; }, "the file list"))
        return false;
    QTest::keyClicks(box->field(), QStringLiteral("gret"));
    return s.save(out.filePath(QStringLiteral("quick-open.png")));
}

// pylsp's errors in greet.py: squiggles and dots in the editor, the Problems panel in front.
bool problems(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    QFile demo(demo_dir + QStringLiteral("/greet.py"));
    if (!demo.open(QIODevice::ReadOnly)) return fail("cannot read greet.py");
    QByteArray text = demo.readAll();
    text.replace("print(greeting(name))", "print(greting(name, shout))");
    project.write(QStringLiteral("greet.py"), text);
    Scene s(project, demo_script);
    if (!open_greet(s)) return false;
    ProblemsPanel* panel = s.window.problems();
    if (!s.wait([&] { return panel->problems().count(Severity::error) == 2; },
                "pylsp's two errors"))
        return false;
    panel->raise();
    return s.save(out.filePath(QStringLiteral("problems.png")));
}

// The demo as a git checkout with greet.py changed: the margin's marks, the Changes panel in
// front, and the terminal panel below with `git status` run in it.
bool terminal_and_git(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    const auto git = [&](const QStringList& args) {
        QProcess run;
        run.setWorkingDirectory(project.path());
        run.start(QStringLiteral("git"),
                  QStringList{QStringLiteral("-c"), QStringLiteral("user.name=rio"),
                              QStringLiteral("-c"), QStringLiteral("user.email=rio@example.com")} +
                      args);
        return run.waitForFinished(10000) && run.exitCode() == 0;
    };
    if (!git({QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"),
              QStringLiteral("main")}) ||
        !git({QStringLiteral("add"), QStringLiteral("-A")}) ||
        !git({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"),
              QStringLiteral("Greet by name")}))
        return fail("cannot make the demo a git checkout");
    QFile demo(demo_dir + QStringLiteral("/greet.py"));
    if (!demo.open(QIODevice::ReadOnly)) return fail("cannot read greet.py");
    QByteArray text = demo.readAll();
    text.replace("import sys\n", "import sys\nimport os\n");
    text.replace("Hello", "Hi");
    project.write(QStringLiteral("greet.py"), text);
    project.write(QStringLiteral("NOTES.md"), "Shout next.\n");
    qputenv("SHELL", "/bin/sh");
    qputenv("PS1", "$ ");
    qputenv("ENV", "");
    Scene s(project, demo_script);
    if (!open_greet(s)) return false;
    ChangesPanel* changes = s.window.changes();
    if (!s.wait([&] { return changes->list()->topLevelItemCount() == 2; }, "the Changes panel"))
        return false;
    changes->raise();
    const GitMarksResult* marks = nullptr;
    if (!s.wait(
            [&] {
                return (marks = s.window.git_margin()->marks(QStringLiteral("greet.py"))) &&
                       !marks->hunks.empty();
            },
            "the margin's marks"))
        return false;
    TerminalView* terminal = s.window.terminals()->open_terminal();
    if (!s.wait([&] { return terminal->running(); }, "the terminal's shell")) return false;
    QTest::keyClicks(terminal, QStringLiteral("git status --short"));
    QTest::keyClick(terminal, Qt::Key_Return);
    if (!s.wait(
            [&] {
                for (int row = 0; row < terminal->screen().rows(); ++row)
                    if (terminal->screen().row_text(row) == "?? NOTES.md") return true;
                return false;
            },
            "git status in the terminal"))
        return false;
    s.window.editors()->current_editor()->setFocus();
    return s.save(out.filePath(QStringLiteral("terminal-and-git.png")));
}

bool providers(const QDir& out) {
    rio::test::FakeLlm server(Json::array({{{"text", "OK"}}}),
                              Json::array({"qwen2.5-coder:14b", "llama3.1:8b", "deepseek-r1:14b"}));
    TempProject project;
    if (!copy_demo(project)) return false;
    Scene s(project, demo_script);
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    const std::string base = server.url() + "/v1";
    if (!s.request("agent.options.set",
                   {{"provider", "openai"}, {"name", "base_url"}, {"value", base}}) ||
        !s.request("agent.options.set",
                   {{"provider", "openai"}, {"name", "model"}, {"value", "qwen2.5-coder:14b"}}) ||
        !s.request("agent.key.set", {{"provider", "openai"}, {"key", "sk-local-0000"}}))
        return false;
    s.window.show_providers(QStringLiteral("openai"));
    SettingsDialog* dialog = s.window.settings();
    ProvidersPage* page = dialog->providers();
    if (!s.wait(
            [&] {
                return page->shown_provider() == QStringLiteral("openai") &&
                       page->model_box()->count() == 3 &&
                       page->key_state()->text().startsWith(QStringLiteral("A key is stored"));
            },
            "the provider, its key and its models"))
        return false;
    page->test_button()->click();
    if (!s.wait([&] { return page->test_result()->text().startsWith(QStringLiteral("✓")); },
                "Test's answer"))
        return false;
    dialog->resize(720, 300);
    if (!drain_events()) return fail("the dialog did not settle");
    const QString file = out.filePath(QStringLiteral("providers.png"));
    if (!dialog->grab().save(file)) return fail("cannot write " + file);
    std::printf("wrote %s\n", qPrintable(file));
    return true;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: rio_screenshots OUTDIR\n");
        return 2;
    }
    const QDir out(QString::fromLocal8Bit(argv[1]));
    if (!QDir().mkpath(out.path())) {
        fail("cannot make " + out.path());
        return 1;
    }
    // The person's own prompts, allow-list and provider settings stay out of the pictures.
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", (home.path() + QStringLiteral("/config")).toLocal8Bit());
    qputenv("XDG_DATA_HOME", (home.path() + QStringLiteral("/data")).toLocal8Bit());
    // pylsp for the Problems scene; no other server's state can change a picture.
    if (!language_servers(home.path() + QStringLiteral("/config"), {QStringLiteral("pylsp")})) {
        fail(QStringLiteral("cannot write lsp.json"));
        return 1;
    }
    // The manual as in the source tree: this program is not beside build/share/rio.
    qputenv("RIO_SHARE_DIR", RIO_SOURCE_DIR "/share/rio");
    const bool drawn = main_window_and_manual(out) && plan_and_compare(out) && plan_review(out) &&
                       editor_find(out) && dark_theme(out) && edit_card(out) && quick_open(out) &&
                       problems(out) && providers(out) && welcome(out) && command_card(out) &&
                       plan_progress(out) && plan_checks(out) && terminal_and_git(out);
    return drawn ? 0 : 1;
}
