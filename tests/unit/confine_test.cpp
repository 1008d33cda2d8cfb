#include "host/files/confine.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

namespace fs = std::filesystem;

class Confine : public ::testing::Test {
protected:
    void SetUp() override {
        test::write_bytes(project / "src/main.cpp", "int main() {}\n");
        test::write_bytes(outside / "secret.txt", "secret\n");
        root = project.path();
    }

    void expect_refused(std::string_view requested, std::string_view message) {
        auto r = confine(root, requested);
        ASSERT_FALSE(r.ok()) << requested << " was accepted as " << r->rel;
        EXPECT_EQ(r.error().code, ErrorCode::refused) << requested;
        EXPECT_EQ(r.error().message, message);
    }

    test::TempDir project, outside;
    fs::path root;
};

TEST_F(Confine, RelativePathsInsideResolve) {
    auto r = confine(root, "src/main.cpp");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->rel, "src/main.cpp");
    EXPECT_EQ(r->real, root / "src/main.cpp");
}

TEST_F(Confine, EmptyAndDotNameTheRoot) {
    EXPECT_EQ(confine(root, "")->rel, ".");
    EXPECT_EQ(confine(root, ".")->rel, ".");
    EXPECT_EQ(confine(root, "src/")->rel, "src");
}

TEST_F(Confine, DotDotThatStaysInsideIsNormalised) {
    EXPECT_EQ(confine(root, "src/../src/./main.cpp")->rel, "src/main.cpp");
}

TEST_F(Confine, DotDotEscapesAreRefused) {
    expect_refused("../secret.txt", "path is outside the project: ../secret.txt");
    expect_refused("src/../../x", "path is outside the project: src/../../x");
    expect_refused("..", "path is outside the project: ..");
}

TEST_F(Confine, AbsolutePathsOutsideAreRefused_InsideAccepted) {
    expect_refused("/etc/passwd", "path is outside the project: /etc/passwd");
    std::string sibling = root.string() + "-sibling/x"; // shares the root's prefix as a string
    expect_refused(sibling, "path is outside the project: " + sibling);
    auto inside = confine(root, (root / "src/main.cpp").string());
    ASSERT_TRUE(inside.ok());
    EXPECT_EQ(inside->rel, "src/main.cpp");
}

TEST_F(Confine, SymlinksLeadingOutAreRefused) {
    fs::create_directory_symlink(outside.path(), root / "out");
    fs::create_symlink(outside / "secret.txt", root / "secret-link.txt");
    expect_refused("out/secret.txt",
                   "path leads outside the project through a symlink: out/secret.txt");
    expect_refused("secret-link.txt",
                   "path leads outside the project through a symlink: secret-link.txt");
    expect_refused("out/new-file.txt",
                   "path leads outside the project through a symlink: out/new-file.txt");
}

TEST_F(Confine, SymlinksInsideResolveToTheirTarget) {
    fs::create_symlink(root / "src/main.cpp", root / "main-link.cpp");
    auto r = confine(root, "main-link.cpp");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->rel, "src/main.cpp");
}

TEST_F(Confine, FilesThatDoNotExistYetAreAllowedInside) {
    auto r = confine(root, "new/dir/file.txt");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->rel, "new/dir/file.txt");
}

TEST_F(Confine, NulBytesAreABadRequest) {
    auto r = confine(root, std::string_view("a\0b", 3));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::bad_request);
}

} // namespace
} // namespace rio
