#include "host/files.hpp"
#include "tests/support/temp_dir.hpp"

#include <csignal>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

namespace rio {
namespace {

namespace fs = std::filesystem;

mode_t mode_of(const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0);
    return st.st_mode & 07777;
}

std::size_t entries_in(const fs::path& dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {}));
}

TEST(Files, ReadingAMissingFileIsNotFound) {
    test::TempDir dir;
    auto r = read_file(dir / "nope.txt", "nope.txt");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::not_found);
    EXPECT_EQ(r.error().message, "no such file or folder: nope.txt");
}

TEST(Files, ReadingAFolderIsABadRequest) {
    test::TempDir dir;
    fs::create_directory(dir / "sub");
    auto r = read_file(dir / "sub", "sub");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::bad_request);
    EXPECT_EQ(r.error().message, "sub is a folder, not a file");
}

TEST(Files, AtomicWriteReplacesContentAndKeepsTheMode) {
    test::TempDir dir;
    test::write_bytes(dir / "run.sh", "old\n");
    fs::permissions(dir / "run.sh", static_cast<fs::perms>(0751));
    ASSERT_TRUE(write_file_atomic(dir / "run.sh", "#!/bin/sh\necho new\n", "run.sh").ok());
    EXPECT_EQ(test::read_bytes(dir / "run.sh"), "#!/bin/sh\necho new\n");
    EXPECT_EQ(mode_of(dir / "run.sh"), 0751u);
    EXPECT_EQ(entries_in(dir.path()), 1u) << "no temporary file is left behind";
}

TEST(Files, AtomicWriteCreatesANewFileWithTheUmaskApplied) {
    test::TempDir dir;
    mode_t mask = ::umask(022);
    auto s = write_file_atomic(dir / "new.txt", "x", "new.txt");
    ::umask(mask);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(mode_of(dir / "new.txt"), 0644u);
}

TEST(Files, AtomicWriteIntoAMissingFolderFailsWithIoError) {
    test::TempDir dir;
    auto s = write_file_atomic(dir / "no/such/dir/a.txt", "x", "no/such/dir/a.txt");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::io_error);
    EXPECT_EQ(s.error().message.rfind("cannot save no/such/dir/a.txt: ", 0), 0u)
        << s.error().message;
}

// A real disk error, even as root: the file size limit makes write(2) fail with EFBIG.
TEST(Files, ADiskErrorMidWriteLeavesTheOriginalIntactAndNoTemporaryFile) {
    test::TempDir dir;
    test::write_bytes(dir / "big.txt", "original\n");
    struct rlimit saved {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
    auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit tiny = saved;
    tiny.rlim_cur = 4096;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &tiny), 0);
    auto s = write_file_atomic(dir / "big.txt", std::string(100000, 'x'), "big.txt");
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, old_handler);

    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::io_error);
    EXPECT_EQ(s.error().message, "cannot save big.txt: File too large");
    EXPECT_EQ(test::read_bytes(dir / "big.txt"), "original\n");
    EXPECT_EQ(entries_in(dir.path()), 1u);
}

TEST(Files, TooLargeFilesAreRefusedBeforeReading) {
    test::TempDir dir;
    {
        std::ofstream f(dir / "huge.bin", std::ios::binary);
        f.seekp(static_cast<std::streamoff>(max_file_bytes) + 1);
        f.put('x');
    }
    auto r = read_file(dir / "huge.bin", "huge.bin");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::refused);
    EXPECT_NE(r.error().message.find("is too large"), std::string::npos);
}

TEST(Files, ListingPutsFoldersFirstAndMarksLinks) {
    test::TempDir dir;
    test::write_bytes(dir / "b.txt", "12345");
    test::write_bytes(dir / "a.txt", "");
    fs::create_directory(dir / "zdir");
    fs::create_symlink("b.txt", dir / "link.txt");
    fs::create_symlink("missing", dir / "dangling");
    auto r = list_dir(dir.path(), ".");
    ASSERT_TRUE(r.ok());
    std::vector<std::string> order;
    for (const DirEntry& e : *r)
        order.push_back(e.name + ":" + e.type + (e.link ? "@" : ""));
    EXPECT_EQ(order, (std::vector<std::string>{"zdir:dir", "a.txt:file", "b.txt:file",
                                               "dangling:other@", "link.txt:file@"}));
    EXPECT_EQ((*r)[2].size, 5u);
}

} // namespace
} // namespace rio
