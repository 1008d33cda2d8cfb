#include "host/files/files.hpp"
#include "tests/support/temp_dir.hpp"

#include <csignal>
#include <fcntl.h>
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
    for (const DirEntry& e : r->entries)
        order.push_back(e.name + ":" + std::string(to_wire(e.type)) + (e.link ? "@" : ""));
    EXPECT_EQ(order, (std::vector<std::string>{"zdir:dir", "a.txt:file", "b.txt:file",
                                               "dangling:other@", "link.txt:file@"}));
    EXPECT_EQ(r->entries[2].size, 5u);
    EXPECT_TRUE(r->left_out.empty());
}

// A Latin-1 name was listed as "bad\uFFFDname.txt", which no op could open again.
TEST(Files, ANameThatIsNotUtf8IsLeftOutOfAListingAndNamedWithReplacementCharacters) {
    test::TempDir dir;
    test::write_bytes(dir / "bad\xffname.txt", "x");
    fs::create_directory(dir / "d\xe9j\xe0");
    test::write_bytes(dir / "ok.txt", "");
    auto r = list_dir(dir.path(), ".");
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->entries.size(), 1u);
    EXPECT_EQ(r->entries[0].name, "ok.txt");
    EXPECT_EQ(r->left_out, (std::vector<std::string>{"bad\uFFFDname.txt", "d\uFFFDj\uFFFD"}));
}

} // namespace
} // namespace rio

namespace rio {
namespace {

// open(2) of a FIFO waits for a writer: it froze every client of the core.
TEST(Files, AFifoIsRefusedWithoutBlocking) {
    test::TempDir dir;
    ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0600), 0);
    auto r = read_file(dir / "pipe", "pipe");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::refused);
    EXPECT_EQ(
        r.error().message,
        "pipe is not a regular file (a pipe, socket or device); rio reads only regular files");
}

// A core killed mid-save leaves ".name.rio-N" beside the file; its journal entry lets the
// next start remove it — only that, and only once its writer is gone.
TEST(Files, StaleTemporaryFilesOfADeadWriterAreRemoved) {
    test::TempDir dir;
    fs::path journal = dir / "journal";
    fs::create_directories(journal);
    test::write_bytes(dir / ".a.txt.rio-123", "half written");
    test::write_bytes(dir / "keep.txt", "not a temporary file");
    test::write_bytes(dir / ".b.txt.rio-456", "a live writer's");
    // pid 2^22 + 1 is above Linux's pid_max ceiling: never a live process.
    test::write_bytes(journal / "4194305-123", (dir / ".a.txt.rio-123").string());
    test::write_bytes(journal / "4194305-9", (dir / "keep.txt").string());
    test::write_bytes(journal / (std::to_string(::getpid()) + "-456"),
                      (dir / ".b.txt.rio-456").string());

    EXPECT_EQ(remove_stale_temp_files(journal), 1u);
    EXPECT_FALSE(fs::exists(dir / ".a.txt.rio-123"));
    EXPECT_TRUE(fs::exists(dir / "keep.txt")) << "only names rio gives its temporary files";
    EXPECT_TRUE(fs::exists(dir / ".b.txt.rio-456")) << "its writer still runs";
    EXPECT_FALSE(fs::exists(journal / "4194305-123"));
    EXPECT_TRUE(fs::exists(journal / (std::to_string(::getpid()) + "-456")));
}

TEST(Files, AJournaledWriteLeavesNoEntryBehind) {
    test::TempDir dir;
    fs::path journal = dir / "journal";
    ASSERT_TRUE(write_file_atomic(dir / "a.txt", "x", "a.txt").ok());
    int fd = ::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY);
    ASSERT_TRUE(
        write_file_atomic(WriteTarget{fd, dir.path(), "a.txt"}, "y", "a.txt", journal).ok());
    ::close(fd);
    EXPECT_EQ(test::read_bytes(dir / "a.txt"), "y");
    EXPECT_TRUE(fs::is_empty(journal));
}

} // namespace
} // namespace rio
