// Projects, files and open documents through the real rio-core: encodings and line endings
// survive byte for byte, saves are atomic, and every path stays inside the project.
#include "tests/support/core_process.hpp"
#include "tests/support/replies.hpp"

#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

class DocumentsE2E : public ::testing::Test {
protected:
    void SetUp() override { open_project(); }

    void open_project() {
        Json r = client().request("project.open", {{"path", project.path().string()}});
        ASSERT_EQ(r["ok"], true) << r.dump();
    }

    LineClient& client() { return core->stdio(); }

    Json open(const std::string& path) { return client().request("buffer.open", {{"path", path}}); }

    Json replace(const std::string& path, std::size_t start, std::size_t end, std::string text) {
        return client().request("buffer.replace",
                                {{"path", path}, {"start", start}, {"end", end}, {"text", text}});
    }

    Json save(const std::string& path) { return client().request("buffer.save", {{"path", path}}); }

    TempDir project, outside;
    std::unique_ptr<CoreProcess> core = std::make_unique<CoreProcess>(std::vector<std::string>{});
};

TEST_F(DocumentsE2E, NoProjectMeansNoProjectErrors) {
    Json closed = client().request("project.close");
    ASSERT_EQ(closed["ok"], true);
    for (const char* op : {"fs.list", "project.info", "buffer.list"})
        EXPECT_EQ(code_of(client().request(op)), "no_project") << op;
    Json r = client().request("fs.read", {{"path", "a.txt"}});
    EXPECT_EQ(code_of(r), "no_project");
    EXPECT_EQ(message_of(r), "no project is open");
}

TEST_F(DocumentsE2E, ProjectOpenOfAMissingFolderIsNotFound) {
    Json r = client().request("project.open", {{"path", (project / "nope").string()}});
    EXPECT_EQ(code_of(r), "not_found");
}

TEST_F(DocumentsE2E, ProjectFlagOpensAtStart) {
    core = std::make_unique<CoreProcess>(std::vector<std::string>{"--project", project.path()});
    Json info = client().request("project.info");
    EXPECT_EQ(info["result"]["root"], project.path().string());
    EXPECT_EQ(info["result"]["name"], project.path().filename().string());
}

TEST_F(DocumentsE2E, FsListShowsFoldersFirstAndFsReadReportsEncodingAndEol) {
    write_bytes(project / "src/app.cpp", "int x;\r\n");
    write_bytes(project / "README.md", "\xEF\xBB\xBF# hi\n");
    Json list = client().request("fs.list");
    ASSERT_EQ(list["ok"], true);
    EXPECT_EQ(list["result"]["entries"][0]["name"], "src");
    EXPECT_EQ(list["result"]["entries"][0]["type"], "dir");
    EXPECT_EQ(list["result"]["entries"][1]["name"], "README.md");
    EXPECT_EQ(list["result"]["entries"][1]["size"], 8);

    Json src = client().request("fs.list", {{"path", "src"}});
    EXPECT_EQ(src["result"]["entries"][0]["name"], "app.cpp");

    Json read = client().request("fs.read", {{"path", "README.md"}});
    EXPECT_EQ(read["result"]["text"], "# hi\n");
    EXPECT_EQ(read["result"]["encoding"], "utf-8-bom");
    EXPECT_EQ(read["result"]["eol"], "lf");
    EXPECT_EQ(client().request("fs.read", {{"path", "src/app.cpp"}})["result"]["eol"], "crlf");
}

TEST_F(DocumentsE2E, FsReadOfAMissingFileIsNotFound) {
    Json r = client().request("fs.read", {{"path", "missing.txt"}});
    EXPECT_EQ(code_of(r), "not_found");
    EXPECT_EQ(message_of(r), "no such file or folder: missing.txt");
}

TEST_F(DocumentsE2E, BomAndCrlfSurviveAnEditAndSaveByteForByte) {
    write_bytes(project / "win.txt", "\xEF\xBB\xBFline one\r\nline two\r\n");
    Json opened = open("win.txt");
    ASSERT_EQ(opened["ok"], true) << opened.dump();
    EXPECT_EQ(opened["result"]["encoding"], "utf-8-bom");
    EXPECT_EQ(opened["result"]["eol"], "crlf");
    EXPECT_EQ(opened["result"]["text"], "line one\r\nline two\r\n");
    ASSERT_EQ(replace("win.txt", 5, 8, "ONE")["ok"], true);
    ASSERT_EQ(save("win.txt")["ok"], true);
    EXPECT_EQ(read_bytes(project / "win.txt"), "\xEF\xBB\xBFline ONE\r\nline two\r\n");
}

TEST_F(DocumentsE2E, MixedLineEndingsAreKeptExactly) {
    std::string bytes = "a\r\nb\nc\r\nd";
    write_bytes(project / "mixed.txt", bytes);
    Json opened = open("mixed.txt");
    EXPECT_EQ(opened["result"]["eol"], "mixed");
    ASSERT_EQ(replace("mixed.txt", 3, 4, "B")["ok"], true);
    ASSERT_EQ(save("mixed.txt")["ok"], true);
    EXPECT_EQ(read_bytes(project / "mixed.txt"), "a\r\nB\nc\r\nd");
}

TEST_F(DocumentsE2E, AnUnchangedBufferSavesToIdenticalBytes) {
    std::string bytes = "\xEF\xBB\xBFx\r\ny\n\xE2\x82\xAC";
    write_bytes(project / "same.txt", bytes);
    ASSERT_EQ(open("same.txt")["ok"], true);
    ASSERT_EQ(save("same.txt")["ok"], true);
    EXPECT_EQ(read_bytes(project / "same.txt"), bytes);
}

TEST_F(DocumentsE2E, InvalidUtf8IsRefusedForEditingAndTheFileIsUntouched) {
    std::string latin1 = "caf\xE9\n";
    write_bytes(project / "latin1.txt", latin1);
    Json r = open("latin1.txt");
    EXPECT_EQ(code_of(r), "refused");
    EXPECT_EQ(message_of(r), "latin1.txt is not valid UTF-8 (byte 0xE9 at offset 3); rio edits "
                             "only UTF-8 text and will not rewrite it");
    EXPECT_EQ(code_of(client().request("fs.read", {{"path", "latin1.txt"}})), "refused");
    EXPECT_EQ(read_bytes(project / "latin1.txt"), latin1);
    EXPECT_EQ(client().request("buffer.list")["result"]["buffers"].size(), 0u);
}

TEST_F(DocumentsE2E, SaveKeepsTheFileModeAndLeavesNoTemporaryFile) {
    write_bytes(project / "tool.sh", "#!/bin/sh\n");
    fs::permissions(project / "tool.sh", static_cast<fs::perms>(0750));
    ASSERT_EQ(open("tool.sh")["ok"], true);
    ASSERT_EQ(replace("tool.sh", 10, 10, "echo hi\n")["ok"], true);
    Json saved = save("tool.sh");
    ASSERT_EQ(saved["ok"], true) << saved.dump();
    EXPECT_EQ(saved["result"]["dirty"], false);
    EXPECT_EQ(read_bytes(project / "tool.sh"), "#!/bin/sh\necho hi\n");
    EXPECT_EQ(fs::status(project / "tool.sh").permissions(), static_cast<fs::perms>(0750));
    EXPECT_EQ(std::distance(fs::directory_iterator(project.path()), {}), 1);
}

TEST_F(DocumentsE2E, SavingThroughASymlinkKeepsTheLink) {
    write_bytes(project / "real.txt", "a\n");
    fs::create_symlink("real.txt", project / "alias.txt");
    Json opened = open("alias.txt");
    ASSERT_EQ(opened["ok"], true);
    EXPECT_EQ(opened["result"]["path"], "real.txt") << "buffers are keyed by the real path";
    ASSERT_EQ(replace("real.txt", 0, 1, "b")["ok"], true);
    ASSERT_EQ(save("real.txt")["ok"], true);
    EXPECT_TRUE(fs::is_symlink(project / "alias.txt"));
    EXPECT_EQ(read_bytes(project / "alias.txt"), "b\n");
}

TEST_F(DocumentsE2E, SaveAnnouncesBufferAndFsChanges) {
    write_bytes(project / "a.txt", "a");
    ASSERT_EQ(open("a.txt")["ok"], true);
    ASSERT_EQ(replace("a.txt", 1, 1, "b")["ok"], true);
    ASSERT_EQ(save("a.txt")["ok"], true);
    Json saved = client().next_event("buffer.changed");
    while (saved["params"]["reason"] != "saved")
        saved = client().next_event("buffer.changed");
    EXPECT_EQ(saved["params"]["dirty"], false);
    EXPECT_EQ(client().next_event("fs.changed")["params"]["paths"], Json::array({"a.txt"}));
}

// An editor's undo reaches the core as the edit that puts the text back: every client then
// sees the buffer clean, and it closes without asking.
TEST_F(DocumentsE2E, EditingBackToTheSavedTextMakesTheBufferClean) {
    write_bytes(project / "a.txt", "hello\n");
    ASSERT_EQ(open("a.txt")["ok"], true);
    EXPECT_EQ(replace("a.txt", 5, 5, "!")["result"]["dirty"], true);
    Json back = replace("a.txt", 5, 6, "");
    EXPECT_EQ(back["result"]["dirty"], false);
    EXPECT_EQ(back["result"]["version"], 3);
    EXPECT_EQ(client().request("buffer.list")["result"]["buffers"][0]["dirty"], false);
    Json edited = client().next_event("buffer.changed");
    while (edited["params"]["version"] != 3)
        edited = client().next_event("buffer.changed");
    EXPECT_EQ(edited["params"]["dirty"], false);

    ASSERT_EQ(save("a.txt")["ok"], true); // a save moves the point the text must return to
    EXPECT_EQ(replace("a.txt", 0, 1, "j")["result"]["dirty"], true);
    EXPECT_EQ(replace("a.txt", 0, 1, "h")["result"]["dirty"], false);
    EXPECT_EQ(client().request("buffer.close", {{"path", "a.txt"}})["ok"], true);
}

TEST_F(DocumentsE2E, BufferCreateWritesAnEmptyFileWithItsFoldersAndOpensIt) {
    Json r = client().request("buffer.create", {{"path", "notes/today/todo.txt"}});
    ASSERT_EQ(r["ok"], true) << r.dump();
    EXPECT_EQ(r["result"]["path"], "notes/today/todo.txt");
    EXPECT_EQ(r["result"]["text"], "");
    EXPECT_EQ(r["result"]["dirty"], false);
    EXPECT_EQ(read_bytes(project / "notes/today/todo.txt"), "");
    Json opened = client().next_event("buffer.changed");
    EXPECT_EQ(opened["params"]["reason"], "opened");
    EXPECT_EQ(client().next_event("fs.changed")["params"]["paths"],
              Json::array({"notes/today/todo.txt"}));

    Json again = client().request("buffer.create", {{"path", "notes/today/todo.txt"}});
    EXPECT_EQ(code_of(again), "conflict");
    EXPECT_EQ(message_of(again), "notes/today/todo.txt already exists");
    EXPECT_EQ(code_of(client().request("buffer.create", {{"path", "../elsewhere.txt"}})),
              "refused");
    EXPECT_FALSE(fs::exists(project.path().parent_path() / "elsewhere.txt"));
}

// Save As: the new file gets the buffer's text and encoding; the buffer it came from keeps
// its unsaved text, and its file stays as it was.
TEST_F(DocumentsE2E, BufferCreateFromABufferIsSaveAsAndLeavesTheOriginalAlone) {
    write_bytes(project / "a.txt", "\xEF\xBB\xBFone\r\n");
    ASSERT_EQ(open("a.txt")["ok"], true);
    ASSERT_EQ(replace("a.txt", 0, 3, "two")["ok"], true);
    Json r = client().request("buffer.create", {{"path", "b.txt"}, {"from", "a.txt"}});
    ASSERT_EQ(r["ok"], true) << r.dump();
    EXPECT_EQ(r["result"]["text"], "two\r\n");
    EXPECT_EQ(r["result"]["encoding"], "utf-8-bom");
    EXPECT_EQ(read_bytes(project / "b.txt"), "\xEF\xBB\xBFtwo\r\n");
    EXPECT_EQ(read_bytes(project / "a.txt"), "\xEF\xBB\xBFone\r\n");
    Json original = client().request("buffer.text", {{"path", "a.txt"}});
    EXPECT_EQ(original["result"]["text"], "two\r\n");
    EXPECT_EQ(original["result"]["dirty"], true);
    EXPECT_EQ(code_of(client().request("buffer.create", {{"path", "c.txt"}, {"from", "nope.txt"}})),
              "no_buffer");
}

TEST_F(DocumentsE2E, BufferCreateOverwritesOnlyWhenAskedAndNeverUnsavedChanges) {
    write_bytes(project / "a.txt", "new\n");
    write_bytes(project / "old.txt", "old\n");
    ASSERT_EQ(open("a.txt")["ok"], true);
    EXPECT_EQ(code_of(client().request("buffer.create", {{"path", "old.txt"}, {"from", "a.txt"}})),
              "conflict");
    EXPECT_EQ(read_bytes(project / "old.txt"), "old\n");
    Json r = client().request("buffer.create",
                              {{"path", "old.txt"}, {"from", "a.txt"}, {"overwrite", true}});
    ASSERT_EQ(r["ok"], true) << r.dump();
    EXPECT_EQ(read_bytes(project / "old.txt"), "new\n");

    // Open with unsaved changes: those would be lost, so not even overwrite replaces them.
    ASSERT_EQ(replace("old.txt", 0, 0, "mine ")["ok"], true);
    Json refused = client().request("buffer.create",
                                    {{"path", "old.txt"}, {"from", "a.txt"}, {"overwrite", true}});
    EXPECT_EQ(code_of(refused), "conflict");
    EXPECT_EQ(message_of(refused), "old.txt is open with unsaved changes; save or close it first");
    // Open and clean: it takes the new text, and stays clean.
    ASSERT_EQ(save("old.txt")["ok"], true);
    Json taken = client().request("buffer.create",
                                  {{"path", "old.txt"}, {"from", "a.txt"}, {"overwrite", true}});
    ASSERT_EQ(taken["ok"], true) << taken.dump();
    EXPECT_EQ(taken["result"]["text"], "new\n");
    EXPECT_EQ(taken["result"]["dirty"], false);
    EXPECT_EQ(read_bytes(project / "old.txt"), "new\n");
}

TEST_F(DocumentsE2E, SavingOverAFileChangedOnDiskIsAConflictUnlessForced) {
    write_bytes(project / "a.txt", "mine\n");
    ASSERT_EQ(open("a.txt")["ok"], true);
    ASSERT_EQ(replace("a.txt", 0, 4, "ours")["ok"], true);
    write_bytes(project / "a.txt", "theirs\n");
    Json r = save("a.txt");
    EXPECT_EQ(code_of(r), "conflict");
    EXPECT_EQ(message_of(r),
              "a.txt changed on disk since rio read it; pass force: true to overwrite it");
    EXPECT_EQ(read_bytes(project / "a.txt"), "theirs\n");
    EXPECT_EQ(client().request("buffer.text", {{"path", "a.txt"}})["result"]["text"], "ours\n");
    Json forced = client().request("buffer.save", {{"path", "a.txt"}, {"force", true}});
    ASSERT_EQ(forced["ok"], true);
    EXPECT_EQ(read_bytes(project / "a.txt"), "ours\n");
}

// Ignored SIGXFSZ and the file size limit are inherited by the core, so its write fails
// with EFBIG: a real disk error on any machine, as any user.
TEST_F(DocumentsE2E, ADiskErrorOnSaveIsAnIoErrorAndLosesNothing) {
    write_bytes(project / "big.txt", "small\n");
    struct rlimit saved {};
    ::getrlimit(RLIMIT_FSIZE, &saved);
    auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit tiny = saved;
    tiny.rlim_cur = 64 * 1024;
    ::setrlimit(RLIMIT_FSIZE, &tiny);
    core = std::make_unique<CoreProcess>(std::vector<std::string>{"--project", project.path()});
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, old_handler);

    ASSERT_EQ(open("big.txt")["ok"], true);
    std::string big(200 * 1024, 'x');
    ASSERT_EQ(replace("big.txt", 0, 5, big)["ok"], true);
    Json r = save("big.txt");
    EXPECT_EQ(code_of(r), "io_error");
    EXPECT_EQ(message_of(r), "cannot save big.txt: File too large");
    EXPECT_EQ(read_bytes(project / "big.txt"), "small\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(project.path()), {}), 1);
    Json text = client().request("buffer.text", {{"path", "big.txt"}});
    EXPECT_TRUE(text["result"]["text"] == big + "\n") << "the unsaved text is intact";
    EXPECT_EQ(text["result"]["dirty"], true);
}

TEST_F(DocumentsE2E, PathsOutsideTheProjectAreRefusedByEveryOp) {
    write_bytes(outside / "secret.txt", "secret\n");
    fs::create_directory_symlink(outside.path(), project / "escape");
    std::string abs = (outside / "secret.txt").string();
    for (std::string path : {std::string("../secret.txt"), abs, std::string("escape/secret.txt")}) {
        for (const char* op : {"fs.read", "buffer.open", "fs.list"}) {
            Json r = client().request(op, {{"path", path}});
            EXPECT_EQ(code_of(r), "refused") << op << " " << path << " " << r.dump();
        }
        Json d = client().request("diff.lines", {{"a", {{"path", path}}}, {"b", ""}});
        EXPECT_EQ(code_of(d), "refused") << path;
    }
    EXPECT_EQ(message_of(client().request("fs.read", {{"path", "escape/secret.txt"}})),
              "path leads outside the project through a symlink: escape/secret.txt");
    EXPECT_EQ(read_bytes(outside / "secret.txt"), "secret\n");
}

TEST_F(DocumentsE2E, AStaleVersionIsAConflictAndChangesNothing) {
    write_bytes(project / "a.txt", "abc");
    ASSERT_EQ(open("a.txt")["ok"], true);
    Json r = client().request("buffer.replace", {{"path", "a.txt"}, {"text", "x"}, {"version", 7}});
    EXPECT_EQ(code_of(r), "conflict");
    EXPECT_EQ(message_of(r), "a.txt is at version 1, not 7");
    Json ok =
        client().request("buffer.replace", {{"path", "a.txt"}, {"text", "x"}, {"version", 1}});
    EXPECT_EQ(ok["result"]["version"], 2);
    EXPECT_EQ(client().request("buffer.text", {{"path", "a.txt"}})["result"]["text"], "x");
}

TEST_F(DocumentsE2E, BadEditsAreBadRequestsAndChangeNothing) {
    write_bytes(project / "a.txt", "\xC3\xA9");
    ASSERT_EQ(open("a.txt")["ok"], true);
    EXPECT_EQ(code_of(replace("a.txt", 0, 9, "x")), "bad_request");
    EXPECT_EQ(code_of(replace("a.txt", 1, 2, "x")), "bad_request");
    EXPECT_EQ(code_of(client().request("buffer.replace",
                                       {{"path", "a.txt"}, {"start", 0}, {"text", "x"}})),
              "bad_request");
    EXPECT_EQ(code_of(client().request(
                  "buffer.replace", {{"path", "a.txt"}, {"start", -1}, {"end", 0}, {"text", "x"}})),
              "bad_request");
    Json text = client().request("buffer.text", {{"path", "a.txt"}});
    EXPECT_EQ(text["result"]["text"], "\xC3\xA9");
    EXPECT_EQ(text["result"]["version"], 1);
}

TEST_F(DocumentsE2E, BufferOpsOnAnUnopenedPathAreNoBuffer) {
    write_bytes(project / "a.txt", "a");
    for (const char* op : {"buffer.text", "buffer.save", "buffer.close"}) {
        Json r = client().request(op, {{"path", "a.txt"}});
        EXPECT_EQ(code_of(r), "no_buffer") << op;
        EXPECT_EQ(message_of(r), "no open buffer for a.txt");
    }
}

TEST_F(DocumentsE2E, ClosingADirtyBufferNeedsDiscard) {
    write_bytes(project / "a.txt", "a");
    ASSERT_EQ(open("a.txt")["ok"], true);
    ASSERT_EQ(replace("a.txt", 0, 1, "b")["ok"], true);
    Json r = client().request("buffer.close", {{"path", "a.txt"}});
    EXPECT_EQ(code_of(r), "conflict");
    EXPECT_EQ(client().request("buffer.list")["result"]["buffers"][0]["dirty"], true);
    EXPECT_EQ(code_of(client().request("project.close")), "conflict");
    ASSERT_EQ(client().request("buffer.close", {{"path", "a.txt"}, {"discard", true}})["ok"], true);
    EXPECT_EQ(client().request("buffer.list")["result"]["buffers"].size(), 0u);
    EXPECT_EQ(read_bytes(project / "a.txt"), "a");
}

TEST_F(DocumentsE2E, OpeningTwiceSharesOneBuffer) {
    write_bytes(project / "a.txt", "a");
    ASSERT_EQ(open("a.txt")["ok"], true);
    ASSERT_EQ(replace("a.txt", 1, 1, "b")["ok"], true);
    Json again = open("./a.txt");
    EXPECT_EQ(again["result"]["text"], "ab");
    EXPECT_EQ(again["result"]["version"], 2);
    EXPECT_EQ(client().request("buffer.list")["result"]["buffers"].size(), 1u);
}

TEST_F(DocumentsE2E, DiffLinesComparesTextsBuffersAndDisk) {
    Json texts = client().request("diff.lines", {{"a", "a\nb\nc\n"}, {"b", "a\nB\nc\nd\n"}});
    ASSERT_EQ(texts["ok"], true) << texts.dump();
    EXPECT_EQ(texts["result"]["removed"], 1);
    EXPECT_EQ(texts["result"]["added"], 2);
    EXPECT_EQ(texts["result"]["exact"], true);
    Json h = texts["result"]["hunks"];
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(h[0], (Json{{"a_start", 1}, {"a_count", 1}, {"b_start", 1}, {"b_count", 1}}));
    EXPECT_EQ(h[1], (Json{{"a_start", 3}, {"a_count", 0}, {"b_start", 3}, {"b_count", 1}}));

    write_bytes(project / "f.txt", "one\ntwo\n");
    ASSERT_EQ(open("f.txt")["ok"], true);
    ASSERT_EQ(replace("f.txt", 4, 7, "2")["ok"], true);
    Json vs_disk = client().request(
        "diff.lines", {{"a", {{"path", "f.txt"}, {"source", "disk"}}}, {"b", {{"path", "f.txt"}}}});
    ASSERT_EQ(vs_disk["ok"], true) << vs_disk.dump();
    EXPECT_EQ(vs_disk["result"]["hunks"].size(), 1u);
    EXPECT_EQ(vs_disk["result"]["a_lines"], 2);

    EXPECT_EQ(code_of(client().request("diff.lines", {{"a", 1}, {"b", ""}})), "bad_request");
    EXPECT_EQ(code_of(client().request(
                  "diff.lines", {{"a", {{"path", "g.txt"}, {"source", "buffer"}}}, {"b", ""}})),
              "no_buffer");
}

} // namespace
} // namespace rio::test
