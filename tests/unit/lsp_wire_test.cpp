// The LSP client's pure parts: framing (JSON-RPC itself: json_rpc_test), UTF-16 positions
// (surrogate pairs, clamping), line tables kept in step with edits, coalesced changes, LSP values
// and file URIs, lsp.json, and the words an edit's result gets.
#include "agent_tools/diagnostics_words.hpp"
#include "host/lsp/lsp_changes.hpp"
#include "host/lsp/lsp_config.hpp"
#include "host/lsp/lsp_positions.hpp"
#include "host/lsp/lsp_protocol.hpp"
#include "host/lsp/lsp_servers.hpp"
#include "host/lsp/lsp_wire.hpp"

#include <gtest/gtest.h>
#include <random>

namespace rio {
namespace {

using Json = nlohmann::json;

std::string framed(const std::string& body) {
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

TEST(LspWire, FramesSplitAnywhereAndJoinedTogetherComeOutWhole) {
    std::string stream = framed(R"({"a":1})") +
                         "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" +
                         framed(R"({"b":"é"})");
    for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
        LspFramer framer;
        std::vector<std::string> bodies;
        ASSERT_TRUE(framer.feed(std::string_view(stream).substr(0, cut), bodies));
        ASSERT_TRUE(framer.feed(std::string_view(stream).substr(cut), bodies));
        ASSERT_EQ(bodies, (std::vector<std::string>{R"({"a":1})", R"({"b":"é"})"})) << cut;
    }
}

TEST(LspWire, BrokenHeadersAndOversizedMessagesBreakTheStreamSayingWhy) {
    auto error_of = [](const std::string& bytes, std::size_t cap = lsp_max_message) {
        LspFramer framer(cap);
        std::vector<std::string> bodies;
        EXPECT_FALSE(framer.feed(bytes, bodies));
        EXPECT_TRUE(bodies.empty());
        return framer.error();
    };
    EXPECT_NE(error_of("Content-Length: 100000000\r\n\r\n").find("more than the 32 MiB"),
              std::string::npos);
    EXPECT_NE(error_of("Content-Length: x1\r\n\r\n{}").find("not a number"), std::string::npos);
    EXPECT_NE(error_of("Content-Type: a\r\n\r\n{}").find("without a Content-Length"),
              std::string::npos);
    EXPECT_NE(error_of("garbage without a colon\r\n\r\n").find("without a colon"),
              std::string::npos);
    EXPECT_NE(error_of(std::string(9000, 'x')).find("without an end"), std::string::npos);
}

TEST(LspWire, AMessageIsFramedByItsLength) {
    EXPECT_EQ(lsp_frame(Json{{"a", 1}}), "Content-Length: 7\r\n\r\n{\"a\":1}");
    EXPECT_EQ(lsp_frame(Json{{"é", 1}}), "Content-Length: 8\r\n\r\n{\"é\":1}")
        << "bytes, not characters";
}

TEST(LspPositions, Utf16UnitsCountSurrogatePairsAsTwo) {
    // "a" 1 byte/1 unit, "é" 2/1, "€" 3/1, "😀" 4/2
    std::string line = "aé€😀b";
    EXPECT_EQ(utf16_length(line), 6);
    EXPECT_EQ(utf16_to_byte(line, 0), 0u);
    EXPECT_EQ(utf16_to_byte(line, 1), 1u);
    EXPECT_EQ(utf16_to_byte(line, 2), 3u);
    EXPECT_EQ(utf16_to_byte(line, 3), 6u);
    bool clamped = false;
    EXPECT_EQ(utf16_to_byte(line, 4, &clamped), 6u) << "inside the pair: the emoji's start";
    EXPECT_TRUE(clamped);
    clamped = false; // only ever set: a caller may gather several conversions' clamping
    EXPECT_EQ(utf16_to_byte(line, 5, &clamped), 10u);
    EXPECT_FALSE(clamped);
    EXPECT_EQ(utf16_to_byte(line, 99, &clamped), line.size());
    EXPECT_TRUE(clamped);
}

TEST(LspPositions, LinesAndClampingAroundTheText) {
    std::string text = "one\r\n😀two\nlast";
    LineIndex index(text);
    ASSERT_EQ(index.lines(), 3u);
    EXPECT_EQ(index.line_text(0), "one") << "the \\r is not part of the line";
    EXPECT_EQ(index.offset({1, 2}), 9u);
    EXPECT_EQ(index.position(9), (LspPosition{1, 2}));
    EXPECT_EQ(index.position(14), (LspPosition{2, 1}));
    bool clamped = false;
    EXPECT_EQ(index.offset({0, 50}, &clamped), 3u) << "past the line's end: its end";
    EXPECT_TRUE(clamped);
    EXPECT_EQ(index.offset({7, 0}, &clamped), text.size());
    EXPECT_TRUE(clamped);
    EXPECT_EQ(index.offset({-1, 3}, &clamped), 0u);
    EXPECT_EQ(index.line_of(text.size()), 2u);
}

// Random edits on character boundaries, with line breaks (also "\r\n", and one put between
// a '\r' and its '\n'), 2-, 3- and 4-byte characters and deletions across lines.
struct RandomEdits {
    std::mt19937 random{20261202};
    std::size_t pick(std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n)(random);
    }
    std::size_t boundary(const std::string& text) {
        std::size_t at = pick(text.size());
        while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80)
            --at;
        return at;
    }
    std::string piece() {
        static const char* pieces[] = {"a", "bc", "\n", "\r\n", "é", "€", "😀", "x\ny\nz", "", "\r"};
        std::string out;
        for (std::size_t n = pick(3); n > 0; --n)
            out += pieces[pick(std::size(pieces) - 1)];
        return out;
    }
};

TEST(LspPositions, ALineTableKeptInStepWithEditsIsTheTableOfTheNewText) {
    RandomEdits edits;
    std::string text = "int a;\r\n// é😀\n\nlast";
    LineTable table(text);
    for (int i = 0; i < 3000; ++i) {
        std::size_t start = edits.boundary(text), end = edits.boundary(text);
        if (start > end) std::swap(start, end);
        if (edits.pick(4) == 0) end = start; // typing
        std::string inserted = edits.piece();
        text.replace(start, end - start, inserted);
        table.edit(text, start, end, inserted.size());
        LineTable fresh(text);
        ASSERT_EQ(table.lines(), fresh.lines()) << i;
        for (std::size_t line = 0; line < fresh.lines(); ++line) {
            ASSERT_EQ(table.line_start(line), fresh.line_start(line)) << i << " line " << line;
            ASSERT_EQ(table.ascii(line), fresh.ascii(line)) << i << " line " << line;
        }
        if (text.size() > 400) text.clear(), table = LineTable(text);
    }
}

TEST(LspPositions, AnAsciiLineAndAnotherConvertAlike) {
    std::string text = "plain ascii\nwith é and 😀 in it\n";
    LineTable table(text);
    EXPECT_TRUE(table.ascii(0));
    EXPECT_FALSE(table.ascii(1));
    LineIndex kept(text, table), built(text);
    for (std::size_t at = 0; at <= text.size(); ++at)
        EXPECT_EQ(kept.position(at), built.position(at)) << at;
    EXPECT_EQ(kept.position(5), (LspPosition{0, 5}));
    EXPECT_EQ(kept.position(text.find("and")), (LspPosition{1, 7}));
    bool clamped = false;
    EXPECT_EQ(kept.offset({0, 40}, &clamped), 11u) << "past an ASCII line's end: its end";
    EXPECT_TRUE(clamped);
}

// A server's copy: each change applied in order, against the text the ones before it left.
std::string applied(std::string text, const Json& changes) {
    for (const Json& c : changes) {
        if (!c.contains("range")) {
            text = c["text"];
            continue;
        }
        LineIndex index(text);
        auto at = [&](const Json& p) { return index.offset({p["line"], p["character"]}); };
        std::size_t start = at(c["range"]["start"]), end = at(c["range"]["end"]);
        text = text.substr(0, start) + c["text"].get<std::string>() + text.substr(end);
    }
    return text;
}

TEST(LspChanges, KeysTypedAndDeletedInOnePlaceAreOneChange) {
    std::string text = "int main() {\n    return 0;\n}\n";
    const std::string sent = text;
    LspChanges changes;
    auto edit = [&](std::size_t start, std::size_t end, const std::string& with) {
        LineTable lines(text);
        changes.edit(LineIndex(text, lines), start, end, with);
        text.replace(start, end - start, with);
    };
    std::size_t at = text.find('0');
    for (char c : std::string("12"))
        edit(at + 1 + (c - '1'), at + 1 + (c - '1'), std::string(1, c)); // "012"
    edit(at + 2, at + 3, "");                                            // backspace: "01"
    edit(at - 1, at + 2, " é😀");                                         // back into the text
    Json one = changes.take(text);
    ASSERT_EQ(one.size(), 1u) << one.dump();
    EXPECT_EQ(one[0]["range"]["start"], (Json{{"line", 1}, {"character", 10}}));
    EXPECT_EQ(one[0]["range"]["end"], (Json{{"line", 1}, {"character", 12}}));
    EXPECT_EQ(one[0]["text"], " é😀");
    EXPECT_EQ(applied(sent, one), text);
    EXPECT_TRUE(changes.empty());

    const std::string before = text;
    edit(0, 0, "// top\n");
    edit(text.size() - 1, text.size(), "");
    Json two = changes.take(text);
    EXPECT_EQ(two.size(), 2u) << "apart: two changes, in order";
    EXPECT_EQ(applied(before, two), text);

    edit(0, 3, "x");
    changes.whole();
    edit(0, 0, "y");
    Json whole = changes.take(text);
    ASSERT_EQ(whole.size(), 1u);
    EXPECT_EQ(whole[0], (Json{{"text", text}}));
}

TEST(LspChanges, AnyRunOfEditsAppliedByTheServerGivesTheNewText) {
    RandomEdits edits;
    for (int run = 0; run < 300; ++run) {
        std::string text = "one\ntwo é\r\nthree 😀\n";
        LineTable lines(text);
        const std::string sent = text;
        LspChanges changes;
        std::size_t cursor = edits.boundary(text);
        for (int i = 0, n = static_cast<int>(edits.pick(12)); i < n; ++i) {
            // Mostly typing and deleting near the last place, as a person does; sometimes
            // elsewhere.
            std::size_t start =
                edits.pick(3) == 0 ? edits.boundary(text) : std::min(cursor, text.size());
            std::size_t end = start;
            if (edits.pick(2) == 0) { // a deletion backwards, forwards or around
                std::size_t other = edits.boundary(text);
                if (other < start)
                    start = other;
                else
                    end = other;
            }
            std::string with = edits.piece();
            changes.edit(LineIndex(text, lines), start, end, with);
            text.replace(start, end - start, with);
            lines.edit(text, start, end, with.size());
            cursor = start + with.size();
        }
        ASSERT_EQ(applied(sent, changes.take(text)), text) << "run " << run;
    }
}

TEST(LspProtocol, ValuesTheServersSendAreRead) {
    auto published =
        parse_published(Json::parse(R"({"uri":"file:///p/a.c","version":4,"diagnostics":[
            {"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}},
             "severity":2,"message":"m","source":"clang","code":17},
            {"range":"broken"},
            {"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"x"}]})"),
                        10);
    ASSERT_TRUE(published);
    EXPECT_EQ(published->version, 4);
    ASSERT_EQ(published->diagnostics.size(), 2u);
    EXPECT_EQ(published->diagnostics[0].severity, Severity::warning);
    EXPECT_EQ(published->diagnostics[0].code, "17");
    EXPECT_EQ(published->diagnostics[1].severity, Severity::error) << "none given: an error";

    auto links = parse_locations(Json::parse(R"([{"targetUri":"file:///b.h",
        "targetRange":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}},
        "targetSelectionRange":{"start":{"line":3,"character":4},"end":{"line":3,"character":9}}}])"),
                                 10);
    ASSERT_EQ(links.size(), 1u);
    EXPECT_EQ(links[0].range.start, (LspPosition{3, 4}));

    auto hover =
        parse_hover(Json::parse(R"j({"contents":[{"language":"cpp","value":"int f()"},"doc"]})j"));
    ASSERT_TRUE(hover);
    EXPECT_EQ(hover->text, "```cpp\nint f()\n```\n\ndoc");
    EXPECT_TRUE(hover->markdown);
    EXPECT_FALSE(parse_hover(nullptr));

    auto symbols = parse_symbols(Json::parse(R"([{"name":"S","kind":23,
        "range":{"start":{"line":0,"character":0},"end":{"line":5,"character":1}},
        "selectionRange":{"start":{"line":0,"character":7},"end":{"line":0,"character":8}},
        "children":[{"name":"f","kind":6,"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":9}}}]}])"),
                                 10);
    ASSERT_EQ(symbols.size(), 2u);
    EXPECT_EQ(symbols[1].container, "S");
    EXPECT_EQ(symbols[1].depth, 1);
    EXPECT_EQ(symbol_kind_name(symbols[0].kind), "struct");

    LspCapabilities caps = parse_capabilities(Json::parse(
        R"({"capabilities":{"textDocumentSync":{"openClose":true,"change":2,"save":{"includeText":true}},
            "hoverProvider":true,"definitionProvider":{},"referencesProvider":false}})"));
    EXPECT_EQ(caps.sync, 2);
    EXPECT_TRUE(caps.save_text);
    EXPECT_TRUE(caps.definition);
    EXPECT_FALSE(caps.references);
}

TEST(LspProtocol, FileUrisRoundTripWithEscapes) {
    std::filesystem::path path = "/tmp/a b/ü#1.cpp";
    std::string uri = path_to_uri(path);
    EXPECT_EQ(uri, "file:///tmp/a%20b/%C3%BC%231.cpp");
    EXPECT_EQ(uri_to_path(uri), path);
    EXPECT_FALSE(uri_to_path("https://x/y"));
    EXPECT_FALSE(uri_to_path("file:///a%2"));
    EXPECT_FALSE(uri_to_path("file:///a%00b")) << "no NUL in a path";
}

TEST(LspConfig, UserEntriesChangeBuiltInsFieldByFieldAndAddServers) {
    LspConfig config;
    config.servers = builtin_lsp_servers();
    merge_lsp_config(config, R"({
        // comments are fine
        "servers": {
            "clangd": {"args": ["--log=verbose"], "start_timeout_s": 60},
            "pylsp": {"disabled": true},
            "lua": {"command": "lua-language-server", "files": ["*.lua"], "timeout_s": 0.5,
                    "change_delay_s": 0},
            "broken": {"command": 3},
        },
        "agent": {"severity": "warning"}})",
                     "user", "lsp.json");
    EXPECT_TRUE(config.problems.empty());
    auto named = [&](const std::string& name) {
        return *std::find_if(config.servers.begin(), config.servers.end(),
                             [&](const LspServerConfig& s) { return s.name == name; });
    };
    EXPECT_EQ(named("clangd").argv, (std::vector<std::string>{"clangd", "--log=verbose"}));
    EXPECT_EQ(named("clangd").source, "user");
    EXPECT_TRUE(named("clangd").handles("src/a.cpp"));
    EXPECT_TRUE(named("pylsp").disabled);
    EXPECT_EQ(named("lua").timeout, std::chrono::milliseconds(500));
    EXPECT_EQ(named("lua").initialize_timeout(), std::chrono::milliseconds(1500)) << "3×";
    EXPECT_EQ(named("clangd").initialize_timeout(), std::chrono::seconds(60));
    EXPECT_EQ(named("lua").change_delay, std::chrono::milliseconds(0)) << "every change at once";
    EXPECT_EQ(named("clangd").change_delay, std::chrono::milliseconds(150));
    EXPECT_TRUE(named("lua").handles("x/y.lua"));
    EXPECT_FALSE(named("lua").handles("y.luax"));
    EXPECT_EQ(named("broken").error, "command must be a non-empty string");
    EXPECT_EQ(config.agent_severity, Severity::warning);
    EXPECT_EQ(language_id(named("clangd"), "a.hpp"), "cpp");
    EXPECT_EQ(language_id(named("lua"), "a.lua"), "lua");

    merge_lsp_config(config, "[1]", "project", ".rio/lsp.json");
    ASSERT_EQ(config.problems.size(), 1u);
    EXPECT_NE(config.problems[0].find(".rio/lsp.json"), std::string::npos);
}

// Issue 40: pylsp gets whole texts (it counts code points), typescript-language-server's
// passes are waited out; a user's entry may say either, and a wrong value is the entry's error.
TEST(LspConfig, SyncAndSettleArePerServer) {
    LspConfig config;
    config.servers = builtin_lsp_servers();
    auto named = [&](const std::string& name) -> const LspServerConfig& {
        return *std::find_if(config.servers.begin(), config.servers.end(),
                             [&](const LspServerConfig& s) { return s.name == name; });
    };
    EXPECT_EQ(named("pylsp").sync, LspSync::full);
    EXPECT_EQ(named("clangd").sync, LspSync::incremental);
    EXPECT_EQ(named("typescript").sync, LspSync::incremental);
    EXPECT_EQ(named("typescript").diagnostics_settle, std::chrono::milliseconds(250));
    EXPECT_EQ(named("clangd").diagnostics_settle, std::chrono::milliseconds(0));
    merge_lsp_config(config,
                     R"({"servers": {"pylsp": {"sync": "incremental"},
                                     "clangd": {"sync": "full", "diagnostics_settle_s": 0.1},
                                     "gopls": {"sync": "sometimes"}}})",
                     "user", "lsp.json");
    EXPECT_EQ(named("pylsp").sync, LspSync::incremental);
    EXPECT_EQ(named("clangd").sync, LspSync::full);
    EXPECT_EQ(named("clangd").diagnostics_settle, std::chrono::milliseconds(100));
    EXPECT_EQ(named("gopls").error, "sync must be \"incremental\" or \"full\"");
}

TEST(LspConfig, ProgramsAreFoundOnPath) {
    EXPECT_TRUE(find_program("sh"));
    EXPECT_FALSE(find_program("rio-no-such-program-anywhere"));
    EXPECT_FALSE(find_program("/nonexistent/prog"));
}

TEST(LspWords, AnEditsResultNamesAtMostTenErrorsAndSaysWhenItCouldNotTell) {
    LspFileReport report;
    report.outcome = LspFileReport::Outcome::reported;
    report.server = "clangd";
    for (std::uint64_t i = 1; i <= 12; ++i)
        report.diagnostics.push_back(
            {i, 4, i, 5, Severity::error, "bad " + std::to_string(i), "clang", ""});
    report.diagnostics.push_back({20, 0, 20, 1, Severity::warning, "meh", "", ""});
    std::string words = diagnostics_words("a.cpp", report, Severity::error, 10);
    EXPECT_NE(words.find("clangd reports 12 errors in a.cpp:"), std::string::npos) << words;
    EXPECT_NE(words.find("a.cpp:1:5: error: bad 1 [clang]"), std::string::npos) << words;
    EXPECT_EQ(words.find("bad 11"), std::string::npos);
    EXPECT_NE(words.find("… and 2 more"), std::string::npos);
    EXPECT_EQ(words.find("meh"), std::string::npos) << "warnings are not errors";
    report.diagnostics.resize(12);
    report.diagnostics.erase(report.diagnostics.begin(), report.diagnostics.begin() + 12);
    EXPECT_EQ(diagnostics_words("a.cpp", report, Severity::error, 10),
              "clangd reports no errors in a.cpp.");
    report.outcome = LspFileReport::Outcome::timed_out;
    report.waited_at_most = std::chrono::milliseconds(300);
    EXPECT_EQ(diagnostics_words("a.cpp", report, Severity::error, 10),
              "clangd had not reported on a.cpp within 0.3 seconds.");
    report.outcome = LspFileReport::Outcome::no_server;
    EXPECT_EQ(diagnostics_words("a.cpp", report, Severity::error, 10), "");
}

} // namespace
} // namespace rio
