// The core follows the disk (issue 15): a real rio-core watches its project, says what other
// processes changed as fs.changed, leaves out .git and ignored folders, follows new folders,
// and brings open buffers along. What must not be reported is checked behind a visible write
// made after it: the first report that follows names only that one.
#include "tests/support/core_process.hpp"
#include "tests/support/replies.hpp"

#include <gtest/gtest.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

bool names(const Json& changed, const std::string& path) {
    for (const Json& p : changed["paths"])
        if (p == path) return true;
    return false;
}

class WatchE2E : public ::testing::Test {
protected:
    void open_project() {
        Json r = client().request("project.open", {{"path", root.string()}});
        ASSERT_EQ(r["ok"], true) << r.dump();
        // Round trips until the first pass over the project is done: no clock involved.
        for (;;) {
            Json info = client().request("project.info")["result"];
            ASSERT_TRUE(info.contains("watch")) << info.dump();
            if (info["watch"]["complete"] == true) break;
        }
        client().drain(std::chrono::milliseconds(0));
    }

    LineClient& client() { return core.stdio(); }

    // fs.changed events until one names `path`, merged.
    std::vector<std::string> changed_until(const std::string& path) {
        std::vector<std::string> all;
        for (;;) {
            Json changed = client().next_event("fs.changed")["params"];
            for (const Json& p : changed["paths"])
                all.push_back(p);
            if (names(changed, path)) return all;
        }
    }

    Json buffer_event(const std::string& reason) {
        for (;;) {
            Json e = client().next_event("buffer.changed")["params"];
            if (e["reason"] == reason) return e;
        }
    }

    TempDir project;
    fs::path root = fs::canonical(project.path());
    CoreProcess core{std::vector<std::string>{}};
};

TEST_F(WatchE2E, AFileAnotherProcessCreatesIsFsChanged) {
    open_project();
    Json info = client().request("project.info")["result"]["watch"];
    EXPECT_EQ(info["folders"], 1);
    EXPECT_FALSE(info.contains("problem"));
    write_bytes(root / "new.txt", "made elsewhere\n");
    Json changed = client().next_event("fs.changed", std::chrono::seconds(10))["params"];
    EXPECT_EQ(changed["paths"], Json::array({"new.txt"}));
    fs::remove(root / "new.txt");
    EXPECT_EQ(client().next_event("fs.changed")["params"]["paths"], Json::array({"new.txt"}));
}

TEST_F(WatchE2E, ChangesInsideGitAndIgnoredFoldersAreNotReported) {
    write_bytes(root / ".gitignore", "build/\n");
    write_bytes(root / ".git/HEAD", "ref: refs/heads/main\n");
    write_bytes(root / "build/app.o", "old");
    write_bytes(root / "src/main.c", "int main;\n");
    open_project();
    write_bytes(root / ".git/HEAD", "ref: refs/heads/other\n");
    write_bytes(root / ".git/objects/ab/cdef", "blob");
    write_bytes(root / "build/app.o", "new");
    write_bytes(root / "build/deeper/x.o", "new");
    write_bytes(root / "src/main.c", "int main(void);\n");
    Json changed = client().next_event("fs.changed")["params"];
    EXPECT_EQ(changed["paths"], Json::array({"src/main.c"})) << "the first report names only it";
}

TEST_F(WatchE2E, ANewSubfolderIsWatched) {
    open_project();
    fs::create_directory(root / "sub");
    changed_until("sub");
    write_bytes(root / "sub/inside.txt", "1");
    std::vector<std::string> seen = changed_until("sub/inside.txt");
    EXPECT_EQ(seen.back(), "sub/inside.txt");
    EXPECT_EQ(client().request("project.info")["result"]["watch"]["folders"], 2);
}

TEST_F(WatchE2E, TheCoresOwnWritesAreReportedOnce) {
    write_bytes(root / "a.txt", "one\n");
    open_project();
    ASSERT_EQ(client().request("buffer.open", {{"path", "a.txt"}})["ok"], true);
    client().request("buffer.replace", {{"path", "a.txt"}, {"text", "two\n"}});
    ASSERT_EQ(client().request("buffer.save", {{"path", "a.txt"}})["ok"], true);
    write_bytes(root / "other.txt", "x");
    int reports_of_a = 0;
    for (;;) {
        Json changed = client().next_event("fs.changed")["params"];
        reports_of_a += names(changed, "a.txt");
        for (const Json& p : changed["paths"])
            EXPECT_EQ(p.get<std::string>().find(".rio-"), std::string::npos) << "temporary files";
        if (names(changed, "other.txt")) break;
    }
    EXPECT_EQ(reports_of_a, 1) << "the save's own fs.changed, not the watcher's too";
}

TEST_F(WatchE2E, AnOpenUnmodifiedBufferTakesTheNewText) {
    write_bytes(root / "a.txt", "one\ntwo\n");
    open_project();
    ASSERT_EQ(client().request("buffer.open", {{"path", "a.txt"}})["ok"], true);
    replace_bytes(root / "a.txt", "one\nTWO\n");
    Json edited = buffer_event("edited");
    EXPECT_EQ(edited["start"], 4);
    EXPECT_EQ(edited["end"], 7);
    EXPECT_EQ(edited["text"], "TWO");
    EXPECT_EQ(edited["dirty"], false);
    Json reloaded = buffer_event("reloaded");
    EXPECT_EQ(reloaded["version"], edited["version"]);
    Json buffer = client().request("buffer.text", {{"path", "a.txt"}})["result"];
    EXPECT_EQ(buffer["text"], "one\nTWO\n");
    EXPECT_EQ(buffer["dirty"], false);
    replace_bytes(root / "a.txt", "three\n");
    buffer_event("reloaded");
    ASSERT_EQ(client().request("buffer.replace", {{"path", "a.txt"}, {"text", "four\n"}})["ok"],
              true);
    EXPECT_EQ(client().request("buffer.save", {{"path", "a.txt"}})["ok"], true)
        << "the buffer knows the disk's bytes now: no conflict";
}

TEST_F(WatchE2E, AModifiedBufferKeepsItsTextAndHearsOfTheConflict) {
    write_bytes(root / "a.txt", "one\n");
    open_project();
    ASSERT_EQ(client().request("buffer.open", {{"path", "a.txt"}})["ok"], true);
    client().request("buffer.replace", {{"path", "a.txt"}, {"text", "mine\n"}});
    replace_bytes(root / "a.txt", "theirs\n");
    Json told = buffer_event("disk_changed");
    EXPECT_EQ(told["dirty"], true);
    EXPECT_FALSE(told.contains("deleted"));
    EXPECT_EQ(client().request("buffer.text", {{"path", "a.txt"}})["result"]["text"], "mine\n");
    EXPECT_EQ(code_of(client().request("buffer.save", {{"path", "a.txt"}})), "conflict");
    Json reloaded = client().request("buffer.reload", {{"path", "a.txt"}});
    ASSERT_EQ(reloaded["ok"], true) << reloaded.dump();
    EXPECT_EQ(reloaded["result"]["text"], "theirs\n");
    EXPECT_EQ(reloaded["result"]["dirty"], false);
    EXPECT_EQ(buffer_event("reloaded")["dirty"], false);
}

TEST_F(WatchE2E, ABufferWhoseFileIsDeletedIsToldSo) {
    write_bytes(root / "a.txt", "one\n");
    open_project();
    ASSERT_EQ(client().request("buffer.open", {{"path", "a.txt"}})["ok"], true);
    fs::remove(root / "a.txt");
    Json told = buffer_event("disk_changed");
    EXPECT_EQ(told["deleted"], true);
    EXPECT_EQ(client().request("buffer.text", {{"path", "a.txt"}})["result"]["text"], "one\n");
    EXPECT_EQ(code_of(client().request("buffer.reload", {{"path", "a.txt"}})), "not_found");
    EXPECT_EQ(client().request("buffer.save", {{"path", "a.txt"}})["ok"], true)
        << "saving brings the file back";
}

TEST_F(WatchE2E, ClosingTheProjectStopsWatchingIt) {
    open_project();
    ASSERT_EQ(client().request("project.close")["ok"], true);
    write_bytes(root / "after-close.txt", "x");
    TempDir other;
    write_bytes(other / "seen.txt", "");
    ASSERT_EQ(client().request("project.open", {{"path", other.path().string()}})["ok"], true);
    for (;;)
        if (client().request("project.info")["result"]["watch"]["complete"] == true) break;
    write_bytes(fs::canonical(other.path()) / "seen.txt", "now");
    Json changed = client().next_event("fs.changed")["params"];
    EXPECT_EQ(changed["paths"], Json::array({"seen.txt"}));
}

} // namespace
} // namespace rio::test
