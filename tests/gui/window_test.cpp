// The window against a real rio-core: the tree, opening, typing, saving, edits from another
// client, and the core going away. A second CoreClient attaches to the same core over its
// socket to see what the core really holds.
#include "gui/centre_area.hpp"
#include "gui/code_editor.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/editor_style.hpp"
#include "gui/file_tree.hpp"
#include "gui/first_show.hpp"
#include "gui/main_window.hpp"
#include "gui/manual_view.hpp"
#include "gui/position_label.hpp"
#include "gui/providers_page.hpp"
#include "gui/settings_dialog.hpp"
#include "gui/trust_bar.hpp"
#include "gui/welcome_page.hpp"
#include "gui/window_size.hpp"
#include "tests/gui/gui_support.hpp"

#include <QAccessible>
#include <QApplication>
#include <QDockWidget>
#include <QFontInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabBar>
#include <QTest>
#include <QToolButton>
#include <Qsci/qscilexer.h>
#include <algorithm>
#include <csignal>
#include <memory>
#include <vector>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

// project.info's params with a result the core never sends: its reply cannot decode. (Outside
// the anonymous namespace: RIO_FIELDS defines both directions and only one is used here.)
struct MismatchedResult {
    std::string no_such_field;
};
RIO_FIELDS(MismatchedResult, no_such_field)
struct MismatchedInfoParams : Empty {
    static constexpr std::string_view op = op::project_info;
    using Result = MismatchedResult;
};

namespace {

using Session = WindowSession;

// The typed reply to one call<P>, waited for as test::call waits for a request's.
template <typename P>
std::optional<client::Typed<P>> typed_call(CoreClient& core, const P& params,
                                           const QObject* context = nullptr) {
    auto reply = std::make_shared<std::optional<client::Typed<P>>>();
    core.call(params, context, [reply](const client::Typed<P>& typed) { *reply = typed; });
    if (!spin_until([&reply] { return reply->has_value(); })) return std::nullopt;
    return *reply;
}

// Every widget asked for a new layout while it lives, by class and name.
struct LayoutRequests : QObject {
    LayoutRequests() { qApp->installEventFilter(this); }
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::LayoutRequest)
            names << QStringLiteral("%1 %2").arg(watched->metaObject()->className(),
                                                 watched->objectName());
        return false;
    }
    QStringList names;
};

// The areas a widget was painted in while this lives.
struct PaintedAreas : QObject {
    explicit PaintedAreas(QWidget& widget) { widget.installEventFilter(this); }
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Paint)
            rects.push_back(static_cast<QPaintEvent*>(event)->rect());
        return false;
    }
    std::vector<QRect> rects;
};

// What the window held when it was first shown.
struct ShowWatch : QObject {
    explicit ShowWatch(MainWindow& window) : window_(window) { window.installEventFilter(this); }
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == &window_ && event->type() == QEvent::Show && !shown) {
            shown = true;
            tree_listed = window_.file_tree()->files().is_loaded(QString()) &&
                          window_.file_tree()->files().rowCount({}) > 0;
            if (const CodeEditor* editor = window_.editors()->current_editor())
                current_file = editor->path();
        }
        return false;
    }
    MainWindow& window_;
    bool shown = false, tree_listed = false;
    QString current_file;
};

} // namespace

class WindowTest : public QObject {
    Q_OBJECT
private slots:
    void opens_project_and_lists_tree() {
        TempProject project;
        project.write("b.txt", "b\n");
        project.write("a.cpp", "int main() {}\n");
        project.write("src/lib.cpp", "// lib\n");
        project.write("c.py", "pass\n");
        Session s(project);
        QVERIFY(s.settle());
        FileTreeModel& files = s.window.file_tree()->files();
        QCOMPARE(child_names(files, {}), (QStringList{"src", "a.cpp", "b.txt", "c.py"}));
        QCOMPARE(s.window.windowTitle(), project.name() + QStringLiteral(" — rio"));
        QCOMPARE(s.window.project_root(), project.path());
        // The size a laptop's screen allows (the tests' offscreen screen is 1440×900).
        QCOMPARE(QGuiApplication::primaryScreen()->size(), QSize(1440, 900));
        QCOMPARE(s.window.size(),
                 default_window_size(QGuiApplication::primaryScreen()->availableSize()));
        // Issue 32 item 11: icons from the freedesktop theme, a folder's and a file's by kind;
        // where the theme has one page for every source file (Adwaita), rio's own badges tell
        // the languages apart.
        const auto icon = [&](const char* path) {
            return files.data(files.index_of(QString::fromLatin1(path)), Qt::DecorationRole)
                .value<QIcon>();
        };
        QCOMPARE(icon("src").name(), QStringLiteral("folder"));
        QVERIFY2(!icon("b.txt").name().isEmpty(), "a themed icon, not the style's");
        const auto picture = [&](const char* path) {
            return icon(path).pixmap(QSize(16, 16)).toImage();
        };
        QVERIFY(!picture("a.cpp").isNull());
        QVERIFY2(picture("a.cpp") != picture("c.py"), "C++ and Python look the same");
        QVERIFY2(picture("a.cpp") != picture("b.txt"), "C++ looks like plain text");
        QVERIFY2(picture("c.py") != picture("b.txt"), "Python looks like plain text");
        // A tab's close button is drawn in the text's colour.
        CodeEditor* editor = s.open(QStringLiteral("b.txt"));
        QVERIFY(editor);
        // The window's title names the file shown first, as window lists and task bars cut it.
        QCOMPARE(s.window.windowTitle(),
                 QStringLiteral("b.txt — ") + project.name() + QStringLiteral(" — rio"));
        auto* close = qobject_cast<QToolButton*>(s.window.editors()->tabBar()->tabButton(
            s.window.editors()->indexOf(editor), QTabBar::RightSide));
        QVERIFY(close);
        QCOMPARE(close->text(), QStringLiteral("×"));
        QTest::mouseClick(close, Qt::LeftButton);
        QTRY_VERIFY(!s.window.editors()->editor(QStringLiteral("b.txt")));
        QCOMPARE(s.window.windowTitle(), project.name() + QStringLiteral(" — rio"));
    }

    // Issue 32 item 4: no file open, the editor area says what rio is and how to begin.
    void welcome_page_shows_while_no_file_is_open() {
        TempProject project;
        project.write("a.txt", "a\n");
        TempProject other;
        Session s(project);
        s.window.set_recent_projects({other.path(), QStringLiteral("/no/such/folder")});
        QVERIFY(s.settle());
        WelcomePage* welcome = s.window.welcome();
        QVERIFY(welcome->isVisible());
        QCOMPARE(welcome->geometry(), s.window.editors()->rect());
        QVERIFY(welcome->open_folder_button()->isVisible());
        // echo stands in for a model: the page offers to connect one, and it leads there.
        QTRY_VERIFY(welcome->connect_button()->isVisible());
        QTest::mouseClick(welcome->connect_button(), Qt::LeftButton);
        QVERIFY(s.window.settings() && s.window.settings()->isVisible());
        // On the first provider that needs a key, not on echo (issue 46 item 8).
        QTRY_COMPARE(s.window.settings()->providers()->shown_provider(),
                     QStringLiteral("anthropic"));
        s.window.settings()->hide();
        // The folders opened lately: not this one (it is open), not one that is gone.
        QStringList recent;
        for (QPushButton* button : welcome->recent_buttons())
            recent << button->toolTip();
        QCOMPARE(recent, QStringList{other.path()});
        QCOMPARE(s.window.recent_projects().front(), project.path());
        QTest::mouseClick(welcome->manual_button(), Qt::LeftButton);
        QCOMPARE(s.window.centre()->current_view(), s.window.manual());
        s.window.centre()->show_editors();
        // A file open: the editor; closed again: the page.
        QVERIFY(s.open(QStringLiteral("a.txt")));
        QVERIFY(!welcome->isVisible());
        s.window.editors()->close_file(QStringLiteral("a.txt"));
        QTRY_VERIFY(welcome->isVisible());
        // A recent folder is a click away.
        QTest::mouseClick(welcome->recent_buttons().at(0), Qt::LeftButton);
        QTRY_COMPARE(s.window.project_root(), other.path());
    }

    // Issue 32 item 5: the side bar's width survives the window shrunk and enlarged again.
    void the_side_bar_keeps_its_width_through_a_shrink() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        s.window.resize(1200, 780);
        QDockWidget* side = s.window.side_bar();
        s.window.resizeDocks({side}, {300}, Qt::Horizontal);
        // 300 px for the side bar with its tabs' strip on the edge.
        QTRY_VERIFY(side->width() > 260);
        const int wide = side->width();
        s.window.resize(640, 780);
        QTRY_VERIFY(side->width() < wide);
        s.window.resize(1200, 780);
        QTRY_COMPARE(side->width(), wide);
        // Its tabs say their whole names, all in sight however narrow it is dragged (none
        // behind scroll buttons: "Prob" was at the default width).
        s.window.resizeDocks({side}, {180}, Qt::Horizontal);
        QTRY_VERIFY(side->width() <= 200);
        const QList<QTabBar*> bars = s.window.findChildren<QTabBar*>(Qt::FindDirectChildrenOnly);
        QVERIFY(!bars.isEmpty());
        for (QTabBar* bar : bars) {
            QCOMPARE(bar->elideMode(), Qt::ElideNone);
            QTRY_VERIFY2(bar->rect().contains(bar->tabRect(bar->count() - 1)),
                         qPrintable(bar->tabText(bar->count() - 1)));
            for (int i = 0; i < bar->count(); ++i)
                QVERIFY2(!bar->tabText(i).contains(QStringLiteral("…")),
                         qPrintable(bar->tabText(i)));
        }
    }

    void expands_folder_lazily() {
        TempProject project;
        project.write("src/one.cpp", "1\n");
        project.write("src/deep/two.cpp", "2\n");
        Session s(project);
        QVERIFY(s.settle());
        FileTreeModel& files = s.window.file_tree()->files();
        const QModelIndex src = files.index_of(QStringLiteral("src"));
        QVERIFY(src.isValid());
        QVERIFY(!files.is_loaded(QStringLiteral("src"))); // not listed until expanded
        QCOMPARE(files.rowCount(src), 0);
        QVERIFY(files.hasChildren(src));

        s.window.file_tree()->expand(src);
        QTRY_COMPARE(child_names(files, src), (QStringList{"deep", "one.cpp"}));
        QVERIFY(!files.is_loaded(QStringLiteral("src/deep")));
    }

    void opens_file_with_lexer_and_line_numbers() {
        TempProject project;
        const QByteArray text = "#include <cstdio>\n\nint main() {\n    return 0;\n}\n";
        project.write("main.cpp", text);
        Session s(project);
        QVERIFY(s.settle());

        // Double-click in the tree, as a person would.
        FileTree* tree = s.window.file_tree();
        const QModelIndex index = tree->files().index_of(QStringLiteral("main.cpp"));
        QVERIFY(index.isValid());
        QTRY_VERIFY(tree->visualRect(index).isValid()); // laid out
        const QPoint at = tree->visualRect(index).center();
        // Click, then the double-click event and its release, as a window system delivers them
        // (QTest::mouseDClick sends the second press without a release before it, which
        // leaves the view in its drag-selecting state).
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at);
        QMouseEvent twice(QEvent::MouseButtonDblClick, at, tree->viewport()->mapToGlobal(at),
                          Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(tree->viewport(), &twice);
        QTest::mouseRelease(tree->viewport(), Qt::LeftButton, {}, at);
        QTRY_VERIFY(s.window.editors()->editor(QStringLiteral("main.cpp")) != nullptr);

        CodeEditor* editor = s.window.editors()->editor(QStringLiteral("main.cpp"));
        QCOMPARE(QByteArray::fromStdString(editor->utf8_text()), text);
        QVERIFY(editor->lexer() != nullptr);
        QCOMPARE(QString::fromLatin1(editor->lexer()->language()), QStringLiteral("C++"));
        QCOMPARE(editor->marginType(0), QsciScintilla::NumberMargin);
        QVERIFY(editor->marginLineNumbers(0));
        QVERIFY(editor->marginWidth(0) > 0);
        QVERIFY(is_monospace(editor->lexer()->font(0)));
        QVERIFY(editor->isUtf8());
        QCOMPARE(editor->eolMode(), QsciScintilla::EolUnix);
        QCOMPARE(s.tab_title(QStringLiteral("main.cpp")), QStringLiteral("main.cpp"));
        QCOMPARE(s.window.editors()->current_path(), QStringLiteral("main.cpp"));
    }

    void typing_reaches_core_and_marks_unsaved() {
        TempProject project;
        project.write("notes.txt", "hello\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("notes.txt"));
        QVERIFY(editor);
        Observer other(project);
        QVERIFY(other.ready());
        const long long before =
            other.buffer(QStringLiteral("notes.txt"))["version"].get<long long>();

        editor->setCursorPosition(0, 5);
        QTest::keyClicks(editor, QStringLiteral(" world"));
        QCOMPARE(QByteArray::fromStdString(editor->utf8_text()), QByteArray("hello world\n"));
        QTRY_COMPARE(other.text(QStringLiteral("notes.txt")), std::string("hello world\n"));
        QCOMPARE(other.buffer(QStringLiteral("notes.txt"))["version"].get<long long>(), before + 6);
        QTRY_COMPARE(s.tab_title(QStringLiteral("notes.txt")), QStringLiteral("notes.txt •"));
        QVERIFY(s.window.editors()->is_dirty(QStringLiteral("notes.txt")));
        QCOMPARE(project.read("notes.txt"), QByteArray("hello\n")); // nothing saved yet
    }

    // Typing at the end of the longest line shown keeps the horizontal scroll range (each
    // widening repaints the whole view, decision 0091), no bar shows for lines that fit, and a
    // line wider than the view still gets one.
    void typing_a_line_that_fits_never_widens_the_scroll_range() {
        TempProject project;
        project.write("code.c", "int main(void) {\n    return 0;\n}\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("code.c"));
        QVERIFY(editor);
        QVERIFY(QTest::qWaitForWindowExposed(&s.window));
        QTRY_VERIFY(editor->viewport()->width() > 300);
        editor->viewport()->repaint(); // the margins as they are now
        const long before = editor->SendScintilla(QsciScintillaBase::SCI_GETSCROLLWIDTH);
        QVERIFY2(before > 200, qPrintable(QString::number(before)));
        QVERIFY(!editor->horizontalScrollBar()->isVisible());

        editor->setCursorPosition(0, 16);
        for (int i = 0; i < 20; ++i) {
            QTest::keyClick(editor, Qt::Key_X);
            editor->viewport()->repaint(); // painted, as a person sees each key
            QCOMPARE(editor->SendScintilla(QsciScintillaBase::SCI_GETSCROLLWIDTH), before);
        }
        QVERIFY(!editor->horizontalScrollBar()->isVisible());

        QTest::keyClicks(editor, QString(400, QLatin1Char('y')));
        QTRY_VERIFY(editor->SendScintilla(QsciScintillaBase::SCI_GETSCROLLWIDTH) > before);
        QTRY_VERIFY(editor->horizontalScrollBar()->isVisible());
    }

    // Typing asks no widget for a new layout (issue 46's typing p99): the caret's "Ln, Col"
    // keeps its size, growing only for a wider text, and the chat's empty activity line is
    // not set again by the core's buffer events. Each relayout ran the main window's (docks,
    // separators) at every key, right after the letter's frame.
    void typing_asks_no_widget_for_a_new_layout() {
        TempProject project;
        QByteArray lines = "int main(void) {\n    return 0;\n}\n";
        for (int i = 0; i < 12000; ++i)
            lines += "//\n";
        project.write("code.c", lines);
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("code.c"));
        QVERIFY(editor);
        QVERIFY(QTest::qWaitForWindowExposed(&s.window));
        editor->setCursorPosition(0, 16);
        // The first keys change what typing changes once (the tab's "•", the scroll bars).
        for (int i = 0; i < 2; ++i) {
            QTest::keyClick(editor, Qt::Key_X);
            QVERIFY(s.round_trip());
            QVERIFY(drain_events());
        }

        auto* position = s.window.findChild<PositionLabel*>();
        QVERIFY(position);
        const QSize size = position->size();
        LayoutRequests requests;
        for (int i = 0; i < 20; ++i) {
            QTest::keyClick(editor, Qt::Key_X);
            QVERIFY(s.round_trip()); // the core's answer and its buffer event are in
        }
        QVERIFY(drain_events());
        QVERIFY2(requests.names.isEmpty(), qPrintable(requests.names.join(QStringLiteral(", "))));
        QCOMPARE(position->text(), QStringLiteral("Ln 1, Col 39"));
        QCOMPARE(position->size(), size);

        editor->setCursorPosition(11999, 2); // wider, and all of it shows
        QVERIFY(drain_events());
        QCOMPARE(position->text(), QStringLiteral("Ln 12000, Col 3"));
        QVERIFY(position->width() >= position->sizeHint().width());
        QVERIFY(position->width() > size.width());
    }

    // After a caret move, one pixel of its position is painted again once the window is idle:
    // Qt's X11 backing store then waits for the X server there rather than between the next
    // typed letter and its pixels (PositionLabel::confirm_frame).
    void a_caret_move_repaints_one_pixel_of_its_position_when_idle() {
        TempProject project;
        project.write("code.c", "int main(void) {\n    return 0;\n}\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("code.c"));
        QVERIFY(editor);
        QVERIFY(QTest::qWaitForWindowExposed(&s.window));
        auto* position = s.window.findChild<PositionLabel*>();
        QVERIFY(position);
        QVERIFY(drain_events());
        PaintedAreas painted(*position);
        editor->setCursorPosition(1, 4);
        QTRY_VERIFY(std::find(painted.rects.begin(), painted.rects.end(), QRect(0, 0, 1, 1)) !=
                    painted.rects.end());
        QCOMPARE(position->text(), QStringLiteral("Ln 2, Col 5"));
    }

    void multibyte_text_uses_byte_offsets() {
        TempProject project;
        project.write("u.txt", "naïve 😀 café\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("u.txt"));
        QVERIFY(editor);
        Observer other(project);
        QVERIFY(other.ready());

        editor->SendScintilla(QsciScintillaBase::SCI_GOTOPOS,
                              static_cast<unsigned long>(QByteArray("naïve 😀").size()));
        type_text(editor, QStringLiteral("é!"));
        editor->SendScintilla(QsciScintillaBase::SCI_DELETEBACK); // removes "!"
        editor->SendScintilla(QsciScintillaBase::SCI_DELETEBACK); // removes "é", two bytes
        editor->SendScintilla(QsciScintillaBase::SCI_DELETEBACK); // removes 😀, four bytes
        type_text(editor, QStringLiteral("ü🙂"));
        const std::string expected = "naïve ü🙂 café\n";
        QCOMPARE(QString::fromStdString(editor->utf8_text()), QString::fromStdString(expected));
        QTRY_COMPARE(other.text(QStringLiteral("u.txt")), expected);
    }

    void ctrl_s_saves_byte_for_byte() {
        TempProject project;
        const QByteArray bom = "\xEF\xBB\xBF";
        project.write("win.txt", bom + "one\r\ntwo\r\n");
        project.write("plain.txt", "alpha\nbeta\n");
        Session s(project);
        QVERIFY(s.settle());
        s.window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&s.window));

        CodeEditor* win = s.open(QStringLiteral("win.txt"));
        QVERIFY(win);
        QCOMPARE(win->eolMode(), QsciScintilla::EolWindows);
        QCOMPARE(QByteArray::fromStdString(win->utf8_text()), QByteArray("one\r\ntwo\r\n"));
        win->setCursorPosition(0, 3);
        QTest::keyClick(win, Qt::Key_Return); // the file's own line ending
        QTest::keyClicks(win, QStringLiteral("x"));
        QTRY_COMPARE(s.tab_title(QStringLiteral("win.txt")), QStringLiteral("win.txt •"));
        QTest::keyClick(win, Qt::Key_S, Qt::ControlModifier);
        QTRY_COMPARE(project.read("win.txt"), bom + "one\r\nx\r\ntwo\r\n");
        QTRY_COMPARE(s.tab_title(QStringLiteral("win.txt")), QStringLiteral("win.txt"));
        QVERIFY(!s.window.editors()->is_dirty(QStringLiteral("win.txt")));

        CodeEditor* plain = s.open(QStringLiteral("plain.txt"));
        QVERIFY(plain);
        plain->setCursorPosition(1, 4);
        QTest::keyClick(plain, Qt::Key_Return);
        QTest::keyClicks(plain, QStringLiteral("gamma"));
        QTest::keyClick(plain, Qt::Key_S, Qt::ControlModifier);
        QTRY_COMPARE(project.read("plain.txt"), QByteArray("alpha\nbeta\ngamma\n"));
        QTRY_COMPARE(s.tab_title(QStringLiteral("plain.txt")), QStringLiteral("plain.txt"));
    }

    void remote_edit_appears_without_echo() {
        TempProject project;
        project.write("shared.py", "print('a')\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("shared.py"));
        QVERIFY(editor);
        Observer other(project);
        QVERIFY(other.ready());
        const long long before =
            other.buffer(QStringLiteral("shared.py"))["version"].get<long long>();

        Reply edit = call(other.core, QStringLiteral("buffer.replace"),
                          Json{{"path", "shared.py"},
                               {"start", 0},
                               {"end", 0},
                               {"text", "# from elsewhere\n"},
                               {"version", before}});
        QVERIFY(!edit.error);
        const std::string expected = "# from elsewhere\nprint('a')\n";
        QTRY_COMPARE(editor->utf8_text(), expected);
        QTRY_COMPARE(s.tab_title(QStringLiteral("shared.py")), QStringLiteral("shared.py •"));
        // An echo would be a request from the window, sent before the round trip's: the core
        // must still be one edit further once that is answered.
        QVERIFY(s.settle());
        QVERIFY(s.round_trip());
        Json now = other.buffer(QStringLiteral("shared.py"));
        QCOMPARE(now["version"].get<long long>(), before + 1);
        QCOMPARE(now["text"].get<std::string>(), expected);
    }

    void racing_edits_converge() {
        TempProject project;
        project.write("race.txt", "0123456789\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("race.txt"));
        QVERIFY(editor);
        Observer other(project);
        QVERIFY(other.ready());

        // The other client inserts at the start without naming a version while this
        // window types at the end: some keystrokes lose the race and are refused.
        for (int round = 0; round < 30; ++round) {
            other.core.request(op::buffer_replace,
                               Json{{"path", "race.txt"}, {"start", 0}, {"end", 0}, {"text", "<"}});
            editor->SendScintilla(QsciScintillaBase::SCI_DOCUMENTEND);
            QTest::keyClicks(editor, QStringLiteral("ab"));
            // Now and then the window catches up with the core before typing on; the other
            // client's edits sent meanwhile still race with its next keystrokes.
            if (round % 3 == 0) QVERIFY(s.round_trip());
        }
        QTRY_VERIFY(s.window.settled() && other.core.pending() == 0);
        QTRY_COMPARE(editor->utf8_text(), other.text(QStringLiteral("race.txt")));
        QVERIFY(!editor->isReadOnly());
        const std::string text = editor->utf8_text();
        QCOMPARE(std::count(text.begin(), text.end(), '<'), 30L); // every remote edit is there
    }

    void fs_changed_refreshes_tree() {
        TempProject project;
        project.write("keep.txt", "k\n");
        Session s(project);
        QVERIFY(s.settle());
        Observer other(project);
        QVERIFY(other.ready());
        // A file appears (written outside, say by a command) and the core then writes it
        // itself: its fs.changed makes the tree list the folder again.
        project.write("new.txt", "n\n");
        Reply opened = call(other.core, QStringLiteral("buffer.open"), Json{{"path", "new.txt"}});
        QVERIFY(!opened.error);
        QVERIFY(!call(other.core, QStringLiteral("buffer.replace"),
                      Json{{"path", "new.txt"}, {"text", "m\n"}})
                     .error);
        QVERIFY(!call(other.core, QStringLiteral("buffer.save"), Json{{"path", "new.txt"}}).error);
        FileTreeModel& files = s.window.file_tree()->files();
        QTRY_COMPARE(child_names(files, {}), (QStringList{"keep.txt", "new.txt"}));
    }

    void core_death_shows_message() {
        TempProject project;
        project.write("a.txt", "a\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("a.txt"));
        QVERIFY(editor);
        QTest::keyClicks(editor, QStringLiteral("unsaved "));
        QVERIFY(s.core.core_pid() > 0);
        ::kill(static_cast<pid_t>(s.core.core_pid()), SIGKILL);

        QTRY_VERIFY(!s.window.centre()->notice().isEmpty());
        const QString notice = s.window.centre()->notice();
        QVERIFY2(notice.contains(QStringLiteral("rio-core is not running")), qPrintable(notice));
        QVERIFY2(notice.contains(QStringLiteral("killed")), qPrintable(notice));
        QVERIFY(s.window.windowTitle().endsWith(QStringLiteral("(disconnected)")));
        QVERIFY(editor->isReadOnly());
        QCOMPARE(QByteArray::fromStdString(editor->utf8_text()), QByteArray("unsaved a\n"));
        // What the person might still try does not crash.
        s.window.open_file(QStringLiteral("a.txt"));
        s.window.editors()->save_current();
        s.window.file_tree()->reload();
        QTest::keyClicks(editor, QStringLiteral("more"));
        // A client without its core fails every request from the event loop, in order: once
        // this one has failed, so have those the window made above, and their handlers ran.
        const Reply after = round_trip(s.core);
        QVERIFY(after.error);
        QVERIFY(after.error->code == ErrorCode::io_error);
        QCOMPARE(QString::fromStdString(after.error->message), s.core.lost_reason());
        QVERIFY(!s.core.is_connected());

        // Restart: a new core, the tab opened in it with the text still unsaved.
        QCOMPARE(s.window.centre()->notice_button()->text(), QStringLiteral("Restart"));
        QTest::mouseClick(s.window.centre()->notice_button(), Qt::LeftButton);
        QTRY_VERIFY(s.core.is_connected() && !editor->isReadOnly() && !s.window.editors()->busy());
        QVERIFY(s.window.centre()->notice().isEmpty());
        QCOMPARE(QByteArray::fromStdString(editor->utf8_text()), QByteArray("unsaved a\n"));
        QVERIFY(s.window.editors()->is_dirty(QStringLiteral("a.txt")));
        QCOMPARE(project.read("a.txt"), QByteArray("a\n"));
        s.window.editors()->save_current();
        QTRY_COMPARE(project.read("a.txt"), QByteArray("unsaved a\n"));
    }

    // CoreClient::call<P>: the reply decoded into the op's result struct, a reply that does
    // not fit it a bad_response, nothing for a context that is gone, io_error once lost.
    void typed_calls_decode_skip_a_gone_context_and_fail_when_lost() {
        TempProject project;
        project.write("a.txt", "alpha\n");
        Session s(project);
        QVERIFY(s.settle());
        const auto opened = typed_call(s.core, BufferOpenParams{"a.txt"});
        QVERIFY(opened && opened->ok());
        QCOMPARE((*opened)->path, std::string("a.txt"));
        QCOMPARE((*opened)->text.value_or(""), std::string("alpha\n"));

        const auto mismatched = typed_call(s.core, MismatchedInfoParams{});
        QVERIFY(mismatched && !mismatched->ok());
        QVERIFY(mismatched->error().code == ErrorCode::bad_response);
        QVERIFY2(mismatched->error().message.find("no_such_field") != std::string::npos,
                 mismatched->error().message.c_str());

        const auto refused = typed_call(s.core, BufferOpenParams{"../outside.txt"});
        QVERIFY(refused && !refused->ok());
        QVERIFY(refused->error().code != ErrorCode::bad_response);

        bool late = false;
        auto gone = std::make_unique<QObject>();
        s.core.call(ProjectInfoParams{}, gone.get(),
                    [&late](const client::Typed<ProjectInfoParams>&) { late = true; });
        gone.reset();
        QVERIFY(s.round_trip()); // the answer above came first, and was skipped
        QVERIFY2(!late, "a reply reached a destroyed context");

        ::kill(static_cast<pid_t>(s.core.core_pid()), SIGKILL);
        QTRY_VERIFY(s.core.is_lost());
        const auto lost = typed_call(s.core, ProjectInfoParams{}, &s.window);
        QVERIFY(lost && !lost->ok());
        QVERIFY(lost->error().code == ErrorCode::io_error);
        QCOMPARE(QString::fromStdString(lost->error().message), s.core.lost_reason());
    }

    // Issue 15 item 7: the font size is one setting for every tab, opened now or later.
    void zoom_applies_to_every_tab_and_those_opened_later() {
        TempProject project;
        project.write("a.txt", "a\n");
        project.write("b.txt", "b\n");
        project.write("c.txt", "c\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* a = s.open(QStringLiteral("a.txt"));
        CodeEditor* b = s.open(QStringLiteral("b.txt"));
        QVERIFY(a && b);
        QSignalSpy changed(s.window.editors(), &EditorArea::zoom_changed);
        auto zoom_of = [](CodeEditor* editor) {
            return static_cast<int>(editor->SendScintilla(QsciScintillaBase::SCI_GETZOOM));
        };
        b->setFocus();
        QTest::keyClick(b, Qt::Key_Equal, Qt::ControlModifier);
        QTest::keyClick(b, Qt::Key_Equal, Qt::ControlModifier);
        QCOMPARE(zoom_of(a), 2);
        QCOMPARE(zoom_of(b), 2);
        QCOMPARE(changed.count(), 2);
        QCOMPARE(changed.last().at(0).toInt(), 2);
        CodeEditor* c = s.open(QStringLiteral("c.txt"));
        QVERIFY(c);
        QCOMPARE(zoom_of(c), 2);
        QTest::keyClick(c, Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(zoom_of(a), 1);
        QTest::keyClick(c, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(zoom_of(a), 0);
        QCOMPARE(zoom_of(c), 0);
        QCOMPARE(s.window.editors()->zoom(), 0);
    }

    // Issue 46 deliver 4: the first paint is the project as it opens — the tree listed and the
    // file asked for in it — not an empty tree and the welcome page painted over a moment on.
    void the_window_first_shows_with_the_tree_and_the_file_in_it() {
        TempProject project;
        project.write("src/a.c", "int a;\n");
        project.write("big.c", large_source(20000));
        CoreClient core;
        MainWindow window(core);
        QObject::connect(&core, &CoreClient::connected, &window,
                         [&window] { window.open_file(QStringLiteral("big.c")); });
        ShowWatch at_show(window);
        show_when_settled(window, 60000);
        core.start(private_core(project));
        QVERIFY(QTest::qWaitFor([&] { return window.isVisible(); }, 60000));
        QVERIFY2(at_show.tree_listed, "the window showed before its tree was listed");
        QCOMPARE(at_show.current_file, QStringLiteral("big.c"));
    }

    void missing_core_shows_message() {
        TempProject project;
        CoreClient core;
        MainWindow window(core);
        CoreOptions options = private_core(project);
        options.core_program = project.path() + QStringLiteral("/no-such-rio-core");
        // A core that never answers does not keep the window away.
        show_when_settled(window, 60000);
        core.start(options);
        QVERIFY(QTest::qWaitFor([&] { return window.isVisible(); }, 10000));
        QTRY_VERIFY(!window.centre()->notice().isEmpty());
        QVERIFY2(window.centre()->notice().contains(QStringLiteral("cannot start rio-core")),
                 qPrintable(window.centre()->notice()));
    }

    // DESIGN §12: what a cloned project's own files would grant is asked about, in words,
    // and applies only once the person says so; a changed file asks again.
    void trust_bar_asks_before_a_projects_allow_list_applies() {
        TempProject project;
        project.write(".rio/allow", "make test\nsh\n");
        Session s(project);
        QVERIFY(s.settle());
        TrustBar* bar = s.window.trust_bar();
        QTRY_VERIFY(bar->isVisible());
        QCOMPARE(bar->text()->text(),
                 QStringLiteral("This project's .rio/allow would let the agent run `make test`, "
                                "`sh` without asking. Trust this project?"));
        QTest::mouseClick(bar->trust_button(), Qt::LeftButton);
        QTRY_VERIFY(!bar->isVisible());
        QVERIFY(
            call(s.core, QStringLiteral("project.trust.get"), Json::object()).result["trusted"] ==
            true);
        // The project changes its own allow-list: untrusted again, and asked again.
        Json path{{"path", ".rio/allow"}};
        call(s.core, QStringLiteral("buffer.open"), path);
        call(s.core, QStringLiteral("buffer.replace"),
             Json{{"path", ".rio/allow"}, {"text", "rm -rf /\n"}});
        call(s.core, QStringLiteral("buffer.save"), path);
        QTRY_VERIFY(bar->isVisible());
        QVERIFY(bar->text()->text().contains(QStringLiteral("`rm -rf /`")));
        QTest::mouseClick(bar->dismiss_button(), Qt::LeftButton);
        QVERIFY(!bar->isVisible());
        QVERIFY2(
            call(s.core, QStringLiteral("project.trust.get"), Json::object()).result["trusted"] ==
                false,
            "not now is not yes");
    }

    void attaches_to_a_running_core() {
        TempProject project;
        project.write("shared.txt", "s\n");
        Session first(project); // owns the core; this window attaches to its socket
        QVERIFY(first.settle());
        CoreClient core;
        MainWindow window(core);
        core.start(second_client(project));
        window.show();
        QTRY_VERIFY(window.settled());
        QVERIFY(!core.is_private());
        QCOMPARE(window.windowTitle(), project.name() + QStringLiteral(" — rio"));
        QCOMPARE(child_names(window.file_tree()->files(), {}), QStringList{"shared.txt"});
        // An edit in one window shows in the other.
        CodeEditor* mine = first.open(QStringLiteral("shared.txt"));
        QVERIFY(mine);
        window.open_file(QStringLiteral("shared.txt"));
        QTRY_VERIFY(window.editors()->editor(QStringLiteral("shared.txt")) != nullptr);
        mine->SendScintilla(QsciScintillaBase::SCI_DOCUMENTEND);
        QTest::keyClicks(mine, QStringLiteral("more"));
        QTRY_COMPARE(window.editors()->editor(QStringLiteral("shared.txt"))->utf8_text(),
                     std::string("s\nmore"));
    }

    // QScintilla's own accessible counts characters up to the caret on every UI update
    // (decision 0011); without a screen reader the editor gets Qt's plain one.
    void editor_accessible_is_light_without_a_screen_reader() {
        QVERIFY(!QAccessible::isActive());
        CodeEditor editor(QStringLiteral("a.cpp"));
        QAccessibleInterface* accessible = QAccessible::queryAccessibleInterface(&editor);
        QVERIFY(accessible);
        QCOMPARE(accessible->role(), QAccessible::EditableText);
        QVERIFY(!accessible->textInterface());
    }

    // Functional only: how fast it is lives in bench/gui_editor_bench.cpp.
    void large_file_opens_and_takes_keystrokes() {
        TempProject project;
        const QByteArray big = large_source(100000);
        project.write("big.cpp", big);
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("big.cpp"));
        QVERIFY(editor);
        QCOMPARE(editor->lines(), 100001);
        for (unsigned long position : {0ul, static_cast<unsigned long>(big.size())}) {
            editor->SendScintilla(QsciScintillaBase::SCI_GOTOPOS, position);
            for (int i = 0; i < 5; ++i)
                QTest::keyClick(editor, Qt::Key_X);
        }
        Observer other(project);
        QVERIFY(other.ready());
        QTRY_COMPARE(other.text(QStringLiteral("big.cpp")).size(),
                     static_cast<std::size_t>(big.size() + 10)); // every keystroke arrived
    }
};

QTEST_MAIN(WindowTest)
#include "window_test.moc"
