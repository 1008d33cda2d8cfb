// The MCP client's pure parts: the config files in Claude Code's shape with ${VAR}
// expansion, tool names, and the JSON-RPC lines servers send.
#include "host/mcp/mcp_config.hpp"
#include "host/mcp/mcp_wire.hpp"

#include <gtest/gtest.h>
#include <map>

namespace rio {
namespace {

using Json = nlohmann::json;

EnvLookup env_of(std::map<std::string, std::string> vars) {
    return [vars](const std::string& name) -> std::optional<std::string> {
        auto it = vars.find(name);
        return it == vars.end() ? std::nullopt : std::optional(it->second);
    };
}

TEST(McpConfig, ExpandsBracedVariablesAndDefaultsOnly) {
    std::string error;
    auto env = env_of({{"HOME", "/home/u"}, {"EMPTY", ""}});
    EXPECT_EQ(expand_variables("${HOME}/x", env, error), "/home/u/x");
    EXPECT_EQ(expand_variables("${PORT:-8080}", env, error), "8080");
    EXPECT_EQ(expand_variables("${EMPTY:-d}", env, error), ""); // set, though empty
    EXPECT_EQ(expand_variables("$HOME ${ not} ${1X} ${A", env, error), "$HOME ${ not} ${1X} ${A");
    EXPECT_EQ(expand_variables("${UNSET}", env, error), std::nullopt);
    EXPECT_EQ(error, "${UNSET} is not set and has no default (write ${UNSET:-value} for one)");
}

TEST(McpConfig, ReadsStdioAndHttpEntriesAndRiosOptions) {
    auto file = parse_mcp_config(R"({"mcpServers": {
        "fs": {"command": "npx", "args": ["-y", "${ROOT:-.}"], "env": {"K": "${K}"},
               "rio": {"plan": true, "timeout_s": 5}},
        "web": {"type": "http", "url": "https://h/mcp", "headers": {"A": "b"}}}})",
                                 "user", env_of({{"K", "v"}}));
    ASSERT_EQ(file.error, "");
    ASSERT_EQ(file.servers.size(), 2u);
    const McpServerConfig& fs = file.servers[0];
    EXPECT_EQ(fs.name, "fs");
    EXPECT_EQ(fs.argv, (std::vector<std::string>{"npx", "-y", "."}));
    EXPECT_EQ(fs.env, (NameValues{{"K", "v"}}));
    EXPECT_TRUE(fs.plan);
    EXPECT_EQ(fs.timeout, std::chrono::seconds(5));
    EXPECT_EQ(fs.error, "");
    const McpServerConfig& web = file.servers[1];
    EXPECT_TRUE(web.http);
    EXPECT_EQ(web.url, "https://h/mcp");
    EXPECT_FALSE(web.plan); // never the default
}

TEST(McpConfig, EachBadEntrySaysWhatIsWrongAndTheOthersStand) {
    auto file = parse_mcp_config(R"({"mcpServers": {
        "a": {"args": ["x"]}, "b": {"command": 3}, "c": {"command": "x", "rio": {"plan": "yes"}},
        "d": {"command": "x", "args": "x"}, "e": {"type": "sse", "url": "http://h"},
        "f": {"type": "http", "url": "ftp://h"}, "g": {"command": "${NOPE}"}, "ok": {"command": "x"}}})",
                                 "project", env_of({}));
    std::map<std::string, std::string> errors;
    for (const McpServerConfig& s : file.servers)
        errors[s.name] = s.error;
    EXPECT_EQ(errors["a"], "a stdio server needs a command");
    EXPECT_EQ(errors["b"], "command must be a string");
    EXPECT_EQ(errors["c"], "rio.plan must be true or false");
    EXPECT_EQ(errors["d"], "args must be an array of strings");
    EXPECT_EQ(errors["e"], "the old HTTP+SSE transport is not supported; use \"type\": \"http\"");
    EXPECT_EQ(errors["f"], "url must start with http:// or https://");
    EXPECT_EQ(errors["g"],
              "command: ${NOPE} is not set and has no default (write ${NOPE:-value} for one)");
    EXPECT_EQ(errors["ok"], "");
}

TEST(McpConfig, AFileThatIsNotAConfigIsOneError) {
    EXPECT_NE(parse_mcp_config("{", "user", env_of({})).error.find("invalid JSON"),
              std::string::npos);
    EXPECT_EQ(parse_mcp_config("[]", "user", env_of({})).error,
              "the file must hold an object with an \"mcpServers\" object");
    EXPECT_EQ(parse_mcp_config(R"({"mcpServers": []})", "user", env_of({})).error,
              "\"mcpServers\" must be an object: {\"name\": {\"command\": …}}");
    EXPECT_TRUE(parse_mcp_config("{}", "user", env_of({})).servers.empty());
}

TEST(McpConfig, ToolNamesAreWhatProvidersAccept) {
    EXPECT_EQ(mcp_tool_name("fs", "read_text_file"), "mcp__fs__read_text_file");
    EXPECT_EQ(mcp_tool_name("my server", "get.thing/now"), "mcp__my_server__get_thing_now");
}

TEST(McpWire, AToolsPageKeepsUsableToolsAndTheirReadOnlyClaim) {
    std::string why;
    auto page = parse_tools_page(Json::parse(R"({"tools":[
            {"name":"r","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}},
            {"name":"w","inputSchema":{"type":"object"}},
            {"name":"bad","inputSchema":{"type":"string"}}, {"inputSchema":{"type":"object"}}],
            "nextCursor":"p2"})"),
                                 why);
    ASSERT_TRUE(page);
    ASSERT_EQ(page->tools.size(), 2u);
    EXPECT_TRUE(page->tools[0].read_only);
    EXPECT_FALSE(page->tools[1].read_only); // no annotation: not read-only
    EXPECT_EQ(page->next_cursor, "p2");
    EXPECT_EQ(page->skipped.size(), 2u);
    EXPECT_FALSE(parse_tools_page(Json::parse(R"({"tool":[]})"), why));
    EXPECT_EQ(why, "tools/list did not return a list of tools");
}

// A tool with execution.taskSupport "required" refuses every direct call (-32601 "requires
// task augmentation"); it was offered to the model all the same.
TEST(McpWire, AToolThatRunsOnlyAsATaskIsSkippedSayingWhy) {
    std::string why;
    auto page = parse_tools_page(Json::parse(R"({"tools":[
            {"name":"task","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}},
            {"name":"either","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}},
            {"name":"plain","inputSchema":{"type":"object"}}]})"),
                                 why);
    ASSERT_TRUE(page);
    ASSERT_EQ(page->tools.size(), 2u);
    EXPECT_EQ(page->tools[0].name, "either");
    ASSERT_EQ(page->skipped.size(), 1u);
    EXPECT_NE(page->skipped[0].find("task: it runs only as an MCP task"), std::string::npos)
        << page->skipped[0];
}

TEST(McpWire, TheClientDeclaresRootsAndAnswersThemAsFileUris) {
    Json init = mcp_initialize_params("1.0");
    EXPECT_EQ(init["capabilities"], (Json{{"roots", {{"listChanged", true}}}}));
    EXPECT_EQ(mcp_roots(std::nullopt), (Json{{"roots", Json::array()}}));
    Json roots = mcp_roots(std::filesystem::path("/home/a b/projekt-ä"));
    EXPECT_EQ(roots["roots"][0]["uri"], "file:///home/a%20b/projekt-%C3%A4");
    EXPECT_EQ(roots["roots"][0]["name"], "projekt-ä");
}

TEST(McpWire, ProgressNotificationsAreReadWithTheirTokenTotalAndMessage) {
    auto p = parse_progress(
        Json::parse(R"({"progressToken":7,"progress":1.5,"total":3,"message":"half"})"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->token, 7);
    EXPECT_EQ(p->progress, 1.5);
    EXPECT_EQ(p->total, 3.0);
    EXPECT_EQ(p->message, "half");
    auto bare = parse_progress(Json::parse(R"({"progressToken":2,"progress":4})"));
    ASSERT_TRUE(bare);
    EXPECT_FALSE(bare->total);
    EXPECT_FALSE(bare->message);
    for (const char* bad : {R"({"progress":1})", R"({"progressToken":"x","progress":1})",
                            R"({"progressToken":1})", "[]"})
        EXPECT_FALSE(parse_progress(Json::parse(bad))) << bad;
}

TEST(McpWire, ACallResultReadsAsTextWithOtherContentSummarised) {
    McpCallOutcome out = call_outcome(Json::parse(R"({"content":[
        {"type":"text","text":"hi"}, {"type":"audio","mimeType":"audio/wav","data":"AAAA"},
        {"type":"resource","resource":{"uri":"file:///a","text":"body"}},
        {"type":"resource","resource":{"uri":"file:///b","mimeType":"image/gif","blob":"AAAAAAAA"}}],
        "isError":true})"));
    EXPECT_TRUE(out.is_error);
    EXPECT_EQ(out.text, "hi\n[audio: audio/wav, 3 bytes]\n[resource file:///a]\nbody\n"
                        "[resource file:///b: image/gif, 6 bytes]");
    EXPECT_EQ(call_outcome(Json::parse(R"({"content":[],"structuredContent":{"a":1}})")).text,
              R"({"a":1})");
}

} // namespace
} // namespace rio
