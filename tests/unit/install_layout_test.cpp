// Where a program finds its shipped data (DESIGN §17): from where it really is, never from
// the source tree, and a loud message naming every path tried when the prompts are gone.
#include "io/install_layout.hpp"
#include "host/store/shipped_prompts.hpp"
#include "io/user_dirs.hpp"
#include "tests/support/temp_dir.hpp"

#include <cstdlib>
#include <gtest/gtest.h>
#include <optional>

namespace rio {
namespace {

namespace fs = std::filesystem;

class InstallLayout : public ::testing::Test {
protected:
    // The environment decides first; these tests are about what happens without it.
    void SetUp() override {
        if (const char* v = std::getenv("RIO_SHARE_DIR")) saved_ = v;
        ::unsetenv("RIO_SHARE_DIR");
        fs::create_directories(prefix / "bin");
        test::write_bytes(program, "");
    }
    void TearDown() override {
        if (saved_) ::setenv("RIO_SHARE_DIR", saved_->c_str(), 1);
    }
    static void ship_prompts(const fs::path& share) {
        fs::create_directories(share / "agent");
        test::write_bytes(share / "agent/prompt.md", "You are rio's agent.\n");
        test::write_bytes(share / "agent/plan.md", "# Plan mode\n");
    }

    // The compiled install prefix is the last resort; a machine with rio installed there
    // cannot show what happens when nothing is found.
    bool installed_at_compiled_prefix() const {
        return fs::exists(share_candidates(program).back() / "agent/prompt.md");
    }

    test::TempDir prefix;
    fs::path program = prefix / "bin/rio-core";
    std::optional<std::string> saved_;
};

TEST_F(InstallLayout, AnInstalledProgramReadsItsPrefixsShare) {
    ship_prompts(prefix / "share/rio");
    UserDirs dirs = find_user_dirs(program);
    EXPECT_EQ(dirs.share, fs::canonical(prefix.path()) / "share/rio");
    EXPECT_FALSE(missing_shipped_prompts(dirs));
}

TEST_F(InstallLayout, AProgramStartedThroughALinkReadsTheShareOfTheRealOne) {
    ship_prompts(prefix / "share/rio");
    test::TempDir elsewhere;
    fs::create_symlink(program, elsewhere / "rio-core");
    EXPECT_EQ(find_user_dirs(elsewhere / "rio-core").share,
              fs::canonical(prefix.path()) / "share/rio");
}

TEST_F(InstallLayout, AProgramBesideShareRioReadsThatOne) {
    // The build tree: its programs sit beside share/rio, linked to the source tree's.
    ship_prompts(prefix / "bin/share/rio");
    EXPECT_EQ(find_user_dirs(program).share, fs::canonical(prefix.path()) / "bin/share/rio");
}

TEST_F(InstallLayout, RioShareDirWinsOverEverything) {
    ship_prompts(prefix / "share/rio");
    test::TempDir chosen;
    ::setenv("RIO_SHARE_DIR", chosen.path().c_str(), 1);
    UserDirs dirs = find_user_dirs(program);
    EXPECT_EQ(dirs.share, chosen.path());
    EXPECT_EQ(dirs.share_tried, std::vector<fs::path>{chosen.path()});
    EXPECT_TRUE(missing_shipped_prompts(dirs)) << "and it must hold the prompts itself";
}

TEST_F(InstallLayout, MissingPromptsNameEveryPathTried) {
    if (installed_at_compiled_prefix()) GTEST_SKIP() << "rio is installed at the compiled prefix";
    UserDirs dirs = find_user_dirs(program);
    auto message = missing_shipped_prompts(dirs);
    ASSERT_TRUE(message);
    ASSERT_GE(dirs.share_tried.size(), 2u);
    for (const fs::path& dir : dirs.share_tried) {
        EXPECT_NE(message->find((dir / "agent/prompt.md").string()), std::string::npos) << *message;
        EXPECT_NE(message->find((dir / "agent/plan.md").string()), std::string::npos) << *message;
    }
    EXPECT_NE(message->find("base prompt"), std::string::npos) << *message;
    EXPECT_NE(message->find("plan prompt"), std::string::npos) << *message;
    EXPECT_NE(message->find("RIO_SHARE_DIR"), std::string::npos) << *message;
}

TEST_F(InstallLayout, AnEmptyOrMissingPlanPromptIsRefused) {
    ship_prompts(prefix / "share/rio");
    test::write_bytes(prefix / "share/rio/agent/plan.md", " \n");
    auto empty = missing_shipped_prompts(find_user_dirs(program));
    ASSERT_TRUE(empty);
    EXPECT_NE(empty->find("plan prompt"), std::string::npos) << *empty;
    EXPECT_EQ(empty->find("base prompt"), std::string::npos) << *empty;
    fs::remove(prefix / "share/rio/agent/plan.md");
    if (installed_at_compiled_prefix()) GTEST_SKIP() << "rio is installed at the compiled prefix";
    EXPECT_TRUE(missing_shipped_prompts(find_user_dirs(program)));
}

TEST_F(InstallLayout, TheHttpModuleIsLookedForByTheSameRules) {
    auto dirs = module_candidates(program);
    ASSERT_GE(dirs.size(), 3u);
    fs::path root = fs::canonical(prefix.path());
    EXPECT_EQ(dirs[0].string().rfind(root.string() + "/lib", 0), 0u) << dirs[0];
    EXPECT_EQ(dirs[1], root / "bin/lib/rio");
    EXPECT_TRUE(dirs.back().is_absolute());
}

} // namespace
} // namespace rio
