// The core survives what a client, a provider or a command throws at it (issue 9): each
// hostile input gets a clear error, the connection stays usable, and nothing is lost.
#include "tests/support/agent_session.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

std::string nested(std::size_t depth) {
    return std::string(depth, '[') + std::string(depth, ']');
}

Json tool(const std::string& name, Json input) {
    return {{"name", name}, {"input", input}};
}

TEST(SurvivalE2E, OneLineWithAnOverflowingNumberDoesNotKillTheCore) {
    CoreProcess core({});
    core.stdio().send_raw(R"({"id":1,"op":"session.hello","params":{"x":1E400}})"
                          "\n");
    Json r = core.stdio().next_message();
    EXPECT_EQ(r["ok"], false);
    EXPECT_EQ(r["error"]["code"], "bad_request");
    EXPECT_EQ(r["error"]["message"], "invalid JSON: number overflow parsing '1E400'");
    EXPECT_EQ(core.stdio().request("session.hello")["ok"], true);
}

TEST(SurvivalE2E, DeepNestingInParamsOrIdIsABadRequest) {
    CoreProcess core({});
    core.stdio().send_raw(R"({"id":2,"op":"session.hello","params":{"a":)" + nested(90'000) +
                          "}}\n");
    Json in_params = core.stdio().next_message();
    EXPECT_EQ(in_params["error"]["message"], "JSON nested deeper than 256 levels");
    core.stdio().send_raw(R"({"id":)" + nested(90'000) +
                          R"(,"op":"session.hello"})"
                          "\n");
    EXPECT_EQ(core.stdio().next_message()["error"]["code"], "bad_request");
    EXPECT_EQ(core.stdio().request("session.hello")["ok"], true);
}

TEST(SurvivalE2E, AFifoInTheProjectIsRefusedAndNothingFreezes) {
    AgentSession s(Json::array({{{"tools", {tool("read_file", {{"path", "pipe"}})}}}}));
    ASSERT_EQ(::mkfifo((s.project() / "pipe").c_str(), 0600), 0);
    Json r = s.request("fs.read", {{"path", "pipe"}});
    EXPECT_EQ(r["error"]["code"], "refused") << r.dump();
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    s.send("read the pipe");
    Json result = s.wait("agent.tool_result");
    EXPECT_EQ(result["ok"], false);
    EXPECT_NE(result["content"].get<std::string>().find("not a regular file"), std::string::npos)
        << result.dump();
    s.wait("agent.done");
    EXPECT_EQ(s.request("session.hello")["ok"], true);
}

} // namespace
} // namespace rio::test
