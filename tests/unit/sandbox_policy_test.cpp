// The sandbox's pure parts (host/sandbox): the command's environment, the wording, and the
// grants a policy becomes, on a real folder tree — no process is confined here (the battery
// in tests/e2e/sandbox_e2e_test.cpp does that).
#include "host/process/command_environment.hpp"
#include "host/sandbox/private_tmpdir.hpp"
#include "host/sandbox/sandbox_grants.hpp"
#include "host/store/command_settings.hpp"
#include "protocol/messages.hpp"
#include "tests/support/temp_dir.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace rio {
namespace {

namespace fs = std::filesystem;

TEST(SandboxPolicy, TheEnvironmentGetsAPrivateTmpdirAndGitWithoutOptionalLocks) {
    auto env = sandboxed_environment({"TMPDIR=/tmp", "HOME=/h", "GIT_OPTIONAL_LOCKS=1"}, "/t/x");
    std::sort(env.begin(), env.end());
    EXPECT_EQ(env,
              (std::vector<std::string>{"GIT_OPTIONAL_LOCKS=0", "HOME=/h", "TEMP=/t/x", "TMP=/t/x",
                                        "TMPDIR=/t/x", "npm_config_cache=/t/x/npm-cache"}));
    env = sandboxed_environment({"npm_config_cache=/mine"}, "/t/x");
    EXPECT_EQ(std::count(env.begin(), env.end(), "npm_config_cache=/mine"), 1)
        << "a cache the user chose stays";
    EXPECT_EQ(env.size(), 5u);
}

// Issue 45: every spelling of the proxy variables points at rio's proxy, and nothing bypasses
// it; the rest of the environment is kept.
TEST(SandboxPolicy, AProxiedCommandsVariablesAllNameRiosProxy) {
    auto env = proxied_environment({"HOME=/h", "HTTPS_PROXY=http://corp:8080", "no_proxy=localhost",
                                    "NO_PROXY=*", "Http_Proxy=x"},
                                   3128);
    std::sort(env.begin(), env.end());
    const std::string proxy = "http://127.0.0.1:3128";
    EXPECT_EQ(env,
              (std::vector<std::string>{
                  "ALL_PROXY=" + proxy, "HOME=/h", "HTTPS_PROXY=" + proxy, "HTTP_PROXY=" + proxy,
                  "all_proxy=" + proxy, "http_proxy=" + proxy, "https_proxy=" + proxy,
                  "npm_config_https_proxy=" + proxy, "npm_config_proxy=" + proxy}));
}

TEST(SandboxPolicy, HostsAreSaidAsTheyReachTheCommand) {
    SandboxUse use{SandboxProfile::workspace_write, false, std::nullopt,
                   std::vector<std::string>{"registry.npmjs.org", "*.pythonhosted.org"}};
    EXPECT_EQ(sandbox_text(use),
              "sandboxed: workspace-write, network only to registry.npmjs.org, *.pythonhosted.org");
    use.network = true;
    EXPECT_EQ(sandbox_text(use), "sandboxed: workspace-write, network allowed");
}

TEST(SandboxPolicy, TheWordingOfEachUse) {
    EXPECT_EQ(sandbox_text({SandboxProfile::read_only, false}), "sandboxed: read-only, no network");
    EXPECT_EQ(sandbox_text({SandboxProfile::workspace_write, true}),
              "sandboxed: workspace-write, network allowed");
    EXPECT_EQ(sandbox_text({SandboxProfile::none, false}), "not sandboxed");
    // A newer core's profile reaches an older frontend by its name.
    SandboxUse later = Json{{"profile", "container"}, {"network", false}}.get<SandboxUse>();
    EXPECT_FALSE(later.profile.value());
    EXPECT_EQ(sandbox_text(later), "sandboxed: container, no network");
    EXPECT_EQ(Json(later)["profile"], "container") << "passed on as it came";
    EXPECT_EQ(Json(SandboxUse{SandboxProfile::read_only, false})["profile"], "read-only");
}

const Grant* find_grant(const std::vector<Grant>& grants, const fs::path& path) {
    auto it =
        std::find_if(grants.begin(), grants.end(), [&](const Grant& g) { return g.path == path; });
    return it == grants.end() ? nullptr : &*it;
}

bool covers(const std::vector<Grant>& grants, const fs::path& path, GrantRight right) {
    for (const Grant& g : grants) {
        if (g.right != right) continue;
        std::string folder = g.path.string();
        std::string p = path.string();
        if (p == folder || (g.folder && p.rfind(folder + "/", 0) == 0)) return true;
    }
    return false;
}

// Landlock only grants: hiding ~/.ssh is granting every sibling on its way from /.
TEST(SandboxGrants, AHiddenPlaceIsLeftOutByGrantingEverythingBesideIt) {
    test::TempDir root, tmp;
    test::write_bytes(root / "home/.ssh/id_rsa", "key");
    test::write_bytes(root / "home/.bashrc", "rc");
    test::write_bytes(root / "home/code/project/main.c", "int main;");
    test::write_bytes(root / "home/code/project/.git/config", "[core]");
    test::write_bytes(root / "home/code/project/.rio/allow", "make");
    test::write_bytes(root / "home/code/project/rio-state/x", "x");
    fs::create_directory_symlink(root / "home/.ssh", root / "home/keys");
    SandboxPolicy p;
    p.project = root / "home/code/project";
    p.tmpdir = tmp.path();
    p.hidden = {root / "home/.ssh", root / "home/code/project/rio-state", root / "home/nothing"};
    for (SandboxProfile profile : {SandboxProfile::read_only, SandboxProfile::workspace_write}) {
        p.profile = profile;
        auto grants = sandbox_grants(p);
        ASSERT_TRUE(grants) << grants.error().message;
        const auto& g = *grants;
        EXPECT_TRUE(covers(g, root / "home/.bashrc", GrantRight::read));
        EXPECT_TRUE(covers(g, root / "home/code/project/main.c", GrantRight::read));
        EXPECT_FALSE(covers(g, root / "home/.ssh/id_rsa", GrantRight::read));
        EXPECT_FALSE(covers(g, root / "home/code/project/rio-state/x", GrantRight::read));
        EXPECT_EQ(find_grant(g, root / "home/keys"), nullptr) << "links are never granted";
        // Folders on the way stay listable, so `ls ~` works; /dev is left out of the walk.
        ASSERT_NE(find_grant(g, root / "home"), nullptr);
        EXPECT_EQ(find_grant(g, root / "home")->right, GrantRight::list);
        EXPECT_FALSE(covers(g, "/dev/sda", GrantRight::read));
        EXPECT_TRUE(covers(g, "/dev/null", GrantRight::device));
        EXPECT_TRUE(covers(g, tmp / "anything", GrantRight::write));
        bool ww = profile == SandboxProfile::workspace_write;
        EXPECT_EQ(covers(g, root / "home/code/project/main.c", GrantRight::write), ww);
        EXPECT_FALSE(covers(g, root / "home/code/project/.git/config", GrantRight::write));
        EXPECT_FALSE(covers(g, root / "home/code/project/.rio/allow", GrantRight::write));
        EXPECT_FALSE(covers(g, root / "home/code/project/rio-state/x", GrantRight::write));
        EXPECT_FALSE(covers(g, root / "home/code/project", GrantRight::write))
            << "the top level takes no new entries: .git could be made there";
        EXPECT_FALSE(covers(g, root / "home/.bashrc", GrantRight::write));
    }
}

// Issue 39, break P: read-only reads of the home folder are an allow list (decision 0071),
// the project in it read whole, a hidden place inside an allowed one still hidden, a dotfile
// linked from elsewhere read where it really is.
TEST(SandboxGrants, ReadOnlyReadsOfTheHomeFolderAreAnAllowList) {
    test::TempDir root, tmp;
    const fs::path home = root / "home";
    test::write_bytes(home / ".bashrc", "export ANTHROPIC_API_KEY=k");
    test::write_bytes(home / ".cargo/bin/cargo", "#!");
    test::write_bytes(home / ".cargo/credentials.toml", "token");
    test::write_bytes(home / "dotfiles/gitconfig", "[user]");
    test::write_bytes(home / "notes.txt", "private");
    test::write_bytes(home / "code/project/main.c", "int main;");
    fs::create_symlink(home / "dotfiles/gitconfig", home / ".gitconfig");
    SandboxPolicy p;
    p.project = home / "code/project";
    p.tmpdir = tmp.path();
    p.home = home;
    p.home_reads = {home / ".cargo", home / ".gitconfig", home / ".missing"};
    p.hidden = {home / ".cargo/credentials.toml"};
    for (SandboxProfile profile : {SandboxProfile::read_only, SandboxProfile::workspace_write}) {
        p.profile = profile;
        auto grants = sandbox_grants(p);
        ASSERT_TRUE(grants) << grants.error().message;
        const auto& g = *grants;
        bool ro = profile == SandboxProfile::read_only;
        EXPECT_EQ(covers(g, home / ".bashrc", GrantRight::read), !ro);
        EXPECT_EQ(covers(g, home / "notes.txt", GrantRight::read), !ro);
        EXPECT_TRUE(covers(g, home / "code/project/main.c", GrantRight::read));
        EXPECT_TRUE(covers(g, home / ".cargo/bin/cargo", GrantRight::read));
        EXPECT_FALSE(covers(g, home / ".cargo/credentials.toml", GrantRight::read));
        EXPECT_TRUE(covers(g, home / "dotfiles/gitconfig", GrantRight::read));
        EXPECT_TRUE(covers(g, "/usr/bin/env", GrantRight::read)) << "the system stays readable";
    }
    // A project that holds the home folder is read whole: it is the project.
    p.profile = SandboxProfile::read_only;
    p.project = root.path();
    auto grants = sandbox_grants(p);
    ASSERT_TRUE(grants) << grants.error().message;
    EXPECT_TRUE(covers(*grants, home / "notes.txt", GrantRight::read));
    EXPECT_FALSE(covers(*grants, home / ".cargo/credentials.toml", GrantRight::read));
}

// The user's own config.json widens and narrows what commands read and inherit; what it
// cannot use is named, and the rest still applies (decision 0071).
TEST(CommandSettings, TheUsersFileWidensNarrowsAndNamesWhatItCannotUse) {
    test::TempDir dir;
    UserDirs dirs;
    dirs.config = dir / "rio";
    test::write_bytes(dirs.settings_file(),
                      R"({"home_readable": ["~/.config/tool", "notes", "/opt/x"],
                          "home_unreadable": ".cache", "pass_env": ["NPM_TOKEN", 7, ""]})");
    CommandSettings s = configured_commands(dirs, "/home/u");
    EXPECT_EQ(s.home_readable,
              (std::vector<fs::path>{"/home/u/.config/tool", "/home/u/notes", "/opt/x"}));
    EXPECT_TRUE(s.home_unreadable.empty());
    EXPECT_EQ(s.pass_env, std::vector<std::string>{"NPM_TOKEN"});
    EXPECT_NE(s.warning.find("home_unreadable must be a list of strings, not \".cache\""),
              std::string::npos)
        << s.warning;
    EXPECT_NE(s.warning.find("pass_env holds 7, which is not a name"), std::string::npos)
        << s.warning;
    test::write_bytes(dirs.settings_file(), "{ \"pass_env\": [");
    s = configured_commands(dirs, "/home/u");
    EXPECT_TRUE(s.pass_env.empty()) << "a broken file passes nothing more";
    EXPECT_NE(s.warning.find("config.json"), std::string::npos) << s.warning;
}

TEST(SandboxGrants, AProjectOrTmpdirThatIsNotThereIsAnErrorNotAnOpenDoor) {
    test::TempDir tmp;
    SandboxPolicy p;
    p.project = tmp / "missing";
    p.tmpdir = tmp.path();
    auto grants = sandbox_grants(p);
    ASSERT_FALSE(grants);
    EXPECT_NE(grants.error().message.find("the project folder"), std::string::npos);
    p.project = tmp.path();
    p.tmpdir = tmp / "gone";
    grants = sandbox_grants(p);
    ASSERT_FALSE(grants);
    EXPECT_NE(grants.error().message.find("the private TMPDIR"), std::string::npos);
}

} // namespace
} // namespace rio
