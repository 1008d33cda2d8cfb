// Project I/O beneath the project's descriptor: nothing reaches outside, even when a folder
// is swapped for a symlink while rio uses it.
#include "host/files/confine.hpp"
#include "host/files/project_dir.hpp"
#include "host/files/project_files.hpp"
#include "tests/support/temp_dir.hpp"

#include <atomic>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

namespace rio {
namespace {

namespace fs = std::filesystem;

class ProjectFiles : public ::testing::Test {
protected:
    void SetUp() override {
        auto opened = ProjectDir::open(fs::canonical(project.path()), project / "journal");
        ASSERT_TRUE(opened.ok());
        dir = *opened;
    }
    ProjectPath at(std::string_view rel) {
        auto p = confine(dir, rel);
        EXPECT_TRUE(p.ok()) << rel;
        return *p;
    }

    test::TempDir project, outside;
    std::shared_ptr<const ProjectDir> dir;
};

TEST_F(ProjectFiles, ReadsWritesAndListsInsideTheProject) {
    ASSERT_TRUE(make_project_folders(at("a/b")).ok());
    ASSERT_TRUE(write_project_file(at("a/b/c.txt"), "hello\n").ok());
    EXPECT_EQ(*read_project_file(at("a/b/c.txt")), "hello\n");
    auto listed = list_project_dir(at("a"));
    ASSERT_TRUE(listed.ok());
    ASSERT_EQ(listed->entries.size(), 1u);
    EXPECT_EQ(listed->entries[0].name, "b");
}

TEST_F(ProjectFiles, APathThatBecameASymlinkIsRefused) {
    fs::create_directories(project / "sub");
    ProjectPath target = at("sub/f.txt"); // resolved while sub/ was a folder
    fs::remove(project / "sub");
    fs::create_directory_symlink(outside.path(), project / "sub");
    Status s = write_project_file(target, "x");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::refused);
    EXPECT_NE(s.error().message.find("became a symlink"), std::string::npos) << s.error().message;
    EXPECT_FALSE(read_project_file(target).ok());
    EXPECT_TRUE(fs::is_empty(outside.path()));
}

TEST_F(ProjectFiles, AFifoInTheProjectIsRefusedWithoutBlocking) {
    ASSERT_EQ(::mkfifo((project / "pipe").c_str(), 0600), 0);
    auto r = read_project_file(at("pipe"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::refused);
}

// Hole 6 of the trust issue: a local process exchanging sub/ and a symlink to a folder
// outside (renameat2 RENAME_EXCHANGE) while files are written into sub/ got 9 of 1,000
// files outside. Prints the figure.
TEST_F(ProjectFiles, SwapRaceWritesNothingOutsideIn1000Rounds) {
    fs::create_directories(project / "sub");
    fs::create_directory_symlink(outside.path(), project / "swap");
    std::atomic<bool> stop{false};
    std::atomic<long> swaps{0};
    std::thread swapper([&] {
        std::string a = (project / "sub").string(), b = (project / "swap").string();
        while (!stop) {
            if (::syscall(SYS_renameat2, AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(),
                          RENAME_EXCHANGE) == 0)
                ++swaps;
        }
    });
    int written = 0, refused = 0;
    for (int i = 0; i < 1000; ++i) {
        auto path = confine(dir, "sub/f_" + std::to_string(i));
        if (!path) { // resolved through the symlink at that instant: refused up front
            ++refused;
            continue;
        }
        if (write_project_file(*path, "x"))
            ++written;
        else
            ++refused;
    }
    stop = true;
    swapper.join();
    std::size_t outside_files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(outside.path()))
        ++outside_files;
    std::printf("swap race: %d written inside, %d refused, %zu outside, %ld swaps\n", written,
                refused, outside_files, swaps.load());
    EXPECT_EQ(outside_files, 0u);
    EXPECT_GT(swaps.load(), 0);
}

} // namespace
} // namespace rio
