// acp/: JSON-RPC lines and the shapes of ACP updates, without a process (the real client
// library drives rio-acp in tests/acp).
#include "acp/acp_lines.hpp"
#include "acp/mcp_servers.hpp"
#include "acp/updates.hpp"

#include <gtest/gtest.h>

namespace rio::acp {
namespace {

// ACP's own rule over JSON-RPC's (json_rpc_test): params are an object, {} when absent.
TEST(AcpLines, ParamsAreAnObjectOrNothing) {
    auto code_of = [](std::string_view line) {
        auto message = parse_line(line);
        auto* bad = std::get_if<jsonrpc::Invalid>(&message);
        return bad ? bad->code : 0;
    };
    EXPECT_EQ(code_of(R"({"jsonrpc":"2.0","id":1,"method":"x","params":[1]})"),
              jsonrpc::code::invalid_params);
    EXPECT_EQ(code_of("{oops"), jsonrpc::code::parse_error);
    auto request = parse_line(R"({"jsonrpc":"2.0","id":"a","method":"session/new"})");
    ASSERT_TRUE(std::holds_alternative<jsonrpc::Request>(request));
    EXPECT_EQ(std::get<jsonrpc::Request>(request).params, Json::object());
    auto null_params = parse_line(R"({"jsonrpc":"2.0","method":"session/cancel","params":null})");
    EXPECT_EQ(std::get<jsonrpc::Request>(null_params).params, Json::object());
    EXPECT_EQ(line_of(jsonrpc::result(1, Json::object())),
              "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}\n");
}

Proposal plan() {
    return Proposal{1, "call_1", PlanProposal{"Shout", "1. Shout", "", "", ""}};
}

TEST(AcpUpdates, APlanAsksWithThreeAnswersAndIsNeverApprovedByItself) {
    Json request = permission_request("s1", plan(), "/p");
    EXPECT_EQ(request["toolCall"]["kind"], "switch_mode");
    EXPECT_EQ(request["toolCall"]["content"][0]["content"]["text"], "1. Shout");
    ASSERT_EQ(request["options"].size(), 3u);
    EXPECT_EQ(request["options"][0]["kind"], "allow_always");
    EXPECT_EQ(choice_of(plan(), "auto")->policy, ApprovalPolicy::automatic);
    EXPECT_EQ(choice_of(plan(), "review")->policy, ApprovalPolicy::review);
    EXPECT_EQ(choice_of(plan(), "reject")->decision, Verdict::reject);
    EXPECT_FALSE(choice_of(plan(), "allow")); // not an answer a plan offers
}

// Issue 44: the plan's review threads are shown with their states and replies, control
// characters made spaces, and the approve options say how many are still open.
TEST(AcpUpdates, APlansThreadsShowWithTheirStatesAndTheOptionsSayHowManyAreOpen) {
    PlanProposal revised{"Shout", "1. Shout loud", "", "", ""};
    revised.comments = {{"c1",
                         "1. Shout",
                         1,
                         {},
                         "how loud?",
                         CommentAuthor::person,
                         {{CommentAuthor::model, "very\x1b[2J loud"}},
                         CommentState::answered,
                         std::nullopt},
                        {"c2",
                         "2. Test",
                         {},
                         {},
                         "which tests?",
                         CommentAuthor::person,
                         {},
                         CommentState::open,
                         true}};
    Json request = permission_request("s1", Proposal{1, "call_1", revised}, "/p");
    const Json& content = request["toolCall"]["content"];
    ASSERT_EQ(content.size(), 2u) << content.dump();
    EXPECT_EQ(content[1]["content"]["text"],
              "Review comments:\nc1 (answered) on line 1 «1. Shout»: how loud?\n  model: very [2J "
              "loud\nc2 (open, passage gone) «2. Test»: which tests?\n");
    EXPECT_EQ(request["options"][0]["name"],
              "Yes, and auto-accept edits (1 comment is still open)");
    EXPECT_EQ(request["options"][1]["name"], "Yes, and review each edit (1 comment is still open)");
    EXPECT_EQ(request["options"][2]["name"], "No, keep planning");
}

TEST(AcpUpdates, AnEditShowsItsDiffWithAbsolutePaths) {
    Proposal edit{0, "call_2", EditProposal{"src/a.py", "", "a", "b"}};
    Json request = permission_request("s1", edit, "/p");
    const Json& diff = request["toolCall"]["content"][0];
    EXPECT_EQ(diff["type"], "diff");
    EXPECT_EQ(diff["path"], "/p/src/a.py");
    EXPECT_EQ(diff["oldText"], "a");
    EXPECT_EQ(diff["newText"], "b");
    std::get<EditProposal>(edit.body).before.reset();
    Json created = permission_request("s1", edit, "/p");
    EXPECT_FALSE(created["toolCall"]["content"][0].contains("oldText")); // a new file
}

// DESIGN §19: a sandboxed command says so, and may be let out for this one call.
TEST(AcpUpdates, ACommandSaysItsSandboxAndOffersToWidenItOnce) {
    Proposal command{
        0, "call_3",
        CommandProposal{{"make", "test"},
                        ".",
                        120,
                        false,
                        SandboxUse{SandboxProfile::workspace_write, false, std::nullopt}}};
    Json request = permission_request("s1", command, "/p");
    EXPECT_EQ(request["toolCall"]["content"][0]["content"]["text"],
              "$ make test\n(sandboxed: workspace-write, no network)");
    std::vector<std::string> ids;
    for (const Json& o : request["options"])
        ids.push_back(o["optionId"]);
    EXPECT_EQ(ids, (std::vector<std::string>{"allow", "allow_network", "allow_unsandboxed",
                                             "allow_environment", "reject"}));
    EXPECT_TRUE(choice_of(command, "allow_environment")->environment);
    EXPECT_FALSE(choice_of(command, "allow_environment")->network.any());
    EXPECT_TRUE(choice_of(command, "allow_network")->network.everything);
    EXPECT_FALSE(choice_of(command, "allow_network")->unsandboxed);
    EXPECT_TRUE(choice_of(command, "allow_unsandboxed")->unsandboxed);
    EXPECT_FALSE(choice_of(command, "allow")->network.any());
    EXPECT_FALSE(choice_of(command, "allow_hosts")) << "it asked for no hosts";
    EXPECT_FALSE(choice_of(plan(), "allow_unsandboxed")) << "only a command leaves the sandbox";
    std::get<CommandProposal>(command.body).sandbox = SandboxUse{SandboxProfile::none, false};
    EXPECT_EQ(permission_request("s1", command, "/p")["options"].size(), 2u)
        << "nothing to widen without the sandbox";
    // Issue 45: the hosts it asks for, once or always, where the core can tell hosts apart.
    auto& asking = std::get<CommandProposal>(command.body);
    asking.sandbox = SandboxUse{SandboxProfile::workspace_write, false, std::nullopt};
    asking.hosts = {"registry.npmjs.org"};
    Json hosts = permission_request("s1", command, "/p", /*by_host=*/true);
    EXPECT_EQ(hosts["toolCall"]["content"][0]["content"]["text"],
              "$ make test\n(sandboxed: workspace-write, no network)\nIt asks for the network to "
              "registry.npmjs.org");
    EXPECT_EQ(hosts["options"][1]["optionId"], "allow_hosts");
    EXPECT_EQ(hosts["options"][2]["optionId"], "allow_hosts_always");
    EXPECT_EQ(hosts["options"][2]["kind"], "allow_always");
    EXPECT_EQ(permission_request("s1", command, "/p", false)["options"][1]["optionId"],
              "allow_network")
        << "where hosts cannot be told apart, only all or nothing is offered";
    EXPECT_EQ(choice_of(command, "allow_hosts")->network.items,
              std::vector<std::string>{"registry.npmjs.org"});
    EXPECT_FALSE(choice_of(command, "allow_hosts")->keep_hosts);
    EXPECT_TRUE(choice_of(command, "allow_hosts_always")->keep_hosts);
    EXPECT_FALSE(choice_of(command, "allow_hosts_always")->network.everything);
    ToolEvent planned;
    planned.name = "run_command";
    planned.input = {{"argv", {"git", "log"}}};
    planned.sandbox = SandboxUse{SandboxProfile::read_only, false, std::nullopt};
    EXPECT_EQ(tool_call(planned, "/p")["title"], "run git log (sandboxed: read-only, no network)");
}

TEST(AcpUpdates, ToolCallsHaveATitleAKindAndLocations) {
    ToolEvent t;
    t.id = "c";
    t.name = "search";
    t.input = {{"pattern", "TODO"}, {"path", "src"}};
    Json call = tool_call(t, "/p");
    EXPECT_EQ(call["title"], "search \"TODO\" in src");
    EXPECT_EQ(call["kind"], "search");
    EXPECT_EQ(call["locations"][0]["path"], "/p/src");
    t.name = "mcp__x__y";
    EXPECT_EQ(tool_call(t, "/p")["kind"], "other");
}

TEST(AcpMcpServers, EntriesBecomeTheConfigShapeAndAnEntryThatDoesNotFitIsNamedByField) {
    McpServersError error;
    Json servers = mcp_servers_of(Json::parse(R"([
        {"name": "fs", "command": "/bin/fs", "args": ["-v"], "env": [{"name": "A", "value": "1"}]},
        {"name": "web", "type": "http", "url": "http://127.0.0.1:1/mcp", "headers": null},
        {"name": "bare", "command": "/bin/bare"}])"),
                                  error);
    EXPECT_TRUE(error.field.empty()) << error.message;
    EXPECT_EQ(servers["fs"],
              (Json{{"command", "/bin/fs"}, {"args", {"-v"}}, {"env", {{"A", "1"}}}}));
    EXPECT_EQ(servers["web"]["headers"], Json::object());
    EXPECT_EQ(servers["bare"]["args"], Json::array());
    for (auto [list, field] : std::vector<std::pair<const char*, const char*>>{
             {R"([{"name": "x"}])", "mcpServers[0].command"},
             {R"([{"name": "x", "command": ""}])", "mcpServers[0].command"},
             {R"([{"command": "/bin/x"}])", "mcpServers[0].name"},
             {R"([{"name": "x", "command": "/x"}, {"name": "x", "command": "/y"}])",
              "mcpServers[1].name"},
             {R"([{"name": "x", "command": "/x", "args": "-v"}])", "mcpServers[0].args"},
             {R"([{"name": "x", "command": "/x", "env": [{"name": "A", "value": 1}]}])",
              "mcpServers[0].env[0].value"},
             {R"([{"name": "x", "type": "http"}])", "mcpServers[0].url"},
             {R"([{"name": "x", "type": "sse", "url": "http://h"}])", "mcpServers[0].type"},
             {R"([7])", "mcpServers[0]"}}) {
        McpServersError e;
        mcp_servers_of(Json::parse(list), e);
        EXPECT_EQ(e.field, field) << list;
        EXPECT_TRUE(e.message.starts_with(field)) << e.message;
    }
}

TEST(AcpUpdates, ACallsProgressIsAnUpdateInProgressThatItsResultReplaces) {
    Json update = tool_call_progress(ToolProgressEvent{1, "c", 2, 5.0, "indexing"});
    EXPECT_EQ(update["sessionUpdate"], "tool_call_update");
    EXPECT_EQ(update["toolCallId"], "c");
    EXPECT_EQ(update["status"], "in_progress");
    EXPECT_EQ(update["content"][0]["content"]["text"], "2 of 5 · indexing");
}

// DESIGN §20, decision 0064: ACP has pending, in_progress and completed; skipped is
// completed, and says so.
TEST(AcpUpdates, ThePlansStepsAreAPlanUpdateAndSkippedIsCompletedInWords) {
    PlanProgressEvent e{3,
                        ".rio/plans/p.md",
                        {{1, "Edit", "done", std::nullopt},
                         {2, "Test", "in_progress", std::nullopt},
                         {3, "Docs", "skipped", std::string("none here")},
                         {4, "Ship", "pending", std::nullopt}},
                        {"x.txt"}};
    Json update = plan_update(e);
    EXPECT_EQ(update["sessionUpdate"], "plan");
    ASSERT_EQ(update["entries"].size(), 4u);
    EXPECT_EQ(update["entries"][0],
              (Json{{"content", "Edit"}, {"priority", "medium"}, {"status", "completed"}}));
    EXPECT_EQ(update["entries"][1]["status"], "in_progress");
    EXPECT_EQ(update["entries"][2]["status"], "completed");
    EXPECT_EQ(update["entries"][2]["content"], "Docs (skipped: none here)");
    EXPECT_EQ(update["entries"][3]["status"], "pending");
}

TEST(AcpUpdates, ACommandsOutputIsItsResultsContent) {
    ToolResultEvent r;
    r.id = "c";
    r.name = "run_command";
    r.ok = false;
    r.content = "$ python3 -m unittest\n...\n[exit code 1 · 0.2 s]";
    r.exit = CommandExit{1, std::nullopt, false, false, 0.2};
    r.output = "\x1b[31mFAIL: test_x\x1b[0m\n```\nAssertionError: 1 != 2\n";
    Json update = tool_call_update(r);
    EXPECT_EQ(update["status"], "failed");
    EXPECT_EQ(update["content"][0]["content"]["text"],
              "````\nFAIL: test_x\n```\nAssertionError: 1 != 2\n````\nexit code 1 · 0.2 s")
        << "colours stripped, a fence the output cannot close";
    r.output = std::string(20000, 'x') + "\nthe end\n";
    std::string text = tool_call_update(r)["content"][0]["content"]["text"];
    EXPECT_EQ(text, "…\n```\nthe end\n```\nexit code 1 · 0.2 s") << "the end of a long output";
}

TEST(AcpUpdates, ModesAreOfferedBothWays) {
    EXPECT_EQ(modes_state(client::ModeChoice::plan)["currentModeId"], "plan");
    Json option = mode_config_options(client::ModeChoice::auto_accept)[0];
    EXPECT_EQ(option["category"], "mode");
    EXPECT_EQ(option["currentValue"], "auto");
    EXPECT_EQ(mode_from_id("review"), client::ModeChoice::review);
    EXPECT_FALSE(mode_from_id("build"));
}

TEST(AcpUpdates, APromptsTextComesFromItsTextBlocksAndLinks) {
    EXPECT_EQ(prompt_text(Json::parse(R"([{"type":"text","text":"fix"},
        {"type":"image","data":"x","mimeType":"image/png"},
        {"type":"resource_link","uri":"file:///p/a.py","name":"a.py"}])")),
              "fix\n[a.py](file:///p/a.py)");
    EXPECT_EQ(prompt_text(Json::object()), "");
}

} // namespace
} // namespace rio::acp
