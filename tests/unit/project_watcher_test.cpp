// The project watcher with a real inotify: what other programs change is reported, .git and
// ignored folders are not followed, new folders are, and the watch limit is a stated problem.
// What must not be reported is checked behind a visible change made after it, never by
// waiting.
#include "core/changed_paths.hpp"
#include "host/files/project_watcher.hpp"
#include "tests/support/temp_dir.hpp"

#include <algorithm>
#include <asio/io_context.hpp>
#include <gtest/gtest.h>
#include <set>

namespace rio {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Paths = std::vector<std::string>;

bool has(const Paths& paths, const std::string& path) {
    return std::find(paths.begin(), paths.end(), path) != paths.end();
}

class Watching : public ::testing::Test {
protected:
    void start(ProjectWatcher::Options options = {}) {
        watcher = std::make_unique<ProjectWatcher>(
            io, root, [this](Paths paths) { reports.push_back(std::move(paths)); },
            [this](const WatchState& state) { states.push_back(state); }, options);
        ASSERT_TRUE(run_until([this] { return !states.empty(); })) << "the first pass ends";
        EXPECT_TRUE(states.back().complete);
    }

    bool run_until(const std::function<bool()>& done) {
        auto deadline = std::chrono::steady_clock::now() + 10s;
        while (!done())
            if (io.run_one_until(deadline) == 0) return done();
        return true;
    }

    Paths next_report() {
        std::size_t seen = reports.size();
        EXPECT_TRUE(run_until([&] { return reports.size() > seen; })) << "no report came";
        return reports.size() > seen ? reports[seen] : Paths{};
    }

    // Reports until one names `path`; all of them, merged.
    Paths reports_until(const std::string& path) {
        Paths all;
        while (!has(all, path)) {
            Paths next = next_report();
            if (next.empty()) break;
            all.insert(all.end(), next.begin(), next.end());
        }
        return all;
    }

    test::TempDir project;
    fs::path root = fs::canonical(project.path());
    asio::io_context io;
    std::vector<Paths> reports;
    std::vector<WatchState> states;
    std::unique_ptr<ProjectWatcher> watcher;
};

TEST_F(Watching, AFileAnotherProgramWritesIsReported) {
    test::write_bytes(root / "old.txt", "1");
    start();
    EXPECT_TRUE(states.back().problem.empty());
    EXPECT_EQ(states.back().folders, 1u);
    test::write_bytes(root / "new.txt", "hello");
    EXPECT_EQ(next_report(), (Paths{"new.txt"}));
    test::write_bytes(root / "old.txt", "2");
    EXPECT_EQ(next_report(), (Paths{"old.txt"}));
    fs::remove(root / "new.txt");
    EXPECT_EQ(next_report(), (Paths{"new.txt"}));
}

TEST_F(Watching, ABurstOfChangesIsOneReport) {
    start({500ms, std::numeric_limits<std::size_t>::max()});
    for (int i = 0; i < 20; ++i)
        test::write_bytes(root / ("f" + std::to_string(i)), "x");
    Paths report = next_report();
    EXPECT_EQ(report.size(), 20u);
    EXPECT_TRUE(std::is_sorted(report.begin(), report.end()));
}

TEST_F(Watching, GitAndIgnoredFoldersAreNotFollowed) {
    test::write_bytes(root / ".gitignore", "build/\n");
    test::write_bytes(root / ".git/HEAD", "ref: refs/heads/main\n");
    test::write_bytes(root / ".git/info/exclude", "private/\n");
    test::write_bytes(root / "build/out.o", "old");
    test::write_bytes(root / "private/notes", "old");
    test::write_bytes(root / "src/main.c", "int main;");
    start();
    EXPECT_EQ(states.back().folders, 2u) << "the root and src/";
    test::write_bytes(root / ".git/HEAD", "ref: refs/heads/other\n");
    test::write_bytes(root / "build/out.o", "new");
    test::write_bytes(root / "private/notes", "new");
    test::write_bytes(root / "src/main.c", "int main(void);");
    EXPECT_EQ(next_report(), (Paths{"src/main.c"})) << "the first report names only it";
}

// Issue 26: a change to .rio/allow changes what the project grants, so project.trust must
// follow it even when the project's .gitignore leaves .rio/ out.
TEST_F(Watching, DotRioIsFollowedEvenWhenIgnored) {
    test::write_bytes(root / ".gitignore", ".rio/\n");
    test::write_bytes(root / ".rio/allow", "make test\n");
    start();
    EXPECT_EQ(states.back().folders, 2u) << "the root and .rio/";
    test::write_bytes(root / ".rio/allow", "sh\n");
    EXPECT_EQ(next_report(), (Paths{".rio/allow"}));
}

TEST_F(Watching, NewFoldersAreFollowedWithWhatIsAlreadyInThem) {
    start();
    // Made at once: the file is there before the watcher can watch the folders. The new
    // folder's name stands for what is in it.
    test::write_bytes(root / "sub/inner/early.txt", "1");
    Paths seen = reports_until("sub");
    EXPECT_TRUE(changed_covers(seen, "sub/inner/early.txt"));
    test::write_bytes(root / "sub/inner/late.txt", "2");
    EXPECT_TRUE(has(reports_until("sub/inner/late.txt"), "sub/inner/late.txt"));
    EXPECT_EQ(watcher->state().folders, 3u);
}

TEST_F(Watching, AMovedFolderIsFollowedUnderItsNewName) {
    test::write_bytes(root / "a/f.txt", "1");
    start();
    fs::rename(root / "a", root / "b");
    Paths moved = reports_until("b");
    EXPECT_TRUE(has(moved, "a"));
    test::write_bytes(root / "b/g.txt", "2");
    Paths after = reports_until("b/g.txt");
    EXPECT_FALSE(has(after, "a/g.txt"));
}

TEST_F(Watching, AChangedGitignoreTakesEffect) {
    start();
    test::write_bytes(root / ".gitignore", "gen/\n");
    ASSERT_TRUE(run_until([this] { return states.size() >= 2; })) << "a second pass";
    reports.clear();
    test::write_bytes(root / "gen/x.o", "1");
    test::write_bytes(root / "visible.txt", "1");
    Paths seen = reports_until("visible.txt");
    EXPECT_FALSE(has(seen, "gen/x.o"));
    EXPECT_TRUE(has(seen, "gen")) << "the folder itself is an entry of the root";
}

TEST_F(Watching, TheWatchLimitIsAProblemNotACrash) {
    for (const char* folder : {"a", "b", "c"})
        fs::create_directories(root / folder);
    start({50ms, 2});
    ASSERT_FALSE(states.back().problem.empty());
    EXPECT_NE(states.back().problem.find("may watch no more"), std::string::npos)
        << states.back().problem;
    EXPECT_EQ(states.back().folders, 2u);
    test::write_bytes(root / "top.txt", "1");
    EXPECT_EQ(next_report(), (Paths{"top.txt"})) << "what is watched still reports";
}

// Issue 42 item 4: a command writing thousands of files (`npm install`) is named by folders,
// each report bounded, and every file is still covered by some report.
TEST(ThinnedPaths, ABurstOverTheBoundIsNamedByFolders) {
    using Set = std::set<std::string>;
    EXPECT_EQ(thinned_paths({"a", "b/c"}, Set{}, 2, 9), (Paths{"a", "b/c"})) << "within bounds";
    EXPECT_EQ(thinned_paths({"b", "b/c"}, {"b"}, 2, 9), (Paths{"b"}))
        << "a new folder stands for what is in it, however few";
    EXPECT_EQ(thinned_paths({"a", "nm", "nm/p", "nm/p/x.js", "nm/q/y.js"}, {"nm"}, 3, 9),
              (Paths{"a", "nm"}))
        << "what is in a folder that appeared goes with its name";
    EXPECT_EQ(thinned_paths({"a", "b", "c", "lib/1", "lib/2", "lib/3", "src/x"}, Set{}, 9, 2),
              (Paths{"a", "b", "c", "lib", "src/x"}))
        << "a folder with many changed entries is named for them; the top level never";
    EXPECT_EQ(thinned_paths({"a", "src/x/1", "src/x/2", "src/y/3", "src/z"}, Set{}, 4, 9),
              (Paths{"a", "src/x", "src/y", "src/z"}))
        << "the deepest give way to their folders";
    EXPECT_EQ(thinned_paths({"a", "b", "c/d"}, Set{}, 2, 9), (Paths{"."}))
        << "still too many at the top: anything may have changed";
}

TEST(ChangedPaths, AFolderCoversWhatIsInIt) {
    EXPECT_TRUE(changed_covers({"nm"}, "nm/p/x.js"));
    EXPECT_TRUE(changed_covers({"a.txt"}, "a.txt"));
    EXPECT_TRUE(changed_covers({"."}, "src/main.c"));
    EXPECT_FALSE(changed_covers({"nm"}, "nm2/x.js"));
    EXPECT_FALSE(changed_covers({"nm/p/x.js"}, "nm"));
    EXPECT_FALSE(changed_covers({}, "a"));
}

TEST_F(Watching, ThousandsOfNewFilesComeInBoundedReportsThatCoverThemAll) {
    fs::create_directories(root / "src");
    start({50ms, std::numeric_limits<std::size_t>::max(), 100, 20});
    // 40 packages of 50 files, and files written into a folder that was already there.
    std::vector<std::string> written;
    for (int p = 0; p < 40; ++p)
        for (int f = 0; f < 50; ++f) {
            std::string rel = "node_modules/p" + std::to_string(p) + "/lib/f" + std::to_string(f);
            test::write_bytes(root / rel, "x");
            written.push_back(rel);
        }
    for (int f = 0; f < 150; ++f) {
        std::string rel = "src/g" + std::to_string(f);
        test::write_bytes(root / rel, "x");
        written.push_back(rel);
    }
    test::write_bytes(root / "last.txt", "x");
    Paths all;
    std::size_t largest = 0;
    while (!has(all, "last.txt") && !has(all, ".")) {
        Paths next = next_report();
        if (next.empty()) break;
        largest = std::max(largest, next.size());
        all.insert(all.end(), next.begin(), next.end());
    }
    EXPECT_LE(largest, 100u);
    for (const std::string& rel : written)
        ASSERT_TRUE(changed_covers(all, rel)) << rel << " is in no report";
    EXPECT_LT(all.size(), written.size() / 4) << "named by folders, not one by one";
}

TEST_F(Watching, NothingRunsAfterTheWatcherIsGone) {
    start();
    test::write_bytes(root / "a.txt", "1");
    watcher.reset();
    io.run(); // returns once the handlers still queued have found nobody
    EXPECT_TRUE(reports.empty());
}

} // namespace
} // namespace rio
