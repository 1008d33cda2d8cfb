// Network by host (issue 45, DESIGN §19): a build-mode command a person approved with some
// hosts reaches those through rio's proxy, and nothing else — not the same loopback server
// asked for by another name, not another host, not anything that ignores the proxy. Standing
// hosts come from the user's config.json only. Where no namespace can be made the network
// stays all or nothing and a host list is refused, saying why. A real rio-core, a real
// kernel, a real HTTP server on loopback.
#include "tests/support/agent_session.hpp"
#include "tests/support/environment.hpp"
#include "tests/support/script_steps.hpp"

#include <arpa/inet.h>
#include <atomic>
#include <gtest/gtest.h>
#include <mutex>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace rio::test {
namespace network_hosts {

namespace fs = std::filesystem;

// An HTTP server on 127.0.0.1 that answers every request "hello from loopback" and keeps
// each request line it was sent.
class LoopbackHttp {
public:
    LoopbackHttp() {
        listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in at{};
        at.sin_family = AF_INET;
        at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof at;
        if (::bind(listener_, reinterpret_cast<sockaddr*>(&at), sizeof at) != 0 ||
            ::listen(listener_, 16) != 0 ||
            ::getsockname(listener_, reinterpret_cast<sockaddr*>(&at), &size) != 0)
            ADD_FAILURE() << "no loopback server";
        port_ = ntohs(at.sin_port);
        serving_ = std::thread([this] { serve(); });
    }
    ~LoopbackHttp() {
        ::shutdown(listener_, SHUT_RDWR);
        serving_.join();
        ::close(listener_);
    }
    int port() const { return port_; }
    std::vector<std::string> requests() const {
        std::lock_guard lock(mutex_);
        return requests_;
    }

private:
    void serve() {
        for (int c; (c = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC)) >= 0;) {
            std::string head;
            char buffer[4096];
            for (ssize_t n; head.find("\r\n\r\n") == std::string::npos &&
                            (n = ::recv(c, buffer, sizeof buffer, 0)) > 0;)
                head.append(buffer, static_cast<std::size_t>(n));
            {
                std::lock_guard lock(mutex_);
                requests_.push_back(head.substr(0, head.find("\r\n")));
            }
            const std::string reply = "HTTP/1.1 200 OK\r\nContent-Length: 19\r\nConnection: "
                                      "close\r\n\r\nhello from loopback";
            (void)!::send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
            ::close(c);
        }
    }

    int listener_ = -1, port_ = 0;
    std::thread serving_;
    mutable std::mutex mutex_;
    std::vector<std::string> requests_;
};

// A command that fetches `url` with Python's urllib, which takes its proxy from the
// environment as curl, pip and git do, and prints the body, the HTTP error or the failure.
Json fetch(const std::string& url, const std::vector<std::string>& hosts = {}) {
    const std::string script = "import urllib.request as u, urllib.error as e\n"
                               "try: print(u.urlopen('" +
                               url +
                               "', timeout=20).read().decode())\n"
                               "except e.HTTPError as x: print('HTTP', x.code, x.read().decode())\n"
                               "except Exception as x: print('FAILED', x)\n";
    Json input{{"argv", {"/usr/bin/python3", "-I", "-S", "-c", script}}};
    if (!hosts.empty()) input["hosts"] = hosts;
    return tool("run_command", input);
}

// One that ignores the proxy and connects straight to the loopback server.
Json connect_directly(int port) {
    return tool(
        "run_command",
        {{"argv",
          {"/usr/bin/python3", "-I", "-S", "-c",
           "import socket\ntry: socket.create_connection(('127.0.0.1', " + std::to_string(port) +
               "), 5); print('CONNECTED')\nexcept Exception as x: print('FAILED', x)\n"}},
         {"hosts", {"localhost"}}});
}

std::string content_of(const Json& result) {
    return result.value("content", std::string());
}

// Approves the proposal that comes next with `extra`, and returns the tool's result.
Json approve(AgentSession& s, long turn, const Json& extra = Json::object()) {
    s.wait("agent.propose");
    Json params{{"turn", turn}, {"decision", "approve"}};
    params.update(extra);
    Json answer = s.request("agent.approve", params);
    EXPECT_EQ(answer["ok"], true) << answer.dump();
    return s.client().next_event("agent.tool_result", std::chrono::seconds(60))["params"];
}

bool by_host(AgentSession& s) {
    return s.request("agent.status")["result"]["sandbox"].value("network", "") == "by-host";
}

TEST(NetworkHostsE2E, ACommandReachesTheHostsApprovedForItThroughTheProxyAndNothingElse) {
    LoopbackHttp server;
    const std::string port = std::to_string(server.port());
    AgentSession s(Json::array(
        {step({fetch("http://localhost:" + port + "/a", {"localhost"}),
               fetch("http://127.0.0.1:" + port + "/b", {"localhost"}),
               fetch("http://elsewhere.example:" + port + "/c"), connect_directly(server.port()),
               fetch("http://localhost:" + port + "/e")}),
         text_step("done")}));
    ASSERT_TRUE(s.sandboxed());
    ASSERT_TRUE(by_host(s)) << "this kernel makes user namespaces: hosts can be told apart "
                            << s.request("agent.status").dump();
    long turn = s.send("fetch");

    // What is no host is refused, and the proposal waits on.
    s.wait("agent.propose");
    for (const auto& [host, words] :
         std::vector<std::pair<std::string, std::string>>{{"*", "every host"},
                                                          {"https://localhost/", "URL"},
                                                          {"10.0.0.0/8", "range"},
                                                          {"localhost:8080", "port"}}) {
        Json refused = s.request("agent.approve",
                                 {{"turn", turn}, {"decision", "approve"}, {"network", {host}}});
        EXPECT_EQ(refused["ok"], false) << host;
        EXPECT_NE(refused["error"]["message"].get<std::string>().find(words), std::string::npos)
            << refused.dump();
    }
    Json answer = s.request("agent.approve",
                            {{"turn", turn}, {"decision", "approve"}, {"network", {"localhost"}}});
    ASSERT_EQ(answer["ok"], true) << answer.dump();
    Json decided = s.wait("agent.decided");
    EXPECT_EQ(decided["network"], Json::array({"localhost"}));
    Json named = s.client().next_event("agent.tool_result", std::chrono::seconds(60))["params"];
    EXPECT_NE(content_of(named).find("hello from loopback"), std::string::npos) << named.dump();
    EXPECT_EQ(named["sandbox"]["hosts"], Json::array({"localhost"}));
    EXPECT_NE(content_of(named).find("network only to localhost"), std::string::npos);
    ASSERT_EQ(server.requests().size(), 1u);
    EXPECT_EQ(server.requests()[0], "GET /a HTTP/1.1") << "origin form, through the proxy";

    Json by_address = approve(s, turn, {{"network", {"localhost"}}});
    EXPECT_NE(content_of(by_address).find("HTTP 403 rio: 127.0.0.1 is not among the hosts"),
              std::string::npos)
        << by_address.dump();
    EXPECT_NE(content_of(by_address).find("[rio's proxy refused: 127.0.0.1"), std::string::npos)
        << by_address.dump();

    Json other = approve(s, turn, {{"network", {"localhost"}}});
    EXPECT_NE(content_of(other).find("HTTP 403 rio: elsewhere.example is not among"),
              std::string::npos)
        << other.dump();

    Json direct = approve(s, turn, {{"network", {"localhost"}}});
    EXPECT_EQ(direct["output"], "FAILED [Errno 111] Connection refused\n") << direct.dump();
    EXPECT_NE(content_of(direct).find("nothing else is reachable"), std::string::npos)
        << "the result says only the proxy is reachable: " << direct.dump();

    Json without = approve(s, turn);
    EXPECT_NE(content_of(without).find("FAILED"), std::string::npos) << without.dump();
    EXPECT_EQ(without["sandbox"].count("hosts"), 0u) << without.dump();
    s.wait("agent.done");
    EXPECT_EQ(server.requests().size(), 1u) << "only the approved host's one request arrived";
}

// Standing hosts: the user's config.json's apply to every approved build-mode command; a
// project's file cannot add one; "always" adds the hosts to the user's file.
TEST(NetworkHostsE2E, StandingHostsComeFromTheUsersConfigOnlyAndAlwaysKeepsThem) {
    LoopbackHttp server;
    const std::string port = std::to_string(server.port());
    auto session = AgentSession::prepared([&](const AgentSession& a) {
        write_bytes(a.config() / "config.json",
                    "{\"sandbox\": {\"hosts\": [\"LOCALHOST.\", \"*\"]}, \"pass_env\": []}\n");
        for (const char* file : {".rio/config.json", ".rio/settings.json", "config.json"})
            write_bytes(a.project() / file, "{\"sandbox\": {\"hosts\": [\"127.0.0.1\"]}}\n");
        return Json::array({step({fetch("http://localhost:" + port + "/standing"),
                                  fetch("http://127.0.0.1:" + port + "/project"),
                                  fetch("http://127.0.0.1:" + port + "/kept", {"127.0.0.1"}),
                                  fetch("http://127.0.0.1:" + port + "/later")}),
                            text_step("done")});
    });
    AgentSession& s = *session;
    ASSERT_TRUE(s.sandboxed());
    ASSERT_TRUE(by_host(s)) << s.request("agent.status").dump();
    Json sandbox = s.request("agent.status")["result"]["sandbox"];
    EXPECT_EQ(sandbox["hosts"], Json::array({"localhost"})) << "\"*\" is left out: " << sandbox;
    long turn = s.send("fetch");

    Json proposal = s.wait("agent.propose");
    EXPECT_EQ(proposal["sandbox"]["hosts"], Json::array({"localhost"})) << proposal.dump();
    EXPECT_EQ(s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}})["ok"], true);
    Json standing = s.client().next_event("agent.tool_result", std::chrono::seconds(60))["params"];
    EXPECT_NE(content_of(standing).find("hello from loopback"), std::string::npos)
        << standing.dump();

    Json project = approve(s, turn);
    EXPECT_NE(content_of(project).find("HTTP 403 rio: 127.0.0.1 is not among"), std::string::npos)
        << "a project's file adds no host: " << project.dump();

    Json kept = approve(s, turn, {{"network", {"127.0.0.1"}}, {"keep_hosts", true}});
    EXPECT_NE(content_of(kept).find("hello from loopback"), std::string::npos) << kept.dump();
    Json later = approve(s, turn);
    EXPECT_NE(content_of(later).find("hello from loopback"), std::string::npos) << later.dump();
    s.wait("agent.done");
    EXPECT_EQ(s.request("agent.status")["result"]["sandbox"]["hosts"],
              Json::array({"localhost", "127.0.0.1"}));
    Json config = Json::parse(read_bytes(s.config() / "config.json"));
    EXPECT_EQ(config["sandbox"]["hosts"], Json::array({"LOCALHOST.", "*", "127.0.0.1"}));
    EXPECT_EQ(config["pass_env"], Json::array()) << "the rest of the file is kept";
    std::vector<std::string> paths;
    for (const std::string& line : server.requests())
        paths.push_back(line.substr(4, line.find(' ', 4) - 4));
    EXPECT_EQ(paths, (std::vector<std::string>{"/standing", "/kept", "/later"}));
}

// Where no namespace can be made, hosts cannot be told apart: the status says why, a host
// list is refused with that reason, and the whole network or none is what a person gets.
TEST(NetworkHostsE2E, WithoutNamespacesTheNetworkIsAllOrNothingAndSaysWhy) {
    LoopbackHttp server;
    const std::string port = std::to_string(server.port());
    auto session = AgentSession::through(
        RIO_WITHOUT_NAMESPACES,
        Json::array(
            {step({fetch("http://localhost:" + port + "/x", {"localhost"})}), text_step("done")}),
        [](const AgentSession& a) {
            write_bytes(a.config() / "config.json", "{\"sandbox\": {\"hosts\": [\"localhost\"]}}");
            return std::vector<std::string>{};
        });
    AgentSession& s = *session;
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "build"}})["ok"], true);
    ASSERT_TRUE(s.sandboxed());
    Json sandbox = s.request("agent.status")["result"]["sandbox"];
    EXPECT_EQ(sandbox["network"], "all-or-nothing") << sandbox;
    EXPECT_NE(sandbox["network_reason"].get<std::string>().find("no network namespace"),
              std::string::npos)
        << sandbox;
    long turn = s.send("fetch");
    Json proposal = s.wait("agent.propose");
    EXPECT_EQ(proposal["sandbox"].count("hosts"), 0u) << "no standing host pretends to apply";
    Json refused = s.request("agent.approve",
                             {{"turn", turn}, {"decision", "approve"}, {"network", {"localhost"}}});
    EXPECT_EQ(refused["ok"], false);
    EXPECT_NE(refused["error"]["message"].get<std::string>().find("cannot be limited"),
              std::string::npos)
        << refused.dump();
    EXPECT_EQ(s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}})["ok"], true);
    Json plain = s.client().next_event("agent.tool_result", std::chrono::seconds(60))["params"];
    EXPECT_NE(content_of(plain).find("FAILED"), std::string::npos) << plain.dump();
    s.wait("agent.done");
    EXPECT_TRUE(server.requests().empty());
}

} // namespace network_hosts
} // namespace rio::test
