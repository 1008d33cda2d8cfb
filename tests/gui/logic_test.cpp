// The frontend's plain logic, without a window or a core: edit translation, version
// bookkeeping, lexer and line-ending choice, address parsing, the tree's merge.
#include "gui/buffer_edit.hpp"
#include "gui/buffer_sync.hpp"
#include "gui/chat_transcript.hpp"
#include "gui/compare_rows.hpp"
#include "gui/desktop_settings.hpp"
#include "gui/file_tree_model.hpp"
#include "gui/lexers.hpp"
#include "gui/line_endings.hpp"
#include "gui/manual_history.hpp"
#include "gui/manual_link.hpp"
#include "gui/manual_pages.hpp"
#include "gui/plan_link.hpp"
#include "gui/quote_lines.hpp"
#include "gui/theme.hpp"
#include "gui/window_size.hpp"

#include <QSettings>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <Qsci/qscilexer.h>
#include <Qsci/qsciscintillabase.h>
#include <memory>

using namespace rio;
using namespace rio::gui;
using Remote = BufferSync::Remote;

class LogicTest : public QObject {
    Q_OBJECT
private slots:
    void change_from_insert_and_delete() {
        const int insert =
            QsciScintillaBase::SC_MOD_BEFOREINSERT | QsciScintillaBase::SC_PERFORMED_USER;
        const int remove =
            QsciScintillaBase::SC_MOD_BEFOREDELETE | QsciScintillaBase::SC_PERFORMED_USER;
        QCOMPARE(change_from_modification(insert, 4, 3), (ByteChange{true, 4, 3}));
        QCOMPARE(change_from_modification(remove, 2, 5), (ByteChange{false, 2, 5}));
        // "After" notifications (the editor does not ask for them) and styling are not edits.
        QVERIFY(!change_from_modification(QsciScintillaBase::SC_MOD_INSERTTEXT, 0, 1));
        QVERIFY(!change_from_modification(QsciScintillaBase::SC_MOD_CHANGESTYLE, 0, 10));
        QVERIFY(!change_from_modification(insert, -1, 1));
    }

    void replace_params_carry_the_base_version() {
        Json params(replace_params("src/a.cpp", ByteEdit{3, 5, "xy"}, 7));
        // (QVERIFY: nlohmann's implicit conversions confuse QCOMPARE's overloads.)
        QVERIFY(
            params ==
            (Json{
                {"path", "src/a.cpp"}, {"start", 3}, {"end", 5}, {"text", "xy"}, {"version", 7}}));
    }

    void edit_from_event() {
        BufferChangedEvent event{"a", "edited", 2, true, 1, 3, "Z", std::nullopt};
        QCOMPARE(gui::edit_from_event(event), (ByteEdit{1, 3, "Z"}));
        event.end = 0;
        QVERIFY(!gui::edit_from_event(event)); // end before start
        QVERIFY(!gui::edit_from_event(BufferChangedEvent{
            "a", "edited", 2, true, std::nullopt, std::nullopt, std::nullopt, std::nullopt}));
    }

    void sync_ignores_own_echo() {
        BufferSync sync(1);
        QCOMPARE(sync.local_edit(), 1LL);
        QCOMPARE(sync.local_edit(), 2LL); // pipelined: based on the first one
        sync.local_reply(2);
        QCOMPARE(sync.remote_edit(2), Remote::ignore);
        sync.local_reply(3);
        QCOMPARE(sync.remote_edit(3), Remote::ignore);
        QCOMPARE(sync.version(), 3LL);
        QVERIFY(!sync.needs_resync());
        // The next edit from elsewhere applies on top.
        QCOMPARE(sync.remote_edit(4), Remote::apply);
        QCOMPARE(sync.version(), 4LL);
    }

    void sync_applies_next_remote_edit() {
        BufferSync sync(5);
        QCOMPARE(sync.remote_edit(6), Remote::apply);
        QCOMPARE(sync.remote_edit(7), Remote::apply);
        QCOMPARE(sync.remote_edit(7), Remote::ignore); // a repeat is already in
        QVERIFY(!sync.needs_resync());
        QCOMPARE(sync.remote_edit(9), Remote::ignore); // 8 went missing
        QVERIFY(sync.needs_resync());
    }

    void sync_resyncs_after_a_race() {
        // We type (based on 5) while another client's edit lands first as 6: its offsets do
        // not account for our keystroke, and ours will be refused.
        BufferSync sync(5);
        QCOMPARE(sync.local_edit(), 5LL);
        QCOMPARE(sync.remote_edit(6), Remote::ignore);
        QVERIFY(!sync.needs_resync()); // not while ours is in flight
        sync.local_reply(std::nullopt);
        QVERIFY(sync.needs_resync());
        sync.resync_started();
        QVERIFY(!sync.needs_resync());
        QCOMPARE(sync.remote_edit(7), Remote::ignore); // before the answer: in its text
        sync.resynced(7);
        QCOMPARE(sync.remote_edit(8), Remote::apply);
    }

    void sync_resyncs_after_a_conflict() {
        BufferSync sync(1);
        sync.local_edit();
        sync.local_edit();
        sync.local_reply(std::nullopt); // refused
        QVERIFY(!sync.needs_resync());  // the second is still in flight
        sync.local_reply(std::nullopt);
        QVERIFY(sync.needs_resync());
    }

    void sync_ignores_what_a_resync_contained() {
        BufferSync sync(1);
        sync.mark_stale();
        sync.resync_started();
        sync.resynced(10);
        QCOMPARE(sync.local_edit(), 10LL);
        // An event for an edit the resync already contained, arriving late and while a
        // keystroke of ours is in flight: neither applied nor a reason to resync.
        QCOMPARE(sync.remote_edit(9), Remote::ignore);
        sync.local_reply(11);
        QCOMPARE(sync.remote_edit(11), Remote::ignore);
        QVERIFY(!sync.needs_resync());
    }

    void lexer_by_file_name() {
        auto language = [](const char* path) -> QString {
            std::unique_ptr<QsciLexer> lexer(lexer_for(QString::fromUtf8(path), nullptr));
            return lexer ? QString::fromLatin1(lexer->language()) : QStringLiteral("plain");
        };
        QCOMPARE(language("src/main.cpp"), QStringLiteral("C++"));
        QCOMPARE(language("include/a.H"), QStringLiteral("C++"));
        QCOMPARE(language("x.c"), QStringLiteral("C++"));
        QCOMPARE(language("tool.py"), QStringLiteral("Python"));
        QCOMPARE(language("app.ts"), QStringLiteral("JavaScript"));
        QCOMPARE(language("package.json"), QStringLiteral("JSON"));
        QCOMPARE(language("README.md"), QStringLiteral("Markdown"));
        QCOMPARE(language("scripts/run.sh"), QStringLiteral("Bash"));
        QCOMPARE(language("CMakeLists.txt"), QStringLiteral("CMake"));
        QCOMPARE(language("cmake/x.cmake"), QStringLiteral("CMake"));
        QCOMPARE(language("Makefile"), QStringLiteral("Makefile"));
        QCOMPARE(language(".github/ci.yml"), QStringLiteral("YAML"));
        QCOMPARE(language("index.html"), QStringLiteral("HTML"));
        QCOMPARE(language("site.css"), QStringLiteral("CSS"));
        QCOMPARE(language("notes.txt"), QStringLiteral("plain"));
        QCOMPARE(language("lib.rs"), QStringLiteral("plain"));
        QCOMPARE(language(".cpp"), QStringLiteral("plain")); // a dot file, not an extension
    }

    void line_ending_follows_the_buffer() {
        QCOMPARE(line_ending_for(Eol::crlf, "a\r\nb\r\n"), LineEnding::crlf);
        QCOMPARE(line_ending_for(Eol::lf, "a\nb\n"), LineEnding::lf);
        QCOMPARE(line_ending_for(Eol::none, "a"), LineEnding::lf);
        QCOMPARE(line_ending_for(Eol::mixed, "a\r\nb\n"), LineEnding::crlf);
        QCOMPARE(line_ending_for(Eol::mixed, "a\nb\r\n"), LineEnding::lf);
    }

    void tree_merge_keeps_subfolders() {
        QStringList asked;
        FileTreeModel model([&asked](const QString& path) { asked << path; });
        model.reset_root();
        QCOMPARE(asked, QStringList{QString()});
        using T = FileEntry::Type;
        model.set_entries({}, {{"b", T::dir}, {"d", T::dir}, {"a.txt", T::file}});
        model.fetchMore(model.index_of(QStringLiteral("b")));
        model.set_entries(QStringLiteral("b"), {{"inner.txt", T::file}});
        QCOMPARE(asked, (QStringList{QString(), QStringLiteral("b")}));

        // Listed again: "d" went, "c" and "z.txt" came; "b" keeps its listed children.
        model.refresh({});
        model.set_entries({},
                          {{"b", T::dir}, {"c", T::dir}, {"a.txt", T::file}, {"z.txt", T::file}});
        QStringList names;
        for (int row = 0; row < model.rowCount(); ++row)
            names << model.index(row, 0).data().toString();
        QCOMPARE(names, (QStringList{"b", "c", "a.txt", "z.txt"}));
        QVERIFY(model.is_loaded(QStringLiteral("b")));
        QCOMPARE(model.rowCount(model.index_of(QStringLiteral("b"))), 1);
        QCOMPARE(model.path_of(model.index_of(QStringLiteral("b/inner.txt"))),
                 QStringLiteral("b/inner.txt"));
        QVERIFY(!model.is_loaded(QStringLiteral("c")));
        QVERIFY(model.hasChildren(model.index_of(QStringLiteral("c")))); // an arrow until listed
    }

    // A large burst of changes names folders for what is in them (the watcher's thinning):
    // a shown folder is listed again with every shown folder below it, and nothing else.
    void tree_refreshes_within_a_changed_folder() {
        QStringList asked;
        FileTreeModel model([&asked](const QString& path) { asked << path; });
        model.reset_root();
        using T = FileEntry::Type;
        model.set_entries({}, {{"nm", T::dir}, {"src", T::dir}});
        model.fetchMore(model.index_of(QStringLiteral("nm")));
        model.set_entries(QStringLiteral("nm"), {{"pkg", T::dir}, {"other", T::dir}});
        model.fetchMore(model.index_of(QStringLiteral("nm/pkg")));
        model.set_entries(QStringLiteral("nm/pkg"), {{"index.js", T::file}});
        asked.clear();
        model.refresh_within(QStringLiteral("nm"));
        QCOMPARE(asked, (QStringList{"nm", "nm/pkg"}));
        asked.clear();
        model.refresh_within(QStringLiteral("src")); // never listed: nothing to list again
        model.refresh_within(QStringLiteral("nm/pkg/index.js"));
        QCOMPARE(asked, QStringList());
    }

    void compare_rows_align_hunks() {
        // "left|right|kind", a side as "number:text" or "-" for padding.
        auto shown = [](const std::vector<CompareRow>& rows) {
            static const char* const kinds[] = {"same", "removed", "added", "changed"};
            auto side = [](const std::optional<int>& number, const QString& text) {
                return number ? QString::number(*number) + QLatin1Char(':') + text
                              : QStringLiteral("-");
            };
            QStringList out;
            for (const CompareRow& row : rows)
                out << side(row.left, row.left_text) + QLatin1Char('|') +
                           side(row.right, row.right_text) + QLatin1Char('|') +
                           QLatin1String(kinds[static_cast<int>(row.kind)]);
            return out;
        };

        // A change, a deletion and an insertion, as diff.lines reports them.
        QCOMPARE(shown(compare_rows({{1, 1, 1, 1}, {3, 1, 3, 0}, {5, 0, 4, 2}},
                                    {"a", "b", "c", "d", "e"}, {"a", "B", "c", "e", "f", "g"})),
                 (QStringList{"0:a|0:a|same", "1:b|1:B|changed", "2:c|2:c|same", "3:d|-|removed",
                              "4:e|3:e|same", "-|4:f|added", "-|5:g|added"}));
        // Issue 32 item 5: one column when two do not fit; a run's old lines, then its new.
        QStringList unified;
        for (const UnifiedRow& row : unified_rows(
                 compare_rows({{1, 3, 1, 2}}, {"a", "b", "c", "d", "e"}, {"a", "X", "Y", "e"})))
            unified << QString::number(row.number) + QLatin1Char(':') + row.text +
                           (row.kind == RowKind::removed ? QStringLiteral(" -")
                            : row.kind == RowKind::added ? QStringLiteral(" +")
                                                         : QString());
        QCOMPARE(unified, (QStringList{"0:a", "1:b -", "2:c -", "3:d -", "1:X +", "2:Y +", "3:e"}));
        // Three lines became one: one changed pair, then the rest against padding.
        QCOMPARE(shown(compare_rows({{1, 3, 1, 1}}, {"a", "b", "c", "d", "e"}, {"a", "X", "e"})),
                 (QStringList{"0:a|0:a|same", "1:b|1:X|changed", "2:c|-|removed", "3:d|-|removed",
                              "4:e|2:e|same"}));
        // No hunks: every line pairs with itself; CR is not shown.
        QCOMPARE(shown(compare_rows({}, split_lines(QStringLiteral("x\r\ny\r\n")),
                                    split_lines(QStringLiteral("x\r\ny\r\n")))),
                 (QStringList{"0:x|0:x|same", "1:y|1:y|same"}));

        // Bad hunks are clamped, never trusted: out of order, past the end, too long.
        QCOMPARE(shown(compare_rows({{3, 1, 3, 1}, {0, 1, 0, 1}, {9, 4, 9, 4}},
                                    {"a", "b", "c", "d"}, {"a", "b", "c", "D"})),
                 (QStringList{"0:a|0:a|same", "1:b|1:b|same", "2:c|2:c|same", "3:d|3:D|changed"}));
        QCOMPARE(shown(compare_rows({{0, 10, 0, 10}}, {"a"}, {"b", "c"})),
                 (QStringList{"0:a|0:b|changed", "-|1:c|added"}));
        // Unchanged stretches of different lengths: the surplus is shown, not lost.
        QCOMPARE(shown(compare_rows({{2, 0, 0, 1}}, {"a", "b"}, {"x"})),
                 (QStringList{"0:a|-|removed", "1:b|-|removed", "-|0:x|added"}));
        QVERIFY(compare_rows({}, {}, {}).empty());

        // Lines as diff.lines counts them.
        QCOMPARE(split_lines(QString()), QStringList());
        QCOMPARE(split_lines(QStringLiteral("a\nb\n")), (QStringList{"a", "b"}));
        QCOMPARE(split_lines(QStringLiteral("a\nb")), (QStringList{"a", "b"}));
        QCOMPARE(split_lines(QStringLiteral("\n")), QStringList{QString()});
        // diff.lines' hunks: one past an int's range is skipped; a malformed one fails the
        // reply's decoding, so it never reaches the view.
        const std::uint64_t huge = std::uint64_t{1} << 40;
        const std::vector<LineHunk> kept = line_hunks({{0, 1, 0, 2, std::nullopt},
                                                       {huge, 1, 0, 1, std::nullopt},
                                                       {0, 1, 0, huge, std::nullopt}});
        QCOMPARE(kept.size(), std::size_t(1));
        QCOMPARE(kept[0].b_count, 2);
        QVERIFY(line_hunks({}).empty());
        for (const Json& bad :
             {Json{{"a_start", -1}, {"a_count", 1}, {"b_start", 0}, {"b_count", 1}},
              Json{{"a_start", 1.5}, {"a_count", 1}, {"b_start", 0}, {"b_count", 1}}, Json("junk"),
              Json{{"a_start", 1}}}) {
            bool refused = false;
            try {
                (void)Json{{"hunks", Json::array({bad})}}.get<DiffLinesResult>();
            } catch (const std::exception&) {
                refused = true;
            }
            QVERIFY2(refused, bad.dump().c_str());
        }
    }

    void manual_link_resolution() {
        const QStringList pages = manual_files();
        using Kind = ManualLink::Kind;
        ManualLink link = resolve_manual_link(QStringLiteral("plan-mode.md#edit-plan"), pages);
        QCOMPARE(link.kind, Kind::page);
        QCOMPARE(link.page, QStringLiteral("plan-mode.md"));
        QCOMPARE(link.anchor, QStringLiteral("edit-plan"));
        link = resolve_manual_link(QStringLiteral("./the-agent.md"), pages);
        QCOMPARE(link.kind, Kind::page);
        QCOMPARE(link.page, QStringLiteral("the-agent.md"));
        QVERIFY(link.anchor.isEmpty());
        link = resolve_manual_link(QStringLiteral("#modes"), pages);
        QCOMPARE(link.kind, Kind::anchor);
        QCOMPARE(link.anchor, QStringLiteral("modes"));
        link = resolve_manual_link(QStringLiteral("index.md#caf%C3%A9"), pages);
        QCOMPARE(link.anchor, QStringLiteral("café"));

        link = resolve_manual_link(QStringLiteral("https://ollama.com/download"), pages);
        QCOMPARE(link.kind, Kind::external);
        QCOMPARE(link.url, QUrl(QStringLiteral("https://ollama.com/download")));
        QCOMPARE(resolve_manual_link(QStringLiteral("mailto:someone@example.com"), pages).kind,
                 Kind::external);

        for (const char* nowhere :
             {"", "#", "missing.md", "../README.md", "sub/the-agent.md", "/the-agent.md",
              "file:///etc/passwd", "javascript:alert(1)", "//example.com/a", "http:///x"})
            QVERIFY2(resolve_manual_link(QString::fromLatin1(nowhere), pages).kind == Kind::unknown,
                     nowhere);
    }

    void quote_lines_find_the_passage() {
        const QString plan = QStringLiteral(
            "## Steps\n\n1. Give `greeting` a **shout** option\n2. Test it\n3. Test it twice\n");
        // Markers the view does not paint are set aside.
        std::optional<QuoteLines> lines = quote_lines(plan, QStringLiteral("greeting a shout"));
        QVERIFY(lines);
        QCOMPARE(lines->line, 3);
        QCOMPARE(lines->end_line, 3);
        // A selection across paragraphs (U+2029 between them) spans their lines.
        lines = quote_lines(plan, QStringLiteral("shout option") + QChar(0x2029) +
                                      QStringLiteral("Test it twice"));
        QVERIFY(lines);
        QCOMPARE(lines->line, 3);
        QCOMPARE(lines->end_line, 5);
        // In two places, or nowhere: no line is claimed.
        QVERIFY(!quote_lines(plan, QStringLiteral("Test it")));
        QVERIFY(!quote_lines(plan, QStringLiteral("not in the plan")));
    }

    void manual_history_back_forward() {
        ManualHistory history;
        QVERIFY(!history.current());
        QVERIFY(!history.back());
        QVERIFY(!history.forward());
        history.remember_scroll(5); // nowhere yet: nothing to remember it for

        history.visit({QStringLiteral("index.md"), 0});
        history.visit({QStringLiteral("index.md"), 0}); // the same place adds nothing
        QVERIFY(!history.can_go_back());
        history.remember_scroll(120);
        history.visit({QStringLiteral("the-agent.md"), 0});
        history.remember_scroll(40);
        history.visit({QStringLiteral("plan-mode.md"), 300});
        QVERIFY(history.can_go_back());
        QVERIFY(!history.can_go_forward());

        QVERIFY((history.back() == ManualPlace{QStringLiteral("the-agent.md"), 40}));
        QVERIFY((history.back() == ManualPlace{QStringLiteral("index.md"), 120}));
        QVERIFY(!history.back());
        QVERIFY((history.current() == ManualPlace{QStringLiteral("index.md"), 120}));
        QVERIFY((history.forward() == ManualPlace{QStringLiteral("the-agent.md"), 40}));
        QVERIFY(history.can_go_forward());

        // Somewhere new from the middle: what was ahead is gone.
        history.visit({QStringLiteral("keyboard.md"), 0});
        QVERIFY(!history.can_go_forward());
        QVERIFY((history.back() == ManualPlace{QStringLiteral("the-agent.md"), 40}));
        QVERIFY((history.back() == ManualPlace{QStringLiteral("index.md"), 120}));
    }

    void plan_link_resolution() {
        const QString root = QStringLiteral("/home/ada/proj");
        const auto file = [&](const char* href, const char* path, int line) {
            const PlanLink link = resolve_plan_link(QString::fromUtf8(href), root);
            return link.kind == PlanLink::Kind::file && link.path == QString::fromUtf8(path) &&
                   link.line == line;
        };
        QVERIFY(file("greet.py", "greet.py", 0));
        QVERIFY(file("./src/app.cpp", "src/app.cpp", 0));
        QVERIFY(file("src/app.cpp:42", "src/app.cpp", 42));
        QVERIFY(file("app.cpp:42:7", "app.cpp", 42)); // not a scheme named "app.cpp"
        QVERIFY(file("src/app.cpp#L12", "src/app.cpp", 12));
        QVERIFY(file("src/app.cpp#L12-L20", "src/app.cpp", 12));
        QVERIFY(file("src/app.cpp#usage", "src/app.cpp", 0));
        QVERIFY(file("my%20notes.md", "my notes.md", 0));
        QVERIFY(file("/home/ada/proj/src/x.h", "src/x.h", 0));
        QVERIFY(file("file:///home/ada/proj/src/x.h:3", "src/x.h", 3));
        QVERIFY(file("src/../README.md", "README.md", 0));

        const auto kind = [&](const char* href) {
            return resolve_plan_link(QString::fromUtf8(href), root).kind;
        };
        for (const char* web :
             {"https://example.com/x", "http://example.com:8080", "mailto:ada@example.com",
              "javascript:alert(1)", "file://server/share/x", "ftp://example.com/f"})
            QVERIFY2(kind(web) == PlanLink::Kind::inert, web);
        for (const char* outside : {"../secret.txt", "/etc/passwd", "src/../../x",
                                    "file:///etc/passwd", "/home/ada/project2/x"})
            QVERIFY2(kind(outside) == PlanLink::Kind::outside, outside);
        QCOMPARE(resolve_plan_link(QStringLiteral("/etc/passwd:3"), root).path,
                 QStringLiteral("/etc/passwd"));
        QVERIFY(kind("") == PlanLink::Kind::inert);
        QVERIFY(kind(".") == PlanLink::Kind::inert);
        const PlanLink anchor = resolve_plan_link(QStringLiteral("#step-2"), root);
        QVERIFY(anchor.kind == PlanLink::Kind::anchor);
        QCOMPARE(anchor.anchor, QStringLiteral("step-2"));
        // No project open: nothing to open a file in.
        QVERIFY(resolve_plan_link(QStringLiteral("greet.py"), QString()).kind ==
                PlanLink::Kind::inert);
    }

    // What the app stores goes through a settings file and comes back the same, without the
    // person's own settings ever being read or written.
    void desktop_settings_round_trip_through_a_settings_file() {
        QTemporaryDir folder;
        const QString file = folder.filePath(QStringLiteral("rio.conf"));
        DesktopSettings values;
        values.last_project = QStringLiteral("/home/ada/proj");
        values.recent_projects = {QStringLiteral("/home/ada/proj"), QStringLiteral("/srv/other")};
        values.recent_remotes = {QStringLiteral("ssh://ada@devbox/srv/app")};
        values.geometry = QByteArray("\x01\x02geometry", 10);
        values.layout = QByteArray("layout\x00\xff", 8);
        values.zoom = 3;
        values.theme = Theme::dark;
        {
            QSettings settings(file, QSettings::IniFormat);
            save_desktop_settings(settings, values);
        }
        QSettings settings(file, QSettings::IniFormat);
        const DesktopSettings back = load_desktop_settings(settings);
        QCOMPARE(back.last_project, values.last_project);
        QCOMPARE(back.recent_projects, values.recent_projects);
        QCOMPARE(back.recent_remotes, values.recent_remotes);
        QCOMPARE(back.geometry, values.geometry);
        QCOMPARE(back.layout, values.layout);
        QCOMPARE(back.zoom, 3);
        QVERIFY(back.theme == Theme::dark);

        // Nothing stored, or a theme this version does not know: the defaults.
        QSettings empty(folder.filePath(QStringLiteral("empty.conf")), QSettings::IniFormat);
        empty.setValue(QStringLiteral("view/theme"), QStringLiteral("solarized"));
        const DesktopSettings fresh = load_desktop_settings(empty);
        QVERIFY(fresh.theme == Theme::system);
        QCOMPARE(fresh.zoom, 0);
        QVERIFY(fresh.recent_projects.isEmpty());
    }

    void recent_projects_newest_first_and_capped() {
        QStringList recent;
        for (int i = 0; i < 12; ++i)
            recent = remember_project(recent, QStringLiteral("/p%1").arg(i));
        QCOMPARE(recent.size(), recent_projects_kept);
        QCOMPARE(recent.first(), QStringLiteral("/p11"));
        QCOMPARE(recent.last(), QStringLiteral("/p2"));
        recent = remember_project(recent, QStringLiteral("/p5")); // again: moves to the front
        QCOMPARE(recent.first(), QStringLiteral("/p5"));
        QCOMPARE(recent.count(QStringLiteral("/p5")), 1);
        QCOMPARE(recent.size(), recent_projects_kept);
        QCOMPARE(remember_project(recent, QString()), recent);
    }

    void dark_variant_keeps_the_hue_and_reads_on_dark_paper() {
        const QColor paper(0x1e, 0x1e, 0x1e);
        for (const QColor& light :
             {QColor(0x00, 0x00, 0x7f), QColor(0x00, 0x7f, 0x00), QColor(0x7f, 0x00, 0x7f),
              QColor(0x80, 0x80, 0x80), QColor(0xff, 0xff, 0x00)}) {
            const QColor dark = dark_variant(light, false);
            QVERIFY2(dark.lightness() - paper.lightness() > 100, qPrintable(dark.name()));
            if (light.hslHue() >= 0) QCOMPARE(dark.hslHue(), light.hslHue());
        }
        const QColor background = dark_variant(QColor(0xe0, 0xc0, 0xe0), true); // a light paper
        QVERIFY(background.lightness() < 70);
        QCOMPARE(background.hslHue(), QColor(0xe0, 0xc0, 0xe0).hslHue());
    }

    // An MCP server's notifications/progress (agent.tool_progress) shows under the call's
    // line while it runs; the result's words replace it, and a result with nothing to say
    // leaves the line as it was.
    void a_calls_progress_shows_under_its_line_until_its_result() {
        ChatTranscript transcript;
        ToolEvent call;
        call.turn = 1;
        call.id = "c1";
        call.name = "mcp__odd__probe";
        transcript.add_tool(call);
        const QString line = transcript.texts_of(ChatTranscript::Entry::tool).at(0);
        transcript.add_tool_progress(ToolProgressEvent{1, "c1", 1, 2.0, "step 1"});
        QCOMPARE(transcript.texts_of(ChatTranscript::Entry::tool).at(0),
                 line + QStringLiteral("\n  … 1 of 2 · step 1"));
        transcript.add_tool_progress(ToolProgressEvent{1, "c1", 2, 2.0, "step 2"});
        QCOMPARE(transcript.texts_of(ChatTranscript::Entry::tool).at(0),
                 line + QStringLiteral("\n  … 2 of 2 · step 2"));
        ToolResultEvent result;
        result.turn = 1;
        result.id = "c1";
        transcript.add_tool_result(result, client::ToolOutcome{});
        QCOMPARE(transcript.texts_of(ChatTranscript::Entry::tool).at(0), line);

        transcript.add_tool(
            ToolEvent{1, "c2", "mcp__odd__probe", Json::object(), ToolKind::mcp, std::nullopt});
        transcript.add_tool_progress(ToolProgressEvent{1, "c2", 1, std::nullopt, std::nullopt});
        transcript.add_tool_result(
            ToolResultEvent{1, "c2", "mcp__odd__probe", false, "it broke", {}, {}, {}},
            client::ToolOutcome{"it broke", true, false});
        QCOMPARE(transcript.texts_of(ChatTranscript::Entry::tool).at(1),
                 line + QStringLiteral("\n  ✗ it broke"));
    }

    // Issue 32 item 5: the first window fits the screen it opens on, frame included.
    void the_first_window_fits_the_screen() {
        QCOMPARE(default_window_size(QSize(2560, 1400)), QSize(1760, 1100));
        // Issue 46 item 4: a sensible share of a 1920×1080 screen, not a laptop's window.
        QCOMPARE(default_window_size(QSize(1920, 1052)), QSize(1536, 894));
        QCOMPARE(default_window_size(QSize(1440, 900)), QSize(1200, 780));
        // A 1366×768 laptop with a 28 px panel: not 780 px tall.
        const QSize laptop = default_window_size(QSize(1366, 740));
        QCOMPARE(laptop.width(), 1200);
        QVERIFY(laptop.height() <= 740 - 60);
        QVERIFY(default_window_size(QSize(800, 600)).width() < 800);
        QCOMPARE(default_window_size(QSize()), QSize(1200, 780));
    }
};

QTEST_MAIN(LogicTest)
#include "logic_test.moc"
