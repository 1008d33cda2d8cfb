// client/remote_address: `--connect ssh://…` parsed and refused before ssh runs, the far
// command quoted for a real POSIX shell, RIO_SSH split as a shell would, and ssh's failures
// told apart (DESIGN §22, decision 0060).
#include "client/remote_address.hpp"
#include "providers/registry.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <gtest/gtest.h>

namespace rio::client {
namespace {

using Words = std::vector<std::string>;

RemoteAddress parsed_address(std::string_view spec) {
    auto address = parse_remote_address(spec);
    EXPECT_TRUE(address) << spec << ": " << (address ? "" : address.error().message);
    return address ? *address : RemoteAddress{};
}

std::string refusal_of(std::string_view spec) {
    auto address = parse_remote_address(spec);
    EXPECT_FALSE(address) << spec << " was accepted";
    return address ? "" : address.error().message;
}

// What /bin/sh makes of `printf '%s\n' WORDS`: one line per word it sees.
std::string through_sh(const std::string& words) {
    std::string command = "printf '[%s]\\n' " + words;
    std::string quoted_for_popen = "/bin/sh -c " + shell_quote(command);
    FILE* pipe = ::popen(quoted_for_popen.c_str(), "r");
    EXPECT_NE(pipe, nullptr);
    std::string out;
    std::array<char, 4096> buffer{};
    while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe))
        out.append(buffer.data(), n);
    EXPECT_EQ(::pclose(pipe), 0);
    return out;
}

TEST(RemoteAddress, UserHostPortAndPath) {
    RemoteAddress a = parsed_address("ssh://me@build.example.com:2222/home/me/project");
    EXPECT_EQ(a.user, "me");
    EXPECT_EQ(a.host, "build.example.com");
    ASSERT_TRUE(a.port);
    EXPECT_EQ(*a.port, 2222);
    EXPECT_EQ(a.path, "/home/me/project");
    EXPECT_EQ(to_string(a), "ssh://me@build.example.com:2222/home/me/project");

    RemoteAddress b = parsed_address("ssh://devbox/srv/code");
    EXPECT_EQ(b.user, "");
    EXPECT_EQ(b.host, "devbox");
    EXPECT_FALSE(b.port);
    EXPECT_EQ(b.path, "/srv/code");

    RemoteAddress v6 = parsed_address("ssh://[::1]:22/x");
    EXPECT_EQ(v6.host, "::1");
    EXPECT_EQ(*v6.port, 22);
    EXPECT_EQ(to_string(v6), "ssh://[::1]:22/x");

    // Brackets without a port: the colons are the address's own.
    RemoteAddress bare_v6 = parsed_address("ssh://me@[fe80::1]/srv/code");
    EXPECT_EQ(bare_v6.host, "fe80::1");
    EXPECT_FALSE(bare_v6.port);
    EXPECT_EQ(to_string(bare_v6), "ssh://me@[fe80::1]/srv/code");
}

TEST(RemoteAddress, SpacesAndQuotesInThePathAreTakenLiterally) {
    EXPECT_EQ(parsed_address("ssh://h/home/me/my project").path, "/home/me/my project");
    EXPECT_EQ(parsed_address("ssh://h/home/me/it's \"here\"").path, "/home/me/it's \"here\"");
    EXPECT_EQ(parsed_address("ssh://h/a%20b").path, "/a%20b"); // no %-decoding
}

TEST(RemoteAddress, AnOptionForAHostIsRefused) {
    EXPECT_NE(refusal_of("ssh://-oProxyCommand=touch%20/tmp/x/dir")
                  .find("refusing host '-oProxyCommand=touch%20"),
              std::string::npos);
    EXPECT_NE(refusal_of("ssh://-oProxyCommand=x/dir").find("cannot start with '-'"),
              std::string::npos);
    EXPECT_NE(refusal_of("ssh://-l@host/dir").find("a user cannot start with '-'"),
              std::string::npos);
    EXPECT_NE(refusal_of("ssh://[-oX]/dir").find("cannot start with '-'"), std::string::npos);
}

TEST(RemoteAddress, APathThatIsNotAbsoluteIsRefused) {
    EXPECT_NE(refusal_of("ssh://host").find("no folder after the host"), std::string::npos);
    EXPECT_NE(refusal_of("ssh://host:22").find("no folder after the host"), std::string::npos);
    EXPECT_NE(refusal_of("ssh://host/~/project").find("must be an absolute path"),
              std::string::npos);
    EXPECT_NE(refusal_of("ssh://host/~me/project").find("relative to the far home"),
              std::string::npos);
}

TEST(RemoteAddress, ControlCharactersAreRefused) {
    EXPECT_NE(refusal_of("ssh://host/dir\nrm -rf ~").find("control character (0x0a)"),
              std::string::npos);
    EXPECT_NE(refusal_of("ssh://host/dir\x1b[2J").find("control character (0x1b)"),
              std::string::npos);
    EXPECT_NE(refusal_of(std::string("ssh://ho\0st/d", 13)).find("control character (0x00)"),
              std::string::npos);
    EXPECT_NE(refusal_of("ssh://host/dir\x7f").find("control character (0x7f)"), std::string::npos);
}

TEST(RemoteAddress, OtherMalformedAddressesAreRefused) {
    EXPECT_NE(refusal_of("ssh:///dir").find("no host"), std::string::npos);
    EXPECT_NE(refusal_of("ssh://@host/dir").find("an empty user"), std::string::npos);
    EXPECT_NE(refusal_of("ssh://host:0/dir").find("bad port '0'"), std::string::npos);
    EXPECT_NE(refusal_of("ssh://host:65536/dir").find("bad port"), std::string::npos);
    EXPECT_NE(refusal_of("ssh://host:/dir").find("bad port ''"), std::string::npos);
    EXPECT_NE(refusal_of("ssh://host:22x/dir").find("bad port '22x'"), std::string::npos);
    EXPECT_NE(refusal_of("ssh://ho st/dir").find("a space or quote in the host"),
              std::string::npos);
    EXPECT_NE(refusal_of("ssh://[::1/dir").find("unclosed '['"), std::string::npos);
    EXPECT_FALSE(is_remote_spec("unix:/run/rio.sock"));
    EXPECT_FALSE(is_remote_spec("127.0.0.1:4000"));
    EXPECT_TRUE(is_remote_spec("ssh://h/x"));
}

TEST(ShellQuote, EveryWordReachesARealShellIntact) {
    const Words words{"plain",   "/home/me/my project", "it's",   "\"double\"", "$HOME",     "`id`",
                      "a;b|c&d", "back\\slash",         "*.cpp",  "",           "tab\there", "~",
                      "'''",     "new\nline",           "ünïcødé"};
    std::string line, expected;
    for (const std::string& w : words) {
        line += shell_quote(w) + " ";
        expected += "[" + w + "]\n";
    }
    EXPECT_EQ(through_sh(line), expected);
    EXPECT_EQ(shell_quote("/usr/bin/rio-core"), "/usr/bin/rio-core");
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
    EXPECT_EQ(shell_quote(""), "''");
}

TEST(FarCommand, TheCoreOptionsArePassedOnQuoted) {
    RemoteAddress a = parsed_address("ssh://h/home/me/it's here");
    RemoteLaunch launch;
    launch.provider = "script:/tmp/a b.json";
    launch.model = "claude-x";
    launch.mode = "plan";
    EXPECT_EQ(far_command(a, launch), "rio-core --stdio --project '/home/me/it'\\''s here' "
                                      "--provider 'script:/tmp/a b.json' --model claude-x "
                                      "--mode plan");
    EXPECT_EQ(through_sh(far_command(a, launch)),
              "[rio-core]\n[--stdio]\n[--project]\n[/home/me/it's here]\n[--provider]\n"
              "[script:/tmp/a b.json]\n[--model]\n[claude-x]\n[--mode]\n[plan]\n");
    launch = {};
    launch.core = "~/opt/rio core/bin/rio-core";
    EXPECT_EQ(far_command(parsed_address("ssh://h/p"), launch),
              "~/'opt/rio core/bin/rio-core' --stdio --project /p");
}

TEST(SplitCommandLine, AsAShellSplitsWordsWithoutRunningOne) {
    EXPECT_EQ(*split_command_line("ssh"), Words{"ssh"});
    EXPECT_EQ(*split_command_line("  ssh -F '/tmp/my config'  -o \"User=a b\" "),
              (Words{"ssh", "-F", "/tmp/my config", "-o", "User=a b"}));
    EXPECT_EQ(*split_command_line("a\\ b \"q\\\"x\\$y\" 'no\\escape' $HOME"),
              (Words{"a b", "q\"x$y", "no\\escape", "$HOME"}));
    EXPECT_EQ(*split_command_line("''"), Words{""});
    EXPECT_NE(split_command_line("ssh 'open").error().message.find("unclosed single quote"),
              std::string::npos);
    EXPECT_NE(split_command_line("ssh \"open").error().message.find("unclosed double quote"),
              std::string::npos);
    EXPECT_NE(split_command_line("ssh \\").error().message.find("trailing"), std::string::npos);
    EXPECT_NE(split_command_line("   ").error().message.find("empty command"), std::string::npos);
}

TEST(SshArgv, BatchModeTheHostAfterDoubleDashAndOneFarCommand) {
    RemoteLaunch launch;
    launch.ssh_command = "ssh -F '/tmp/c d'";
    auto argv = ssh_argv(parsed_address("ssh://me@h:2200/srv/x y"), launch);
    ASSERT_TRUE(argv);
    EXPECT_EQ(*argv, (Words{"ssh", "-F", "/tmp/c d", "-T", "-o", "BatchMode=yes", "-o",
                            "ConnectTimeout=15", "-o", "ServerAliveInterval=15", "-o",
                            "ServerAliveCountMax=3", "-p", "2200", "-l", "me", "--", "h",
                            "rio-core --stdio --project '/srv/x y'"}));
    launch.batch = false;
    launch.ssh_command = "ssh";
    EXPECT_EQ(*ssh_argv(parsed_address("ssh://h/p"), launch),
              (Words{"ssh", "-T", "--", "h", "rio-core --stdio --project /p"}));
    launch.ssh_command = "ssh 'x";
    EXPECT_NE(ssh_argv(parsed_address("ssh://h/p"), launch).error().message.find("RIO_SSH"),
              std::string::npos);
}

// Issue 39: ssh hands its environment to a ProxyCommand, a LocalCommand and SendEnv.
TEST(SshEnvironment, HasNoProviderKeyAndKeepsTheRest) {
    const char* env[] = {"PATH=/usr/bin",         "ANTHROPIC_API_KEY=sk-ant",
                         "OPENAI_API_KEY=sk-oai", "MISTRAL_API_KEY=m",
                         "SSH_AUTH_SOCK=/tmp/a",  "ANTHROPIC_BASE_URL=http://x",
                         "NOT_AN_API_KEY_HERE=1", nullptr};
    EXPECT_EQ(ssh_environment(env),
              (Words{"PATH=/usr/bin", "SSH_AUTH_SOCK=/tmp/a", "ANTHROPIC_BASE_URL=http://x",
                     "NOT_AN_API_KEY_HERE=1"}));
}

// The list client/ keeps (it does not link the providers) is theirs.
TEST(SshEnvironment, NamesEveryProvidersKeyVariable) {
    for (const std::string& name : ProviderRegistry::key_variables()) {
        EXPECT_TRUE(hidden_from_ssh(name)) << name;
        const auto& listed = provider_key_variables();
        EXPECT_NE(std::find(listed.begin(), listed.end(), name), listed.end()) << name;
    }
}

TEST(ClassifySshExit, EachFailureItsOwnKindAndMessage) {
    RemoteAddress a = parsed_address("ssh://me@far/p");
    RemoteLaunch launch;
    auto kind = [&](int status, std::string_view err) {
        return classify_ssh_exit(a, launch, status, err);
    };
    RemoteProblem missing = kind(127, "sh: 1: rio-core: not found\n");
    EXPECT_EQ(missing.kind, RemoteFailure::core_missing);
    EXPECT_EQ(missing.message,
              "rio-core not found on far; install rio there or set RIO_REMOTE_CORE");
    EXPECT_EQ(kind(255, "me@far: Permission denied (publickey).\r\n").kind,
              RemoteFailure::auth_refused);
    EXPECT_NE(kind(255, "me@far: Permission denied (publickey).\r\n")
                  .message.find("(ssh: me@far: Permission denied (publickey).)"),
              std::string::npos);
    EXPECT_EQ(kind(255, "No ED25519 host key is known for far and you have requested strict "
                        "checking.\nHost key verification failed.\n")
                  .kind,
              RemoteFailure::host_key);
    RemoteProblem changed =
        kind(255, "@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n"
                  "Host key verification failed.\n");
    EXPECT_EQ(changed.kind, RemoteFailure::host_key);
    EXPECT_NE(changed.message.find("has changed"), std::string::npos);
    EXPECT_NE(changed.message.find("(ssh-keygen -R far)"), std::string::npos);
    RemoteAddress ported = parsed_address("ssh://far:2222/p");
    EXPECT_NE(classify_ssh_exit(ported, launch, 255, "Host key verification failed.\n")
                  .message.find("connect once with `ssh -p 2222 far`"),
              std::string::npos);
    EXPECT_EQ(kind(255, "ssh: Could not resolve hostname far: Name or service not known\n").kind,
              RemoteFailure::host_unreachable);
    EXPECT_EQ(kind(255, "ssh: connect to host far port 22: Connection refused\n").kind,
              RemoteFailure::host_unreachable);
    EXPECT_EQ(kind(255, "ssh: connect to host far port 22: Connection timed out\n").kind,
              RemoteFailure::host_unreachable);
    RemoteProblem other = kind(1, "rio-core: --project /p: no such folder\n");
    EXPECT_EQ(other.kind, RemoteFailure::other);
    EXPECT_EQ(other.message,
              "rio-core on far stopped before it answered (exit 1): rio-core: --project /p: no "
              "such folder");
    EXPECT_NE(kind(255, "ssh: weird\x1b[31m\n").message.find("weird?[31m"), std::string::npos);
}

} // namespace
} // namespace rio::client
