// The project's changes against HEAD (issue 47, decision 0092): a real rio-core reads real
// repositories that the git command made, and answers git.status, git.marks (an open
// buffer's unsaved edits included), git.diff and diff.lines' HEAD side, while a hostile
// .git/config that makes the git command run programs runs nothing through rio.
#include "tests/support/core_process.hpp"
#include "tests/support/replies.hpp"

#include <cstdlib>
#include <gtest/gtest.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

std::string git_command(const fs::path& dir, const std::string& args) {
    return "git -C '" + dir.string() +
           "' -c user.name=t -c user.email=t@example.com -c init.defaultBranch=main "
           "-c protocol.file.allow=always " +
           args + " >/dev/null 2>&1";
}

// Runs the git command in `dir`, as a person's terminal would; fails the test if it fails.
void git(const fs::path& dir, const std::string& args) {
    const std::string command = git_command(dir, args);
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
}

Json hunk(std::uint64_t a_start, std::uint64_t a_count, std::uint64_t b_start,
          std::uint64_t b_count, const std::string& head_text) {
    return {{"a_start", a_start},
            {"a_count", a_count},
            {"b_start", b_start},
            {"b_count", b_count},
            {"head_text", head_text}};
}

class GitE2E : public ::testing::Test {
protected:
    void SetUp() override { git(root, "init -q"); }

    void commit(const std::string& message = "c") {
        git(root, "add -A");
        git(root, "commit -q --no-verify -m " + message);
    }

    Json request(const std::string& op, Json params = Json::object()) {
        Json r = core.stdio().request(op, std::move(params));
        EXPECT_EQ(r["ok"], true) << op << ": " << r.dump();
        return r["result"];
    }

    void open_project(const fs::path& path) {
        ASSERT_EQ(core.stdio().request("project.open", {{"path", path.string()}})["ok"], true);
    }

    TempDir project;
    fs::path root = fs::canonical(project.path());
    CoreProcess core{std::vector<std::string>{}};
};

TEST_F(GitE2E, AnUnsavedBufferHasMarksForAnAddedAChangedAndADeletedLine) {
    write_bytes(root / "notes.txt", "one\ntwo\nthree\nfour\nfive\n");
    commit();
    open_project(root);
    Json opened = request("buffer.open", {{"path", "notes.txt"}});
    // two → TWO, a line after three, five deleted: in the buffer, never saved.
    Json edited = request("buffer.replace", {{"path", "notes.txt"},
                                             {"text", "one\nTWO\nthree\nnew\nfour\n"},
                                             {"version", opened["version"]}});
    Json marks = request("git.marks", {{"path", "notes.txt"}});
    EXPECT_EQ(marks["repository"], true);
    EXPECT_EQ(marks["in_head"], true);
    EXPECT_EQ(marks["version"], edited["version"]);
    EXPECT_EQ(marks["hunks"], Json::array({hunk(1, 1, 1, 1, "two\n"), hunk(3, 0, 3, 1, ""),
                                           hunk(4, 1, 5, 0, "five\n")}));
    EXPECT_EQ(read_bytes(root / "notes.txt"), "one\ntwo\nthree\nfour\nfive\n");

    // The disk has not changed, so git.status lists nothing; git.diff counts the buffer.
    Json status = request("git.status");
    EXPECT_EQ(status["head"], "branch");
    EXPECT_EQ(status["branch"], "main");
    EXPECT_EQ(status["commit"].get<std::string>().size(), 12u);
    EXPECT_EQ(status["files"], Json::array());
    Json diff = request("git.diff");
    ASSERT_EQ(diff["files"].size(), 1u) << diff.dump();
    EXPECT_EQ(diff["files"][0]["path"], "notes.txt");
    EXPECT_EQ(diff["files"][0]["diff"], "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,5 +1,5 @@\n"
                                        " one\n-two\n+TWO\n three\n+new\n four\n-five\n");

    // Putting a hunk's head_text back in its place reverts it: the marks lose that hunk.
    request("buffer.replace", {{"path", "notes.txt"},
                               {"text", "two\n"},
                               {"start", 4},
                               {"end", 8},
                               {"version", edited["version"]}});
    EXPECT_EQ(request("git.marks", {{"path", "notes.txt"}})["hunks"],
              Json::array({hunk(3, 0, 3, 1, ""), hunk(4, 1, 5, 0, "five\n")}));
    // And the compare view's HEAD side is the committed text.
    Json compare = request("diff.lines", {{"a", {{"path", "notes.txt"}, {"source", "head"}}},
                                          {"b", {{"path", "notes.txt"}}}});
    EXPECT_EQ(compare["a_lines"], 5);
    EXPECT_EQ(compare["added"], 1);
    EXPECT_EQ(compare["removed"], 1);
}

TEST_F(GitE2E, StatusSaysWhatChangedOnDiskAgainstHead) {
    write_bytes(root / "kept.txt", "k\n");
    write_bytes(root / "changed.txt", "c\n");
    write_bytes(root / "gone.txt", "g\n");
    write_bytes(root / ".gitignore", "build/\n");
    commit();
    write_bytes(root / "changed.txt", "c2\n");
    fs::remove(root / "gone.txt");
    write_bytes(root / "staged.txt", "s\n");
    git(root, "add staged.txt");
    write_bytes(root / "new/deep/file.txt", "n\n");
    write_bytes(root / "build/out.o", "ignored\n");
    open_project(root);
    Json status = request("git.status");
    EXPECT_EQ(status["files"], Json::parse(R"([
        {"path": "changed.txt", "change": "modified"},
        {"path": "gone.txt", "change": "deleted"},
        {"path": "new/deep/file.txt", "change": "untracked"},
        {"path": "staged.txt", "change": "added"}])"));
    EXPECT_EQ(request("git.status", {{"max_files", 2}})["truncated"], true);
    Json diff = request("git.diff", {{"paths", {"gone.txt"}}});
    ASSERT_EQ(diff["files"].size(), 1u) << diff.dump();
    EXPECT_EQ(diff["files"][0]["diff"], "--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-g\n");
    EXPECT_EQ(request("git.marks", {{"path", "new/deep/file.txt"}})["in_head"], false);
    // A file gone from the disk compares as empty: the compare view shows HEAD's lines deleted.
    Json gone = request("git.marks", {{"path", "gone.txt"}, {"texts", true}});
    EXPECT_EQ(gone["hunks"], Json::array({hunk(0, 1, 0, 0, "g\n")}));
    EXPECT_EQ(gone["head_text"], "g\n");
    EXPECT_EQ(gone["text"], "");
}

TEST_F(GitE2E, AHostileRepositoryConfigRunsNothingThroughRio) {
    const fs::path traces = root.parent_path() / (root.filename().string() + "-traces");
    fs::create_directories(traces);
    write_bytes(root / "code.c", "int a;\n");
    write_bytes(root / ".gitattributes", "* diff=evil filter=evil\n");
    commit();
    const std::string t = traces.string();
    git(root, "config core.fsmonitor 'touch " + t + "/fsmonitor; false'");
    git(root, "config diff.evil.textconv 'touch " + t + "/textconv; cat'");
    git(root, "config diff.external 'touch " + t + "/external; cat'");
    git(root, "config filter.evil.clean 'touch " + t + "/clean; cat'");
    git(root, "config filter.evil.smudge 'touch " + t + "/smudge; cat'");
    for (const char* hook : {"post-index-change", "pre-commit", "post-checkout"}) {
        write_bytes(root / ".git/hooks" / hook, "#!/bin/sh\ntouch " + t + "/" + hook + "\n");
        fs::permissions(root / ".git/hooks" / hook, fs::perms::owner_all);
    }
    write_bytes(root / "code.c", "int a;\nint b;\n");
    open_project(root);
    request("buffer.open", {{"path", "code.c"}});
    EXPECT_EQ(request("git.status")["files"].size(), 1u);
    EXPECT_EQ(request("git.marks", {{"path", "code.c"}})["hunks"].size(), 1u);
    EXPECT_EQ(request("git.diff")["files"].size(), 1u);
    request("diff.lines",
            {{"a", {{"path", "code.c"}, {"source", "head"}}}, {"b", {{"path", "code.c"}}}});
    EXPECT_TRUE(fs::is_empty(traces)) << "rio ran a program the repository named";
    // The same repository makes the git command run them: the config above is live.
    // (Whether git then fails does not matter here.)
    [[maybe_unused]] int status = std::system(git_command(root, "status").c_str());
    [[maybe_unused]] int diff = std::system(git_command(root, "diff").c_str());
    EXPECT_TRUE(fs::exists(traces / "fsmonitor"));
    EXPECT_TRUE(fs::exists(traces / "clean"));
    EXPECT_TRUE(fs::exists(traces / "external"));
    fs::remove_all(traces);
}

TEST_F(GitE2E, AnUnbornBranchADetachedHeadAndASubmoduleEachWork) {
    write_bytes(root / "first.txt", "1\n");
    open_project(root);
    Json unborn = request("git.status");
    EXPECT_EQ(unborn["head"], "unborn");
    EXPECT_EQ(unborn["branch"], "main");
    EXPECT_EQ(unborn["commit"], "");
    EXPECT_EQ(unborn["files"], Json::parse(R"([{"path": "first.txt", "change": "untracked"}])"));
    EXPECT_EQ(request("git.marks", {{"path", "first.txt"}})["in_head"], false);

    commit();
    write_bytes(root / "first.txt", "1\n2\n");
    commit();
    git(root, "checkout -q --detach HEAD~1");
    Json detached = request("git.status");
    EXPECT_EQ(detached["head"], "detached");
    EXPECT_EQ(detached["branch"], "");
    EXPECT_EQ(request("git.marks", {{"path", "first.txt"}})["hunks"], Json::array());

    // A submodule's own changes stay its own: the project's status lists none of its files.
    TempDir other;
    git(other.path(), "init -q");
    write_bytes(other.path() / "lib.c", "int lib;\n");
    git(other.path(), "add -A");
    git(other.path(), "commit -q -m lib");
    git(root, "checkout -q main");
    git(root, "submodule -q add '" + other.path().string() + "' vendor/lib");
    commit();
    write_bytes(root / "vendor/lib/lib.c", "int lib2;\n");
    Json with_submodule = request("git.status");
    EXPECT_EQ(with_submodule["head"], "branch");
    EXPECT_EQ(with_submodule["files"], Json::array()) << with_submodule.dump();
}

TEST_F(GitE2E, AProjectInsideARepositoryListsOnlyItsOwnFiles) {
    write_bytes(root / "app/main.c", "int main;\n");
    write_bytes(root / "docs/readme.txt", "r\n");
    commit();
    write_bytes(root / "app/main.c", "int main2;\n");
    write_bytes(root / "docs/readme.txt", "r2\n");
    open_project(root / "app");
    Json status = request("git.status");
    EXPECT_EQ(status["files"], Json::parse(R"([{"path": "main.c", "change": "modified"}])"));
    EXPECT_EQ(request("git.marks", {{"path", "main.c"}})["hunks"].size(), 1u);
    EXPECT_EQ(request("git.diff")["files"].size(), 1u);
}

TEST_F(GitE2E, NoRepositoryAndAnotherWorkTreeAreSaidInWords) {
    TempDir plain;
    write_bytes(plain.path() / "a.txt", "a\n");
    open_project(fs::canonical(plain.path()));
    Json none = request("git.status");
    EXPECT_EQ(none["repository"], false);
    EXPECT_FALSE(none.contains("problem"));
    EXPECT_EQ(request("git.marks", {{"path", "a.txt"}})["repository"], false);

    // core.worktree names a folder that does not hold the project: rio reads nothing of it.
    write_bytes(root / "a.txt", "a\n");
    commit();
    git(root, "config core.worktree '" + fs::canonical(plain.path()).string() + "'");
    open_project(root);
    Json elsewhere = request("git.status");
    EXPECT_EQ(elsewhere["repository"], false);
    EXPECT_NE(elsewhere.value("problem", "").find("does not hold the project"), std::string::npos)
        << elsewhere.dump();
    Json bad = core.stdio().request("git.marks", {{"path", "../outside.txt"}});
    EXPECT_EQ(code_of(bad), "refused") << bad.dump();
    EXPECT_EQ(message_of(bad), "path is outside the project: ../outside.txt");
}

} // namespace
} // namespace rio::test
