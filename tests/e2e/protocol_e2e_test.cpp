// The channel and the protocol's framing, against the real rio-core binary.
#include "protocol/messages.hpp"
#include "tests/support/core_process.hpp"
#include "tests/support/replies.hpp"

#include <arpa/inet.h>
#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>

namespace rio::test {
namespace {

// Starts `rio-core --listen unix:PATH` and waits until it accepts.
struct SocketCore {
    TempDir dir;
    std::string socket = (dir / "core.sock").string();
    CoreProcess core;

    explicit SocketCore(std::vector<std::string> extra = {})
        : core([&] {
              std::vector<std::string> args{"--listen", "unix:" + socket};
              args.insert(args.end(), extra.begin(), extra.end());
              return args;
          }()) {
        core.wait_for_stderr("listening on unix:");
    }
    LineClient connect() { return LineClient::connect_unix(socket); }
};

TEST(ProtocolE2E, HelloOverStdioReportsProtocolNameVersionAndOps) {
    CoreProcess core({});
    Json r = core.stdio().request("session.hello", {{"client", "test"}});
    ASSERT_EQ(r["ok"], true) << r.dump();
    EXPECT_EQ(r["result"]["protocol"], 1);
    EXPECT_EQ(r["result"]["name"], "rio-core");
    EXPECT_FALSE(r["result"]["version"].get<std::string>().empty());
    EXPECT_TRUE(r["result"]["root"].is_null());
    auto ops = r["result"]["ops"];
    for (const char* op :
         {"session.hello", "project.open", "project.close", "project.info", "fs.list", "fs.read",
          "fs.search", "buffer.open", "buffer.text", "buffer.replace", "buffer.save",
          "buffer.close", "buffer.list", "diff.lines"})
        EXPECT_NE(std::find(ops.begin(), ops.end(), op), ops.end()) << op;
}

// DESIGN §2a: session.hello's ops, the typed params structs and docs/protocol.md in step.
TEST(ProtocolE2E, EveryOpIsTypedAndDocumented) {
    CoreProcess core({});
    std::vector<std::string> ops = core.stdio().request("session.hello")["result"]["ops"];
    std::vector<std::string_view> typed = typed_ops();
    std::string reference = read_bytes(std::filesystem::path(RIO_SOURCE_DIR) / "docs/protocol.md");
    for (const std::string& op : ops) {
        EXPECT_NE(std::find(typed.begin(), typed.end(), op), typed.end())
            << op << " has no params struct in protocol/messages.hpp";
        EXPECT_NE(reference.find("`" + op + "`"), std::string::npos)
            << op << " is not in docs/protocol.md";
    }
    for (std::string_view op : typed)
        EXPECT_NE(std::find(ops.begin(), ops.end(), op), ops.end()) << op << " is not served";
}

TEST(ProtocolE2E, MalformedJsonGetsAnErrorAndTheNextRequestIsAnswered) {
    CoreProcess core({});
    core.stdio().send_raw("{\"id\": 1, \"op\": \"session.hel\n");
    Json bad = core.stdio().next_message();
    EXPECT_EQ(bad["ok"], false);
    EXPECT_TRUE(bad["id"].is_null());
    EXPECT_EQ(code_of(bad), "bad_request");
    EXPECT_NE(bad["error"]["message"].get<std::string>().find("invalid JSON"), std::string::npos);
    EXPECT_EQ(core.stdio().request("session.hello")["ok"], true);
}

TEST(ProtocolE2E, UnknownOpIsRefusedByName) {
    CoreProcess core({});
    Json r = core.stdio().request("agent.teleport");
    EXPECT_EQ(code_of(r), "unknown_op");
    EXPECT_EQ(r["error"]["message"], "unknown op 'agent.teleport'");
}

TEST(ProtocolE2E, MissingOpAndBadParamsAreBadRequests) {
    CoreProcess core({});
    core.stdio().send_raw("{\"id\": 5}\n");
    Json r = core.stdio().next_message();
    EXPECT_EQ(r["id"], 5);
    EXPECT_EQ(code_of(r), "bad_request");
    core.stdio().send_raw("{\"id\": 6, \"op\": \"fs.read\", \"params\": \"x\"}\n");
    EXPECT_EQ(code_of(core.stdio().next_message()), "bad_request");
}

TEST(ProtocolE2E, AnOversizeLineIsRefusedAndTheConnectionStaysUsable) {
    CoreProcess core({});
    std::string huge = "{\"id\": 1, \"op\": \"session.hello\", \"params\": {\"pad\": \"" +
                       std::string(17u * 1024 * 1024, 'x') + "\"}}\n";
    std::thread writer([&] { core.stdio().send_raw(huge); });
    Json refused = core.stdio().next_message(30s);
    writer.join();
    EXPECT_EQ(code_of(refused), "bad_request");
    EXPECT_NE(refused["error"]["message"].get<std::string>().find("exceeds the limit of 16777216"),
              std::string::npos)
        << refused.dump();
    EXPECT_EQ(core.stdio().request("session.hello")["ok"], true);
}

TEST(ProtocolE2E, EndOfStdinShutsTheCoreDownCleanly) {
    CoreProcess core({});
    core.stdio().send_raw("{\"id\": 1, \"op\": \"session.hello\"}\n");
    core.stdio().close_writing();
    Json r = core.stdio().next_message();
    EXPECT_EQ(r["ok"], true) << "a request sent just before EOF is still answered";
    EXPECT_EQ(core.wait_exit(), 0);
}

TEST(ProtocolE2E, ALineWithANulByteRunsNothingAndNullParamsAreRefused) {
    TempDir project;
    CoreProcess core({});
    using namespace std::string_literals;
    core.stdio().send_raw(R"({"id": 1, "op": "project.open", "params": {"path": ")" +
                          project.path().string() + R"("}})" + '\0' + "{junk\n"s);
    Json refused = core.stdio().next_message();
    EXPECT_EQ(code_of(refused), "bad_request") << refused.dump();
    EXPECT_NE(refused["error"]["message"].get<std::string>().find("NUL byte"), std::string::npos)
        << refused.dump();
    core.stdio().send_raw(R"({"id": 2, "op": "project.info", "params": null})"
                          "\n");
    Json null_params = core.stdio().response_to(2);
    EXPECT_EQ(code_of(null_params), "bad_request") << null_params.dump();
    EXPECT_TRUE(core.stdio().request("project.info")["result"]["root"].is_null())
        << "the project.open before the NUL did not run";
}

// Every headless run waited 0.9 s at exit: the project watcher's pending read held the loop
// until the exit deadline ended it. With the deadline at an hour, a core that waits for it
// hangs this test until ctest's timeout; one that ends what it holds exits at once.
TEST(ProtocolE2E, EndOfStdinEndsACoreWithAWatchedProjectWithoutWaitingForItsDeadline) {
    TempDir project;
    write_bytes(project / "a.txt", "a\n");
    CoreProcess core({"--project", project.path().string(), "--exit-deadline", "3600"});
    for (;;) { // round trips until the watcher's first pass is done and its read is pending
        Json info = core.stdio().request("project.info");
        ASSERT_EQ(info["ok"], true) << info.dump();
        if (info["result"]["watch"]["complete"] == true) break;
    }
    core.stdio().close_writing();
    EXPECT_EQ(core.wait_exit(std::chrono::hours(1)), 0) << core.stderr_text();
}

TEST(ProtocolE2E, SigtermShutsDownCleanlyAndRemovesTheSocketFile) {
    SocketCore server;
    ASSERT_TRUE(std::filesystem::exists(server.socket));
    ::kill(server.core.pid(), SIGTERM);
    EXPECT_EQ(server.core.wait_exit(), 0);
    EXPECT_FALSE(std::filesystem::exists(server.socket));
}

TEST(ProtocolE2E, TheSocketIsOwnerOnly) {
    SocketCore server;
    auto perms = std::filesystem::status(server.socket).permissions();
    using std::filesystem::perms;
    EXPECT_EQ(perms & (perms::group_all | perms::others_all), perms::none);
}

TEST(ProtocolE2E, TwoSocketClientsBothGetEventsButOnlyTheRequesterGetsTheResponse) {
    SocketCore server;
    TempDir project;
    write_bytes(project / "notes.txt", "one\n");
    LineClient a = server.connect(), b = server.connect();
    ASSERT_EQ(a.request("project.open", {{"path", project.path().string()}})["ok"], true);
    EXPECT_EQ(b.next_event("project.changed")["params"]["root"], project.path().string());
    Json trust = b.next_event("project.trust")["params"];
    EXPECT_EQ(trust["trusted"], false) << "nobody trusted it (issue 26)";
    EXPECT_TRUE(trust["files"].empty()) << "and nothing of it would grant power";
    ASSERT_EQ(a.request("buffer.open", {{"path", "notes.txt"}})["ok"], true);
    for (LineClient* c : {&a, &b})
        ASSERT_EQ(c->next_event("buffer.changed")["params"]["reason"], "opened");

    Json r = a.request("buffer.replace",
                       {{"path", "notes.txt"}, {"start", 0}, {"end", 3}, {"text", "two"}});
    ASSERT_EQ(r["ok"], true) << r.dump();
    for (LineClient* c : {&a, &b}) {
        Json e = c->next_event("buffer.changed");
        EXPECT_EQ(e["params"]["reason"], "edited");
        EXPECT_EQ(e["params"]["text"], "two");
        EXPECT_EQ(e["params"]["version"], 2);
    }
    // What else the open caused goes to both (lsp.changed where a language server is
    // installed: it waits for trust); a's response must not.
    b.drain(0ms);
    EXPECT_TRUE(b.quiet_for(200ms)) << "b must not see a's response";
    EXPECT_EQ(b.request("buffer.text", {{"path", "notes.txt"}})["result"]["text"], "two\n");
}

TEST(ProtocolE2E, AResponsePrecedesTheEventsItsRequestCaused) {
    CoreProcess core({});
    TempDir project;
    core.stdio().send_raw("{\"id\": 1, \"op\": \"project.open\", \"params\": {\"path\": \"" +
                          project.path().string() + "\"}}\n");
    EXPECT_EQ(core.stdio().next_message()["id"], 1);
    EXPECT_EQ(core.stdio().next_message()["event"], "project.changed");
}

TEST(ProtocolE2E, AClientVanishingMidRequestDoesNotHarmTheOther) {
    SocketCore server;
    LineClient survivor = server.connect();
    {
        LineClient quitter = server.connect();
        quitter.send_raw("{\"id\": 1, \"op\": \"session.hel"); // half a request, then gone
    }
    {
        LineClient quitter = server.connect();
        // A whole request whose response has nowhere to go.
        quitter.send_raw("{\"id\": 1, \"op\": \"session.hello\"}\n");
    }
    EXPECT_EQ(survivor.request("session.hello")["ok"], true);
    LineClient late = server.connect();
    EXPECT_EQ(late.request("session.hello")["ok"], true);
    EXPECT_FALSE(server.core.wait_exit(0ms).has_value()) << "the core kept running";
}

TEST(ProtocolE2E, StdioAndSocketClientsShareOneCore) {
    TempDir dir;
    std::string socket = (dir / "core.sock").string();
    CoreProcess core({"--stdio", "--listen", "unix:" + socket});
    core.wait_for_stderr("listening on");
    LineClient remote = LineClient::connect_unix(socket);
    TempDir project;
    ASSERT_EQ(remote.request("project.open", {{"path", project.path().string()}})["ok"], true);
    EXPECT_EQ(core.stdio().next_event("project.changed")["params"]["name"],
              project.path().filename().string());
    EXPECT_EQ(core.stdio().request("session.hello")["result"]["root"], project.path().string());
}

// rio-core on loopback TCP with a private runtime folder for its token file.
struct TcpCore {
    TempDir runtime;
    CoreProcess core{{"--listen", "127.0.0.1:0"}, {"XDG_RUNTIME_DIR=" + runtime.path().string()}};
    int port = 0;
    std::string token_file;

    TcpCore() {
        std::string err = core.wait_for_stderr("listening on 127.0.0.1:");
        port = std::stoi(err.substr(err.find("127.0.0.1:") + 10));
        auto at = err.find("(token in ") + 10;
        token_file = err.substr(at, err.find(')', at) - at);
    }
    std::string token() const { return read_bytes(token_file).substr(0, 64); }
    LineClient connect() const {
        int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<uint16_t>(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        return LineClient(fd, ::dup(fd));
    }
};

TEST(ProtocolE2E, LoopbackTcpWorksOnAnEphemeralPort) {
    TcpCore tcp;
    ASSERT_GT(tcp.port, 0);
    LineClient client = tcp.connect();
    EXPECT_EQ(client.request("session.hello", {{"token", tcp.token()}})["result"]["name"],
              "rio-core");
    EXPECT_EQ(client.request("project.info")["error"]["code"], "no_project") << "admitted";
}

// Hole 4 of the trust issue: a web page's fetch() POSTed lines that the core executed.
TEST(ProtocolE2E, ATcpListenerAdmitsOnlyAHelloWithItsToken) {
    TcpCore tcp;
    struct stat st {};
    ASSERT_EQ(::stat(tcp.token_file.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << "only the user may read the token";
    EXPECT_EQ(tcp.token().size(), 64u);

    LineClient web = tcp.connect(); // what a browser sends for fetch(url, {method: "POST"})
    web.send_raw("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n\r\n"
                 R"({"id":1,"op":"project.open","params":{"path":"/"}})"
                 "\n");
    EXPECT_FALSE(web.next_line().has_value()) << "closed without a word";
    EXPECT_TRUE(web.at_eof());

    LineClient no_token = tcp.connect();
    no_token.send_raw(R"({"id":1,"op":"project.open","params":{"path":"/"}})"
                      "\n");
    Json refused = no_token.next_message();
    EXPECT_EQ(refused["error"]["code"], "refused");
    EXPECT_NE(refused["error"]["message"].get<std::string>().find("token"), std::string::npos);
    EXPECT_FALSE(no_token.next_line().has_value());

    LineClient wrong = tcp.connect();
    Json bad = wrong.request("session.hello", {{"token", std::string(64, '0')}});
    EXPECT_EQ(bad["error"]["code"], "refused");

    LineClient right = tcp.connect();
    EXPECT_EQ(right.request("session.hello", {{"token", tcp.token()}})["ok"], true);
    EXPECT_TRUE(right.request("session.hello")["result"]["root"].is_null())
        << "no project was opened by the refused clients";
}

TEST(ProtocolE2E, ANonLoopbackAddressIsRefusedWithoutListenAny) {
    CoreProcess core({"--listen", "0.0.0.0:0"});
    EXPECT_EQ(core.wait_exit(), 2);
    EXPECT_NE(core.stderr_text().find("refusing to listen on non-loopback address 0.0.0.0"),
              std::string::npos)
        << core.stderr_text();
}

TEST(ProtocolE2E, ListenAnyAllowsANonLoopbackAddress) {
    CoreProcess core({"--listen", "0.0.0.0:0", "--listen-any"});
    EXPECT_NE(core.wait_for_stderr("listening on 0.0.0.0:").size(), 0u);
}

TEST(ProtocolE2E, AStaleSocketFileIsReplacedButALiveOneIsNotStolen) {
    SocketCore first;
    CoreProcess second({"--listen", "unix:" + first.socket});
    EXPECT_EQ(second.wait_exit(), 2);
    EXPECT_NE(second.stderr_text().find("another process is listening on"), std::string::npos);

    ::kill(first.core.pid(), SIGKILL); // leaves its socket file behind
    first.core.wait_exit();
    ASSERT_TRUE(std::filesystem::exists(first.socket));
    CoreProcess third({"--listen", "unix:" + first.socket});
    third.wait_for_stderr("listening on");
    EXPECT_EQ(LineClient::connect_unix(first.socket).request("session.hello")["ok"], true);
}

TEST(ProtocolE2E, HelpAndVersionExitZero) {
    CoreProcess help({"--help"});
    EXPECT_EQ(help.wait_exit(), 0);
    std::string usage;
    while (auto line = help.stdio().next_line(1s))
        usage += *line + "\n";
    EXPECT_NE(usage.find("--listen"), std::string::npos) << usage;
    EXPECT_NE(usage.find("--project"), std::string::npos) << usage;
    CoreProcess version({"--version"});
    EXPECT_EQ(version.wait_exit(), 0);
    EXPECT_EQ(version.stdio().next_line(1s).value_or("").rfind("rio-core ", 0), 0u);
}

} // namespace
} // namespace rio::test
