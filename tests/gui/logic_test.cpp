// The frontend's plain logic, without a window or a core: edit translation, version
// bookkeeping, lexer and line-ending choice, address parsing, the tree's merge.
#include "gui/buffer_edit.hpp"
#include "gui/buffer_sync.hpp"
#include "gui/core_address.hpp"
#include "gui/file_tree_model.hpp"
#include "gui/lexers.hpp"
#include "gui/line_endings.hpp"

#include <QStringList>
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
    void edit_from_insert_and_delete() {
        const int insert =
            QsciScintillaBase::SC_MOD_INSERTTEXT | QsciScintillaBase::SC_PERFORMED_USER;
        const int remove =
            QsciScintillaBase::SC_MOD_DELETETEXT | QsciScintillaBase::SC_PERFORMED_USER;
        QCOMPARE(edit_from_modification(insert, 4, 3, "abcdef"), (ByteEdit{4, 4, "abc"}));
        QCOMPARE(edit_from_modification(remove, 2, 5, "ignored"), (ByteEdit{2, 7, ""}));
        // "Before" notifications and styling change no text.
        QVERIFY(!edit_from_modification(QsciScintillaBase::SC_MOD_BEFOREINSERT, 0, 1, "a"));
        QVERIFY(!edit_from_modification(QsciScintillaBase::SC_MOD_CHANGESTYLE, 0, 10, nullptr));
        // A multibyte character is its bytes.
        QCOMPARE(edit_from_modification(insert, 0, 4, "\xF0\x9F\x98\x80"),
                 (ByteEdit{0, 0, "\xF0\x9F\x98\x80"}));
    }

    void replace_params_carry_the_base_version() {
        Json params = replace_params("src/a.cpp", ByteEdit{3, 5, "xy"}, 7);
        // (QVERIFY: nlohmann's implicit conversions confuse QCOMPARE's overloads.)
        QVERIFY(
            params ==
            (Json{
                {"path", "src/a.cpp"}, {"start", 3}, {"end", 5}, {"text", "xy"}, {"version", 7}}));
    }

    void edit_from_event() {
        Json event{{"path", "a"}, {"reason", "edited"}, {"version", 2}, {"dirty", true},
                   {"start", 1},  {"end", 3},           {"text", "Z"}};
        QCOMPARE(gui::edit_from_event(event), (ByteEdit{1, 3, "Z"}));
        event["end"] = 0;
        QVERIFY(!gui::edit_from_event(event)); // end before start
        QVERIFY(!gui::edit_from_event(Json{{"reason", "edited"}}));
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
        QCOMPARE(line_ending_for("crlf", "a\r\nb\r\n"), LineEnding::crlf);
        QCOMPARE(line_ending_for("lf", "a\nb\n"), LineEnding::lf);
        QCOMPARE(line_ending_for("none", "a"), LineEnding::lf);
        QCOMPARE(line_ending_for("mixed", "a\r\nb\n"), LineEnding::crlf);
        QCOMPARE(line_ending_for("mixed", "a\nb\r\n"), LineEnding::lf);
    }

    void core_address_parsing() {
        auto unix_socket = parse_core_address(QStringLiteral("unix:/tmp/rio.sock"));
        QVERIFY(unix_socket && unix_socket->unix_socket);
        QCOMPARE(unix_socket->path, QStringLiteral("/tmp/rio.sock"));
        auto tcp = parse_core_address(QStringLiteral("127.0.0.1:7000"));
        QVERIFY(tcp && !tcp->unix_socket);
        QCOMPARE(tcp->host, QStringLiteral("127.0.0.1"));
        QCOMPARE(tcp->port, std::uint16_t(7000));
        auto v6 = parse_core_address(QStringLiteral("[::1]:9"));
        QVERIFY(v6);
        QCOMPARE(v6->host, QStringLiteral("::1"));
        QVERIFY(!parse_core_address(QStringLiteral("unix:")));
        QVERIFY(!parse_core_address(QStringLiteral("localhost")));
        QVERIFY(!parse_core_address(QStringLiteral("localhost:http")));
        QVERIFY(!parse_core_address(QStringLiteral("localhost:70000")));
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
};

QTEST_MAIN(LogicTest)
#include "logic_test.moc"
