// Language servers (DESIGN §21, issue 33), against the real clangd and pylsp Debian ships,
// typescript-language-server from the tests' npm lock file, and a tiny misbehaving server
// written here (lsp_odd_server.py). A missing server fails these tests; nothing is skipped.
// Every wait is on an event or an answer; the fault cases that end in a timeout configure a
// short one, and their outcome does not depend on how long anything took.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <csignal>
#include <fstream>
#include <gtest/gtest.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

const std::string lsp_odd_server = std::string(RIO_SOURCE_DIR) + "/tests/e2e/lsp_odd_server.py";

// Servers are other programs starting beside the sanitizer build's heaviest tests.
constexpr std::chrono::seconds lsp_patience{90};

// lsp.json's servers: the built-ins not named are disabled, so only what a test is about runs.
Json only(Json servers) {
    for (const char* name : {"clangd", "pylsp", "typescript", "rust-analyzer", "gopls"})
        if (!servers.contains(name)) servers[name] = {{"disabled", true}};
    return servers;
}

Json lsp_odd_entry(const std::string& mode, const fs::path& marker, Json extra = Json::object()) {
    Json entry{{"command", "python3"},
               {"args", {lsp_odd_server, mode, marker.string()}},
               {"files", {"*.odd"}}};
    if (extra.is_object()) entry.update(extra);
    return entry;
}

using Files = std::vector<std::pair<std::string, std::string>>;

// A core whose user lsp.json holds `servers`, in a project the user trusted: no language
// server starts in one nobody trusted (decision 0071).
std::unique_ptr<AgentSession> session(const Json& servers, const Files& files,
                                      const Json& steps = Json::array()) {
    auto s = AgentSession::prepared([&](const AgentSession& s) {
        fs::create_directories(s.config());
        write_bytes(s.config() / "lsp.json", Json{{"servers", only(servers)}}.dump(2));
        for (const auto& [path, text] : files)
            write_bytes(s.project() / path, text);
        return steps;
    });
    s->trust_project();
    return s;
}

// lsp.changed until `server` is in `state`; returns its entry.
Json wait_for_lsp_server(AgentSession& s, const std::string& server, const std::string& state) {
    Json listed = s.request("lsp.list")["result"];
    for (;;) {
        for (const Json& entry : listed["servers"])
            if (entry["name"] == server && entry["state"] == state) return entry;
        listed = s.client().next_event("lsp.changed", lsp_patience)["params"];
    }
}

// lsp.diagnostics events until one for `path` satisfies `wanted`.
Json diagnostics_for(AgentSession& s, const std::string& path,
                     const std::function<bool(const Json&)>& wanted) {
    for (;;) {
        Json e = s.client().next_event("lsp.diagnostics", lsp_patience)["params"];
        if (e["path"] == path && wanted(e["diagnostics"])) return e["diagnostics"];
    }
}

bool has_error(const Json& list, const std::string& words) {
    for (const Json& d : list)
        if (d["severity"] == "error" &&
            d["message"].get<std::string>().find(words) != std::string::npos)
            return true;
    return false;
}

Json open(AgentSession& s, const std::string& path) {
    Json r = s.request("buffer.open", {{"path", path}});
    EXPECT_EQ(r["ok"], true) << r.dump();
    return r["result"];
}

// The turn's events up to agent.done, by name.
std::vector<Json> turn_events(AgentSession& s, const std::string& name) {
    std::vector<Json> found;
    for (const Json& e : s.client().events_until("agent.done", lsp_patience))
        if (e["event"] == name) found.push_back(e["params"]);
    return found;
}

std::vector<Json> lsp_tool_results(AgentSession& s) {
    std::vector<Json> results;
    for (const Json& e : s.client().events_until("agent.done", lsp_patience))
        if (e["event"] == "agent.tool_result") results.push_back(e["params"]);
    return results;
}

// The core's child whose command starts with `name` (Debian's clangd is clangd-14).
pid_t child_named(pid_t parent, const std::string& name) {
    for (const auto& entry : fs::directory_iterator("/proc")) {
        std::string pid = entry.path().filename();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(entry.path() / "stat");
        std::string stat((std::istreambuf_iterator<char>(in)), {});
        std::size_t close = stat.rfind(')');
        if (close == std::string::npos) continue;
        std::string comm = stat.substr(stat.find('(') + 1, close - stat.find('(') - 1);
        std::istringstream rest(stat.substr(close + 2));
        char state;
        pid_t ppid = 0;
        rest >> state >> ppid;
        if (comm.rfind(name, 0) == 0 && ppid == parent) return std::stoi(pid);
    }
    return -1;
}

pid_t pid_in(const fs::path& marker) {
    std::ifstream in(marker / "pid");
    pid_t pid = -1;
    in >> pid;
    return pid;
}

const std::string twice_h = "int twice(int v);\n";
const std::string main_cpp = "#include \"twice.h\"\n"
                             "\n"
                             "int main() {\n"
                             "    return twice(missing);\n"
                             "}\n";

TEST(LspE2E, ClangdReportsFixesNavigatesAndComesBackAfterBeingKilled) {
    auto s = session({{"clangd", Json::object()}}, {{"twice.h", twice_h}, {"main.cpp", main_cpp}});
    EXPECT_EQ(wait_for_lsp_server(*s, "clangd", "idle")["words"],
              "idle: starts when a file it serves is opened");

    Json buffer = open(*s, "main.cpp");
    Json broken = diagnostics_for(*s, "main.cpp", [](const Json& list) {
        return has_error(list, "undeclared identifier 'missing'");
    });
    EXPECT_EQ(broken[0]["line"], 4);
    EXPECT_EQ(broken[0]["column"], 17) << "bytes from the line's start";
    EXPECT_EQ(broken[0]["end_column"], 24);
    EXPECT_EQ(wait_for_lsp_server(*s, "clangd", "ready")["documents"], 1);
    Json asked = s->request("lsp.diagnostics", {{"path", "main.cpp"}})["result"]["files"];
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_TRUE(has_error(asked[0]["diagnostics"], "missing"));

    // Fixed in the buffer (an edit in the middle of the line): the error goes.
    std::string text = buffer["text"];
    std::size_t at = text.find("missing");
    Json r = s->request("buffer.replace",
                        {{"path", "main.cpp"}, {"start", at}, {"end", at + 7}, {"text", "2"}});
    ASSERT_EQ(r["ok"], true) << r.dump();
    diagnostics_for(*s, "main.cpp", [](const Json& list) { return list.empty(); });

    // Hover and go to definition across files.
    Json hover = s->request("lsp.hover", {{"path", "main.cpp"}, {"line", 4}, {"column", 12}});
    ASSERT_EQ(hover["ok"], true) << hover.dump();
    EXPECT_NE(hover["result"]["text"].get<std::string>().find("twice"), std::string::npos)
        << hover.dump();
    Json definition =
        s->request("lsp.definition", {{"path", "main.cpp"}, {"line", 4}, {"column", 12}});
    ASSERT_EQ(definition["ok"], true) << definition.dump();
    ASSERT_FALSE(definition["result"]["locations"].empty()) << definition.dump();
    Json place = definition["result"]["locations"][0];
    EXPECT_EQ(place["path"], "twice.h");
    EXPECT_EQ(place["line"], 1);
    EXPECT_EQ(place["column"], 4);
    EXPECT_EQ(place["text"], "int twice(int v);");
    EXPECT_EQ(place["external"], false);
    Json outline = s->request("lsp.symbols", {{"path", "main.cpp"}});
    ASSERT_EQ(outline["ok"], true) << outline.dump();
    ASSERT_FALSE(outline["result"]["symbols"].empty());
    EXPECT_EQ(outline["result"]["symbols"][0]["name"], "main");
    EXPECT_EQ(outline["result"]["symbols"][0]["kind"], "function");
    Json outside = s->request("lsp.hover", {{"path", "main.cpp"}, {"line", 40}, {"column", 0}});
    EXPECT_EQ(outside["error"]["code"], "bad_request");
    EXPECT_EQ(outside["error"]["message"], "line 40 is outside main.cpp (6 lines)");

    // Killed mid-session: failed in words; the editor goes on; restart brings it back.
    pid_t clangd = child_named(s->core().pid(), "clangd");
    ASSERT_GT(clangd, 0);
    ::kill(clangd, SIGKILL);
    Json failed = wait_for_lsp_server(*s, "clangd", "failed");
    EXPECT_NE(failed["words"].get<std::string>().find("failed: stopped: it was killed by signal 9"),
              std::string::npos)
        << failed.dump();
    EXPECT_EQ(
        s->request("buffer.replace",
                   {{"path", "main.cpp"}, {"start", at}, {"end", at + 1}, {"text", "oops"}})["ok"],
        true);
    Json down = s->request("lsp.hover", {{"path", "main.cpp"}, {"line", 4}, {"column", 12}});
    EXPECT_EQ(down["error"]["code"], "server");
    ASSERT_EQ(s->request("lsp.restart", {{"name", "clangd"}})["ok"], true);
    wait_for_lsp_server(*s, "clangd", "ready");
    diagnostics_for(*s, "main.cpp", [](const Json& list) {
        return has_error(list, "undeclared identifier 'oops'");
    });
}

TEST(LspE2E, PylspFeedsThePlanToolAndTheAgentsEdits) {
    auto s = session(
        {{"pylsp", Json::object()}},
        {{"bad.py", "print(undefined_name)\n"}, {"good.py", "def f():\n    return 1\n"}},
        Json::array({step({tool("diagnostics", {{"path", "bad.py"}})}), text_step("Planned."),
                     step({tool("edit_file", {{"path", "good.py"},
                                              {"old_string", "return 1"},
                                              {"new_string", "return one"}})}),
                     text_step("Done."), text_step("It stays.")}));
    ASSERT_EQ(s->request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    s->send("what is broken?");
    auto results = lsp_tool_results(*s);
    ASSERT_EQ(results.size(), 1u);
    std::string planned = results[0]["content"];
    EXPECT_NE(planned.find("pylsp reports 1 problem in bad.py:"), std::string::npos) << planned;
    EXPECT_NE(planned.find("bad.py:1:7: error: undefined name 'undefined_name' [pyflakes]"),
              std::string::npos)
        << planned;

    ASSERT_EQ(s->request("agent.mode.set", {{"mode", "build"}})["ok"], true);
    ASSERT_EQ(s->request("agent.autoaccept.set", {{"on", true}})["ok"], true);
    s->send("break good.py");
    // The edit's result does not wait for pylsp; its error is told before the turn ends.
    auto notes = turn_events(*s, "agent.note");
    ASSERT_EQ(notes.size(), 1u);
    std::string told = notes[0]["text"];
    EXPECT_NE(told.find("pylsp reports 1 error in good.py:\ngood.py:2:12: error: undefined "
                        "name 'one' [pyflakes]"),
              std::string::npos)
        << told;
    Json last = s->provider_calls().back()["conversation"].back();
    EXPECT_NE(last.dump().find("undefined name 'one'"), std::string::npos) << last.dump();
}

TEST(LspE2E, TypescriptDefinitionAcrossFilesAndATypeError) {
    const std::string ts_server = RIO_TS_SERVER;
    if (!fs::exists(ts_server))
        FAIL() << "typescript-language-server is missing: " << ts_server
               << " (scripts/install-deps BUILD/node installs it)";
    auto s =
        session({{"typescript", {{"command", RIO_NODE}, {"args", {ts_server, "--stdio"}}}}},
                {{"a.ts", "export function twice(v: number): number {\n    return v * 2;\n}\n"},
                 {"b.ts", "import { twice } from \"./a\";\nconst n: string = twice(2);\n"}});
    open(*s, "b.ts");
    diagnostics_for(*s, "b.ts", [](const Json& list) {
        return has_error(list, "Type 'number' is not assignable to type 'string'");
    });
    Json definition = s->request("lsp.definition", {{"path", "b.ts"}, {"line", 2}, {"column", 19}});
    ASSERT_EQ(definition["ok"], true) << definition.dump();
    ASSERT_EQ(definition["result"]["locations"].size(), 1u) << definition.dump();
    EXPECT_EQ(definition["result"]["locations"][0]["path"], "a.ts");
    EXPECT_EQ(definition["result"]["locations"][0]["line"], 1);
    EXPECT_EQ(definition["result"]["locations"][0]["column"], 16);
    Json refs = s->request("lsp.references", {{"path", "a.ts"}, {"line", 1}, {"column", 17}});
    ASSERT_EQ(refs["ok"], true) << refs.dump();
    EXPECT_GE(refs["result"]["locations"].size(), 2u) << refs.dump();
}

TEST(LspE2E, AServerNotInstalledIsNotFoundAndNothingElseBreaks) {
    auto s = session({{"lua", {{"command", "rio-no-such-language-server"}, {"files", {"*.lua"}}}}},
                     {{"x.lua", "print(1)\n"}},
                     Json::array({step({tool("edit_file", {{"path", "x.lua"},
                                                           {"old_string", "print(3)"},
                                                           {"new_string", "print(4)"}})}),
                                  text_step("Done.")}));
    Json lua = wait_for_lsp_server(*s, "lua", "not found");
    EXPECT_EQ(lua["words"], "not found: put rio-no-such-language-server on PATH");
    open(*s, "x.lua");
    EXPECT_EQ(s->request("buffer.replace", {{"path", "x.lua"}, {"text", "print(3)\n"}})["ok"],
              true);
    EXPECT_EQ(s->request("buffer.save", {{"path", "x.lua"}})["ok"], true);
    Json hover = s->request("lsp.hover", {{"path", "x.lua"}, {"line", 1}, {"column", 0}});
    EXPECT_EQ(hover["error"]["code"], "not_found");
    EXPECT_EQ(hover["error"]["message"],
              "lua is not found: put rio-no-such-language-server on PATH");
    ASSERT_EQ(s->request("agent.autoaccept.set", {{"on", true}})["ok"], true);
    s->send("edit");
    auto results = lsp_tool_results(*s);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0]["content"], "Edited x.lua: replaced 1 line with 1 line.");
}

TEST(LspE2E, Utf16PositionsAndPositionsOutsideTheText) {
    TempDir marker;
    auto s =
        session({{"odd", lsp_odd_entry("ok", marker.path())}}, {{"a.odd", "😀😀 ERROR\nsecond\n"}});
    open(*s, "a.odd");
    Json list = diagnostics_for(*s, "a.odd", [](const Json& l) { return !l.empty(); });
    EXPECT_EQ(list[0]["line"], 1);
    EXPECT_EQ(list[0]["column"], 9) << "two 4-byte emoji and a space: 5 UTF-16 units, 9 bytes";
    EXPECT_EQ(list[0]["end_column"], 14);
    Json hover = s->request("lsp.hover", {{"path", "a.odd"}, {"line", 1}, {"column", 8}});
    EXPECT_EQ(hover["result"]["text"], "hover 0:4");
    // Column 2 is inside the first emoji: the server is asked about its start.
    hover = s->request("lsp.hover", {{"path", "a.odd"}, {"line", 1}, {"column", 2}});
    EXPECT_EQ(hover["result"]["text"], "hover 0:0");
    // An edit after the emoji goes out in UTF-16 units; the server's text stays right.
    ASSERT_EQ(s->request("buffer.replace",
                         {{"path", "a.odd"}, {"start", 9}, {"end", 14}, {"text", "fine"}})["ok"],
              true);
    diagnostics_for(*s, "a.odd", [](const Json& l) { return l.empty(); });

    TempDir marker2;
    auto t = session({{"odd", lsp_odd_entry("outside", marker2.path())}}, {{"b.odd", "a😀b\nxy\n"}});
    open(*t, "b.odd");
    list = diagnostics_for(*t, "b.odd", [](const Json& l) { return l.size() == 2; });
    EXPECT_EQ(list[0]["message"], "inside a pair");
    EXPECT_EQ(list[0]["column"], 1) << "the emoji's start";
    EXPECT_EQ(list[0]["end_column"], 6) << "the line's end";
    EXPECT_EQ(list[1]["message"], "past the end");
    EXPECT_EQ(list[1]["line"], 3) << "the text's end: after the last line break";
    EXPECT_EQ(list[1]["column"], 0);
}

// Edits are held back while keys arrive and go out before whatever needs the server's view.
// Here they are held for an hour: only a request, a wait for diagnostics or a save can have
// brought them to the server, so each must see the newest text, in order.
TEST(LspE2E, RequestsWaitsAndSavesSeeTheNewestTextWhileTypingIsHeldBack) {
    TempDir marker;
    auto s = session({{"odd", lsp_odd_entry("mirror", marker.path(), {{"change_delay_s", 3600}})}},
                     {{"a.odd", "one\n"}});
    open(*s, "a.odd");
    diagnostics_for(*s, "a.odd", [](const Json& l) { return l.empty(); }); // didOpen arrived
    auto type = [&](std::size_t start, std::size_t end, const std::string& text) {
        Json r = s->request("buffer.replace",
                            {{"path", "a.odd"}, {"start", start}, {"end", end}, {"text", text}});
        ASSERT_EQ(r["ok"], true) << r.dump();
    };
    auto buffer_text = [&] {
        return s->request("buffer.text", {{"path", "a.odd"}})["result"]["text"].get<std::string>();
    };
    // Keys one at a time after "one", a backspace, a line break, a 4-byte character, and an
    // edit elsewhere (before them).
    std::size_t at = 3;
    for (char c : std::string(" twoo"))
        type(at, at, std::string(1, c)), ++at;
    type(at - 1, at, ""), --at;
    type(at, at, "\n😀 "), at += 6;
    type(0, 1, "O");
    Json hover = s->request("lsp.hover", {{"path", "a.odd"}, {"line", 1}, {"column", 0}});
    ASSERT_EQ(hover["ok"], true) << hover.dump();
    EXPECT_EQ(hover["result"]["text"], "One two\n😀 \n");
    EXPECT_EQ(hover["result"]["text"], buffer_text());

    // A wait for the file's diagnostics sends what was typed since, then waits for the report.
    for (char c : std::string("ERROR"))
        type(at, at, std::string(1, c)), ++at;
    Json asked = s->request("lsp.diagnostics", {{"path", "a.odd"}});
    ASSERT_EQ(asked["ok"], true) << asked.dump();
    Json list = asked["result"]["files"][0]["diagnostics"];
    ASSERT_EQ(list.size(), 1u) << asked.dump();
    EXPECT_EQ(list[0]["line"], 2);
    EXPECT_EQ(list[0]["column"], 5) << "after the emoji (4 bytes) and a space";

    // A save sends the changes before didSave: the server saves the text the buffer has.
    type(at - 5, at, "fine");
    ASSERT_EQ(s->request("buffer.save", {{"path", "a.odd"}})["ok"], true);
    Json saved = diagnostics_for(*s, "a.odd", [](const Json& l) {
        for (const Json& d : l)
            if (d["message"].get<std::string>().rfind("saved: ", 0) == 0) return true;
        return false;
    });
    EXPECT_EQ(saved[0]["message"], "saved: One two\n😀 fine\n");
    EXPECT_EQ(buffer_text(), "One two\n😀 fine\n");
}

struct LspFault {
    std::string mode;
    Json extra;
    std::string words; // in the failed server's words
};

class LspFaults : public ::testing::TestWithParam<LspFault> {};

TEST_P(LspFaults, AFailingServerIsAStateInWordsAndTheEditorGoesOn) {
    const LspFault& fault = GetParam();
    TempDir marker;
    auto s = session({{"odd", lsp_odd_entry(fault.mode, marker.path(), fault.extra)}},
                     {{"a.odd", "one ERROR\n"}});
    open(*s, "a.odd");
    Json failed = wait_for_lsp_server(*s, "odd", "failed");
    EXPECT_NE(failed["words"].get<std::string>().find(fault.words), std::string::npos)
        << failed.dump();
    // The editor goes on: the buffer edits and saves, the core answers.
    EXPECT_EQ(s->request("buffer.replace", {{"path", "a.odd"}, {"text", "two\n"}})["ok"], true);
    EXPECT_EQ(s->request("buffer.save", {{"path", "a.odd"}})["ok"], true);
    Json hover = s->request("lsp.hover", {{"path", "a.odd"}, {"line", 1}, {"column", 0}});
    EXPECT_EQ(hover["error"]["code"], "server") << hover.dump();
}

INSTANTIATE_TEST_SUITE_P(
    Modes, LspFaults,
    ::testing::Values(
        LspFault{"nostart",
                 {},
                 "failed: could not start: it exited with code 2: odd server: refusing to start"},
        LspFault{
            "crash", {}, "failed: stopped: it exited with code 3: odd server: crashing on purpose"},
        LspFault{"garbage", {}, "failed: sent something that is not JSON-RPC: invalid JSON"},
        LspFault{
            "oversized", {}, "failed: sent a message of 96 MiB, more than the 32 MiB rio accepts"},
        LspFault{
            "hang", {{"timeout_s", 0.1}}, "failed: did not answer initialize within 0.3 seconds"}),
    [](const auto& info) { return info.param.mode; });

TEST(LspE2E, StrayAnswersAndFloodsAreHandledAndTheServerWorks) {
    TempDir marker;
    auto s = session({{"odd", lsp_odd_entry("stray", marker.path())}}, {{"a.odd", "ERROR\n"}});
    open(*s, "a.odd");
    diagnostics_for(*s, "a.odd", [](const Json& l) { return !l.empty(); });
    EXPECT_EQ(wait_for_lsp_server(*s, "odd", "ready")["words"], "ready");

    TempDir marker2;
    auto f = session({{"odd", lsp_odd_entry("flood", marker2.path())}}, {{"a.odd", "ERROR\n"}});
    open(*f, "a.odd");
    EXPECT_EQ(f->request("session.hello")["ok"], true);
    diagnostics_for(*f, "a.odd", [](const Json& l) { return !l.empty(); });
    Json hover = f->request("lsp.hover", {{"path", "a.odd"}, {"line", 1}, {"column", 1}});
    EXPECT_EQ(hover["result"]["text"], "hover 0:1");
}

TEST(LspE2E, AHangingRequestTimesOutAndASilentServerBoundsTheEditsWait) {
    TempDir marker;
    // Its start is not what is timed: under load, through a pyenv shim, it took more than
    // three times the hover's 0.2 s (the default bound on initialize).
    auto s = session({{"odd", lsp_odd_entry("slow", marker.path(),
                                            {{"timeout_s", 0.2}, {"start_timeout_s", 60}})}},
                     {{"a.odd", "x\n"}});
    open(*s, "a.odd");
    wait_for_lsp_server(*s, "odd", "ready");
    Json hover = s->request("lsp.hover", {{"path", "a.odd"}, {"line", 1}, {"column", 0}});
    EXPECT_EQ(hover["error"]["code"], "server");
    EXPECT_EQ(hover["error"]["message"],
              "odd did not answer textDocument/hover within 0.2 seconds");
    EXPECT_EQ(wait_for_lsp_server(*s, "odd", "ready")["words"],
              "ready: the last request timed out: odd did not answer textDocument/hover within "
              "0.2 seconds");

    TempDir marker2;
    auto t = session(
        {{"odd", lsp_odd_entry("silent", marker2.path(), {{"diagnostics_wait_s", 0.3}})}},
        {{"a.odd", "x\n"}},
        Json::array({step({tool("edit_file",
                                {{"path", "a.odd"}, {"old_string", "x"}, {"new_string", "y"}})}),
                     text_step("Done.")}));
    ASSERT_EQ(t->request("agent.autoaccept.set", {{"on", true}})["ok"], true);
    t->send("edit");
    // The turn's one wait is bounded by the server's diagnostics_wait; with nothing found
    // the turn ends as the model ended it.
    std::size_t results = 0, notes = 0;
    for (const Json& e : t->client().events_until("agent.done", lsp_patience)) {
        if (e["event"] == "agent.tool_result") {
            ++results;
            EXPECT_EQ(e["params"]["content"], "Edited a.odd: replaced 1 line with 1 line.");
        }
        if (e["event"] == "agent.note") ++notes;
    }
    EXPECT_EQ(results, 1u);
    EXPECT_EQ(notes, 0u);
}

// Issue 40, item 1: each Python edit waited ~0.5 s for pylsp's debounce. Here the server
// publishes only when the test says (a hover), and its wait is an hour: an edit that waited
// would never report. Its report joins the next tool result; the next edit's, found only
// when the model would end the turn, is told before the turn ends.
TEST(LspE2E, AnEditNeverWaitsForItsServerAndItsReportJoinsTheNextResultOrTheTurnsEnd) {
    TempDir marker;
    auto s = session(
        {{"odd", lsp_odd_entry("held", marker.path(), {{"diagnostics_wait_s", 3600}})}},
        {{"a.odd", "fine\n"}, {"b.odd", "fine\n"}},
        Json::array(
            {step({tool("edit_file",
                        {{"path", "a.odd"}, {"old_string", "fine"}, {"new_string", "ERROR"}})}),
             step({tool("run_command", {{"argv", {"true"}}})}),
             step({tool("edit_file",
                        {{"path", "b.odd"}, {"old_string", "fine"}, {"new_string", "ERROR"}})}),
             text_step("Done."), text_step("Both stay.")}));
    ASSERT_EQ(s->request("agent.autoaccept.set", {{"on", true}})["ok"], true);
    s->send("break both");
    Json edited = s->client().next_event("agent.tool_result", lsp_patience)["params"];
    EXPECT_EQ(edited["content"], "Edited a.odd: replaced 1 line with 1 line.")
        << "at once, without the server's report";
    Json proposal = s->client().next_event("agent.propose", lsp_patience)["params"];
    // The server publishes now; its report is in before the command's result goes back.
    ASSERT_EQ(s->request("lsp.hover", {{"path", "a.odd"}, {"line", 1}, {"column", 0}})["ok"], true);
    diagnostics_for(*s, "a.odd", [](const Json& l) { return !l.empty(); });
    ASSERT_EQ(
        s->request("agent.approve", {{"turn", proposal["turn"]}, {"decision", "approve"}})["ok"],
        true);
    Json ran = s->client().next_event("agent.tool_result", lsp_patience)["params"];
    EXPECT_NE(ran["content"].get<std::string>().find(
                  "odd reports 1 error in a.odd:\na.odd:1:1: error: ERROR found [odd E1]"),
              std::string::npos)
        << ran.dump();
    edited = s->client().next_event("agent.tool_result", lsp_patience)["params"];
    EXPECT_EQ(edited["content"], "Edited b.odd: replaced 1 line with 1 line.");
    for (;;) {
        Json status = s->client().next_event("agent.status", lsp_patience)["params"];
        if (status["state"] == "checking") break;
    }
    ASSERT_EQ(s->request("lsp.hover", {{"path", "b.odd"}, {"line", 1}, {"column", 0}})["ok"], true);
    auto notes = turn_events(*s, "agent.note");
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0]["text"], "Before you finish: odd reports 1 error in b.odd:\nb.odd:1:1: "
                                "error: ERROR found [odd E1]\nFix what your changes broke, or say "
                                "why it stays.")
        << "a.odd's report was told already";
    EXPECT_EQ(s->provider_calls().size(), 5u);
}

// Issue 40, item 2: typescript-language-server published an empty list, then the real one
// ~80 ms later, and lsp.diagnostics answered the empty one (server ""). A server that
// publishes in passes is answered once it was quiet for its settle time.
TEST(LspE2E, AServerThatPublishesInPassesIsAnsweredWithItsLastPass) {
    TempDir marker;
    auto s =
        session({{"odd", lsp_odd_entry("passes", marker.path(), {{"diagnostics_settle_s", 0.2}})}},
                {{"a.odd", "ERROR\n"}, {"b.odd", "fine\n"}, {"c.txt", "x\n"}});
    Json answer = s->request("lsp.diagnostics", {{"path", "a.odd"}});
    ASSERT_EQ(answer["ok"], true) << answer.dump();
    ASSERT_EQ(answer["result"]["files"].size(), 1u) << answer.dump();
    EXPECT_EQ(answer["result"]["files"][0]["server"], "odd");
    EXPECT_EQ(answer["result"]["files"][0]["diagnostics"].size(), 1u) << answer.dump();
    answer = s->request("lsp.diagnostics", {{"path", "b.odd"}});
    ASSERT_EQ(answer["result"]["files"].size(), 1u) << answer.dump();
    EXPECT_EQ(answer["result"]["files"][0]["server"], "odd") << "none found, by odd";
    EXPECT_TRUE(answer["result"]["files"][0]["diagnostics"].empty());
    answer = s->request("lsp.diagnostics", {{"path", "c.txt"}});
    ASSERT_EQ(answer["ok"], true) << answer.dump();
    EXPECT_TRUE(answer["result"]["files"].empty()) << "no server handles it: " << answer.dump();
}

// Issue 40, item 3: pylsp 1.7 applies ranges by code points; after an edit on a line holding
// an astral character its text was wrong. With sync "full" it gets the whole text.
TEST(LspE2E, FullSyncKeepsAServerThatCountsCodePointsRight) {
    TempDir marker;
    auto s = session({{"odd", lsp_odd_entry("codepoints", marker.path(), {{"sync", "full"}})}},
                     {{"a.odd", "😀😀 one\nsecond\n"}});
    open(*s, "a.odd");
    wait_for_lsp_server(*s, "odd", "ready");
    ASSERT_EQ(s->request("buffer.replace",
                         {{"path", "a.odd"}, {"start", 9}, {"end", 12}, {"text", "two"}})["ok"],
              true);
    Json hover = s->request("lsp.hover", {{"path", "a.odd"}, {"line", 2}, {"column", 0}});
    EXPECT_EQ(hover["result"]["text"], "😀😀 two\nsecond\n");
}

TEST(LspE2E, AKilledServerAnswersTheEditsWaitAndAnUntrustedProjectStartsNothing) {
    TempDir marker;
    // A wait far longer than the test: only the kill can end it.
    auto s = session(
        {{"odd", lsp_odd_entry("silent", marker.path(), {{"diagnostics_wait_s", 3600}})}},
        {{"a.odd", "x\n"}},
        Json::array({step({tool("edit_file",
                                {{"path", "a.odd"}, {"old_string", "x"}, {"new_string", "y"}})}),
                     text_step("Done.")}));
    ASSERT_EQ(s->request("agent.autoaccept.set", {{"on", true}})["ok"], true);
    s->send("edit");
    // The turn waits on the silent server before it ends; killing it ends the wait at once.
    for (;;) {
        Json status = s->client().next_event("agent.status", lsp_patience)["params"];
        if (status["state"] == "checking") break;
    }
    wait_for_lsp_server(*s, "odd", "ready");
    ::kill(pid_in(marker.path()), SIGKILL);
    auto results = lsp_tool_results(*s);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0]["content"], "Edited a.odd: replaced 1 line with 1 line.");

    auto u = AgentSession::prepared([&](const AgentSession& a) {
        fs::create_directories(a.project() / ".rio");
        write_bytes(a.project() / ".rio/lsp.json",
                    Json{{"servers", {{"odd", lsp_odd_entry("ok", marker.path())}}}}.dump());
        write_bytes(a.project() / "a.odd", "ERROR\n");
        return Json::array();
    });
    EXPECT_EQ(wait_for_lsp_server(*u, "odd", "untrusted")["source"], "project");
    open(*u, "a.odd");
    Json trust = u->request("project.trust.get")["result"];
    bool listed = false;
    for (const Json& file : trust["files"])
        if (file["path"] == ".rio/lsp.json") {
            listed = true;
            EXPECT_NE(file["summary"].get<std::string>().find("start language servers odd"),
                      std::string::npos);
        }
    EXPECT_TRUE(listed);
    u->trust_project();
    diagnostics_for(*u, "a.odd", [](const Json& l) { return !l.empty(); });
}

// Issue 39, break M: a cloned project chose the program a built-in language server ran
// (rust-toolchain.toml made rustup's rust-analyzer proxy run the project's own), with nobody
// asked, when the plan-mode model only read diagnostics. Here a stand-in rust-analyzer on
// PATH records that it ran: in a project nobody trusted it never does, whoever asks — the
// agent's diagnostics tool or a person opening the file —, the tool and lsp.list say why,
// and the trust question names it; trusting the project starts it.
TEST(LspE2E, AnUntrustedProjectStartsNoLanguageServerAndSaysTrustStartsThem) {
    TempDir bin, ran;
    const fs::path stand_in = bin / "rust-analyzer";
    write_bytes(stand_in, "#!/bin/sh\necho \"$PWD\" > '" + (ran / "started").string() +
                              "'\nexec python3 '" + lsp_odd_server + "' ok\n");
    fs::permissions(stand_in, fs::perms::owner_all);
    const std::string path = "PATH=" + bin.path().string() + ":" + std::getenv("PATH");
    auto s = AgentSession::with_env(
        Json::array({step({tool("diagnostics", {{"path", "src/main.rs"}})}), text_step("Read.")}),
        [&](const AgentSession& a) {
            fs::create_directories(a.config());
            write_bytes(a.config() / "lsp.json",
                        Json{{"servers", only({{"rust-analyzer", Json::object()}})}}.dump(2));
            write_bytes(a.project() / "src/main.rs", "fn main() { ERROR }\n");
            write_bytes(a.project() / "rust-toolchain.toml",
                        "[toolchain]\npath = \"/proc/self/cwd/tc\"\n");
            return std::vector<std::string>{path};
        });
    ASSERT_EQ(s->request("agent.mode.set", {{"mode", "plan"}})["ok"], true);

    Json listed = wait_for_lsp_server(*s, "rust-analyzer", "untrusted");
    EXPECT_EQ(listed["words"], "untrusted: language servers start when you trust this project");
    Json trust = s->request("project.trust.get")["result"];
    EXPECT_EQ(trust["trusted"], false);
    EXPECT_EQ(trust["language_servers"], Json::array({"rust-analyzer"})) << trust.dump();

    s->send("check main.rs");
    auto results = lsp_tool_results(*s);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0]["ok"], true);
    EXPECT_NE(results[0]["content"].get<std::string>().find(
                  "language servers start when the person trusts this project"),
              std::string::npos)
        << results[0].dump();
    open(*s, "src/main.rs");
    Json asked = s->request("lsp.diagnostics", {{"path", "src/main.rs"}});
    EXPECT_EQ(asked["ok"], true) << asked.dump();
    EXPECT_TRUE(asked["result"]["files"].empty()) << "no server looked: " << asked.dump();
    Json restart = s->request("lsp.restart", {{"name", "rust-analyzer"}});
    EXPECT_EQ(restart["error"]["code"], "refused") << restart.dump();
    EXPECT_EQ(s->request("session.hello")["ok"], true); // a round trip: anything started ran
    EXPECT_FALSE(fs::exists(ran / "started")) << "the project's language server ran untrusted";

    s->trust_project();
    EXPECT_EQ(s->request("project.trust.get")["result"]["language_servers"], Json::array());
    wait_for_lsp_server(*s, "rust-analyzer", "ready");
    EXPECT_TRUE(fs::exists(ran / "started"));
}

// What a trusted server publishes is bounded: only the project's files are kept, and at
// most 1,000 of them per server (5,000 held the core at ~450 MB: issue 39).
TEST(LspE2E, DiagnosticsKeptPerServerAreTheProjectsAndBounded) {
    TempDir marker;
    auto s = session({{"odd", lsp_odd_entry("many", marker.path())}}, {{"a.odd", "ERROR\n"}});
    open(*s, "a.odd");
    diagnostics_for(*s, "a.odd",
                    [](const Json& l) { return !l.empty() && l[0]["message"] == "after many"; });
    Json files = s->request("lsp.diagnostics")["result"]["files"];
    EXPECT_EQ(files.size(), 1000u);
    for (const Json& f : files)
        EXPECT_NE(f["path"].get<std::string>().front(), '/') << f["path"];
}

} // namespace
} // namespace rio::test
