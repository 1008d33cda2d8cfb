// The pure parts of issue 26's gate: the redaction of a streamed reply, the environment a
// command runs with, and the trust question's words and answer.
#include "client/trust_question.hpp"
#include "host/process/command_environment.hpp"
#include "host/store/redact.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

const std::vector<std::string> keys{"sk-ant-api03-SECRETSECRET", "sk-proj-OTHERKEY1"};

std::string streamed(const std::vector<std::string>& pieces) {
    StreamRedaction stream;
    std::string out;
    for (const std::string& piece : pieces)
        out += stream.feed(piece, keys);
    return out + stream.finish();
}

// Break G: a key split across two deltas reached every client, each half alone matching
// nothing.
TEST(StreamRedaction, AKeySplitAcrossPiecesIsRedacted) {
    const std::string key = keys[0];
    for (std::size_t cut = 1; cut < key.size(); ++cut)
        EXPECT_EQ(streamed({"key: " + key.substr(0, cut), key.substr(cut) + " ok"}),
                  "key: [redacted] ok")
            << cut;
    std::vector<std::string> bytes;
    for (char c : "a " + key + " b " + keys[1])
        bytes.emplace_back(1, c);
    EXPECT_EQ(streamed(bytes), "a [redacted] b [redacted]") << "one byte a delta";
}

TEST(StreamRedaction, OnlyWhatCouldStartAKeyWaits) {
    StreamRedaction stream;
    EXPECT_EQ(stream.feed("hello sk-", keys), "hello ");
    EXPECT_EQ(stream.feed("ant is not it", keys), "sk-ant is not it");
    EXPECT_EQ(stream.feed("plain", keys), "plain");
    EXPECT_EQ(stream.feed("ends with sk-an", keys), "ends with ");
    EXPECT_EQ(stream.finish(), "sk-an") << "a prefix that never became a key goes out at the end";
    EXPECT_EQ(stream.feed("x", {}), "x") << "no keys, nothing waits";
}

// Break A: git took the fsmonitor command, the hooks and even a whole repository from
// files a project carried.
TEST(CommandEnvironment, GitIsHardenedKeysAndRiosVariablesAreGone) {
    auto env = command_environment({"PATH=/bin", "ANTHROPIC_API_KEY=k", "RIO_PROVIDER=echo",
                                    "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=user.name",
                                    "GIT_CONFIG_VALUE_0=me", "GIT_CONFIG_KEY_7=stale"},
                                   {"ANTHROPIC_API_KEY"});
    std::vector<std::string> expected{"PATH=/bin",
                                      "GIT_CONFIG_KEY_0=user.name",
                                      "GIT_CONFIG_VALUE_0=me",
                                      "GIT_CONFIG_KEY_1=safe.bareRepository",
                                      "GIT_CONFIG_VALUE_1=explicit",
                                      "GIT_CONFIG_KEY_2=core.fsmonitor",
                                      "GIT_CONFIG_VALUE_2=false",
                                      "GIT_CONFIG_KEY_3=core.hooksPath",
                                      "GIT_CONFIG_VALUE_3=/dev/null",
                                      "GIT_CONFIG_KEY_4=protocol.ext.allow",
                                      "GIT_CONFIG_VALUE_4=never",
                                      "GIT_CONFIG_COUNT=5"};
    EXPECT_EQ(env, expected) << "the user's own pairs first, ours after them win";
    auto bare = command_environment({"GIT_CONFIG_COUNT=junk", "GIT_CONFIG_KEY_0=x"}, {});
    EXPECT_EQ(bare.front(), "GIT_CONFIG_KEY_0=safe.bareRepository");
    EXPECT_EQ(bare.back(), "GIT_CONFIG_COUNT=4");
}

// Issue 39, break P: a variable whose name says it holds a secret is not passed to commands
// unless the user named it.
TEST(CommandEnvironment, VariablesThatLookLikeSecretsAreNotPassedUnlessNamed) {
    for (const char* name :
         {"GITHUB_TOKEN", "NPM_TOKEN", "my_token", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE",
          "DB_PASSWORD", "MYSQL_PWD_PASSWD", "GPG_PASSPHRASE", "STRIPE_API_KEY", "MAPS_APIKEY",
          "DEPLOY_KEY", "GITLAB_PAT", "NPM_CONFIG__AUTH", "CLIENT_SECRET", "GOOGLE_CREDENTIALS"})
        EXPECT_TRUE(looks_secret(name)) << name;
    for (const char* name : {"PATH", "HOME", "TERM", "SSH_AUTH_SOCK", "XAUTHORITY", "KEYMAP",
                             "LANG", "GIT_CONFIG_KEY_0", "PYTHONPATH", "EDITOR"})
        EXPECT_FALSE(looks_secret(name)) << name;
    auto env = command_environment({"PATH=/bin", "GITHUB_TOKEN=t", "NPM_TOKEN=n", "AWS_REGION=x"},
                                   {}, {{"NPM_TOKEN"}, false});
    EXPECT_EQ(env[0], "PATH=/bin");
    EXPECT_EQ(env[1], "NPM_TOKEN=n") << "named by the user";
    EXPECT_EQ(env[2].rfind("GIT_CONFIG_KEY_0=", 0), 0u) << env[2];
}

// Break C and item 1: the question says what trusting grants, the user's own rules included,
// and the answer names exactly the files shown.
TEST(TrustQuestion, SaysWhatTrustGrantsAndAnswersForWhatWasShown) {
    ProjectTrustState nothing;
    nothing.trusted = false;
    EXPECT_FALSE(client::trust_matters(nothing)) << "nothing to grant, nothing to ask";
    ProjectTrustState state{false,
                            {{".rio/allow", "abc", false, "run `make` without asking"}},
                            {"`git status`"},
                            {},
                            {}};
    EXPECT_TRUE(client::trust_matters(state));
    auto reasons = client::trust_reasons(state);
    ASSERT_EQ(reasons.size(), 2u);
    EXPECT_EQ(reasons[0],
              "This project's .rio/allow would let the agent run `make` without asking.");
    EXPECT_NE(reasons[1].find("every command the agent runs here asks you first"),
              std::string::npos);
    EXPECT_NE(reasons[1].find("`git status`"), std::string::npos);
    ProjectTrustSetParams answer = client::trust_answer(state);
    EXPECT_TRUE(answer.trust);
    ASSERT_TRUE(answer.files);
    ASSERT_EQ(answer.files->size(), 1u);
    EXPECT_EQ((*answer.files)[0].path, ".rio/allow");
    EXPECT_EQ((*answer.files)[0].sha256, "abc");
    state.trusted = true;
    EXPECT_FALSE(client::trust_matters(state));

    // Issue 39: servers waiting for trust make it matter, and the question names them.
    ProjectTrustState servers;
    servers.trusted = false;
    servers.language_servers = {"clangd", "pylsp"};
    servers.mcp_servers = {"fetch"};
    EXPECT_TRUE(client::trust_matters(servers));
    reasons = client::trust_reasons(servers);
    ASSERT_EQ(reasons.size(), 1u);
    EXPECT_EQ(reasons[0].rfind("Language servers (clangd, pylsp) and your MCP servers (fetch) "
                               "start when you trust this project",
                               0),
              0u)
        << reasons[0];
}

} // namespace
} // namespace rio
