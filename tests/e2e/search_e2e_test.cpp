// fs.search through the real rio-core: the project search a frontend's search panel uses,
// with the agent's rules (open buffers, .gitignore, binary files, bounded results).
#include "tests/support/core_process.hpp"
#include "tests/support/replies.hpp"

#include <gtest/gtest.h>

namespace rio::test {
namespace {

// "path:line" of every match, in result order.
std::vector<std::string> where(const Json& result) {
    std::vector<std::string> out;
    for (const Json& m : result.at("matches"))
        out.push_back(m.at("path").get<std::string>() + ":" +
                      std::to_string(m.at("line").get<int>()));
    return out;
}

using Where = std::vector<std::string>;

class SearchE2E : public ::testing::Test {
protected:
    void SetUp() override {
        Json r = client().request("project.open", {{"path", project.path().string()}});
        ASSERT_EQ(r["ok"], true) << r.dump();
    }

    LineClient& client() { return core.stdio(); }

    // The result with its matches also one by one, as `matches` (search_matches).
    Json search(const Json& params) {
        Json r = client().request("fs.search", params);
        EXPECT_EQ(r["ok"], true) << r.dump();
        Json result = r["result"];
        result["matches"] = search_matches(result);
        return result;
    }

    TempDir project;
    CoreProcess core{std::vector<std::string>{}};
};

TEST_F(SearchE2E, FindsLinesInPathOrderAndCountsFiles) {
    write_bytes(project / "src/b.cpp", "int needle;\nint x;\n  needle();\r\n");
    write_bytes(project / "src/a.cpp", "// needle\n");
    write_bytes(project / "blob.bin", std::string("needle\0", 7));
    Json r = search({{"pattern", "needle"}});
    EXPECT_EQ(where(r), (Where{"src/a.cpp:1", "src/b.cpp:1", "src/b.cpp:3"}));
    EXPECT_EQ(r["matches"][2]["text"], "  needle();");
    EXPECT_EQ(r["truncated"], false);
    EXPECT_EQ(r["files_searched"], 2);
    EXPECT_EQ(r["files_skipped"], 1);
}

TEST_F(SearchE2E, RegexIgnoreCaseGlobAndPathNarrowTheSearch) {
    write_bytes(project / "src/a.cpp", "Foo(1)\nfoo(x)\n");
    write_bytes(project / "src/a.h", "FOO(2)\n");
    write_bytes(project / "test/t.cpp", "foo(3)\n");
    EXPECT_EQ(where(search({{"pattern", R"(foo\(\d\))"}, {"regex", true}})),
              (Where{"test/t.cpp:1"}));
    EXPECT_EQ(where(search({{"pattern", R"(foo\(\d\))"}, {"regex", true}, {"ignore_case", true}})),
              (Where{"src/a.cpp:1", "src/a.h:1", "test/t.cpp:1"}));
    EXPECT_EQ(where(search({{"pattern", "foo"}, {"ignore_case", true}, {"glob", "*.cpp"}})),
              (Where{"src/a.cpp:1", "src/a.cpp:2", "test/t.cpp:1"}));
    EXPECT_EQ(where(search({{"pattern", "foo"}, {"path", "test"}})), (Where{"test/t.cpp:1"}));
}

TEST_F(SearchE2E, GitignoredFilesAndDotGitAreLeftOut) {
    write_bytes(project / ".gitignore", "build/\n*.log\n");
    write_bytes(project / "build/out.txt", "needle\n");
    write_bytes(project / "run.log", "needle\n");
    write_bytes(project / ".git/config", "needle\n");
    write_bytes(project / ".hidden/notes.txt", "needle\n");
    EXPECT_EQ(where(search({{"pattern", "needle"}})), (Where{".hidden/notes.txt:1"}));
}

TEST_F(SearchE2E, OpenBuffersAreSearchedInsteadOfTheirFiles) {
    write_bytes(project / "a.txt", "old needle\n");
    ASSERT_EQ(client().request("buffer.open", {{"path", "a.txt"}})["ok"], true);
    ASSERT_EQ(client().request("buffer.replace",
                               {{"path", "a.txt"}, {"text", "first\nnew needle\n"}})["ok"],
              true);
    Json r = search({{"pattern", "needle"}});
    EXPECT_EQ(where(r), (Where{"a.txt:2"}));
    EXPECT_EQ(r["matches"][0]["text"], "new needle");
}

TEST_F(SearchE2E, MaxMatchesTruncates) {
    write_bytes(project / "a.txt", "x\nx\nx\n");
    Json r = search({{"pattern", "x"}, {"max_matches", 2}});
    EXPECT_EQ(where(r), (Where{"a.txt:1", "a.txt:2"}));
    EXPECT_EQ(r["truncated"], true);
}

TEST_F(SearchE2E, BadPatternsPathsOutsideAndNoProjectAreErrors) {
    EXPECT_EQ(code_of(client().request("fs.search", {{"pattern", "a("}, {"regex", true}})),
              "bad_request");
    EXPECT_EQ(code_of(client().request("fs.search", {{"pattern", ""}})), "bad_request");
    EXPECT_EQ(code_of(client().request("fs.search", Json::object())), "bad_request");
    EXPECT_EQ(code_of(client().request("fs.search", {{"pattern", "x"}, {"path", "/etc"}})),
              "refused");
    EXPECT_EQ(code_of(client().request("fs.search", {{"pattern", "x"}, {"path", "nope"}})),
              "not_found");
    ASSERT_EQ(client().request("project.close")["ok"], true);
    EXPECT_EQ(code_of(client().request("fs.search", {{"pattern", "x"}})), "no_project");
}

// Globs as rg writes them (issue 40): `*.{c,h}` and `!*.c` matched nothing, silently.
TEST_F(SearchE2E, GlobsTakeBracesNegationsAndSeveralAtOnce) {
    write_bytes(project / "a.c", "needle\n");
    write_bytes(project / "src/b.h", "needle\n");
    write_bytes(project / "src/c.cpp", "needle\n");
    write_bytes(project / "test/d.c", "needle\n");
    EXPECT_EQ(where(search({{"pattern", "needle"}, {"glob", "*.{c,h}"}})),
              (Where{"a.c:1", "src/b.h:1", "test/d.c:1"}));
    EXPECT_EQ(where(search({{"pattern", "needle"}, {"glob", "!*.c"}})),
              (Where{"src/b.h:1", "src/c.cpp:1"}));
    EXPECT_EQ(
        where(search({{"pattern", "needle"}, {"glob", Json::array({"*.{c,h}", "!test/**"})}})),
        (Where{"a.c:1", "src/b.h:1"}));
    Json files = client().request("fs.files", {{"glob", Json::array({"**/*.c", "!a.*"})}});
    ASSERT_EQ(files["ok"], true) << files.dump();
    EXPECT_EQ(files["result"]["files"], (Json{"test/d.c"}));
}

// A glob rio cannot read is refused, saying which forms work, never zero matches.
TEST_F(SearchE2E, AMalformedGlobIsABadRequestThatSaysWhatWorks) {
    write_bytes(project / "a.c", "needle\n");
    for (const char* glob : {"*.{c,h", "*.{c,{h,cpp}}", "*.c}", "[z-a].c", "x\\", "*.{c,}"}) {
        Json r = client().request("fs.search", {{"pattern", "needle"}, {"glob", glob}});
        EXPECT_EQ(code_of(r), "bad_request") << glob << ": " << r.dump();
        const std::string message = r["error"]["message"];
        EXPECT_NE(message.find(glob), std::string::npos) << message;
        EXPECT_NE(message.find("{a,b}"), std::string::npos) << message;
        EXPECT_EQ(code_of(client().request("fs.files", {{"glob", glob}})), "bad_request") << glob;
    }
    EXPECT_EQ(code_of(client().request("fs.search", {{"pattern", "x"}, {"glob", 7}})),
              "bad_request");
}

// What a search panel marks and where an editor selects: the match in `text` and in the line.
TEST_F(SearchE2E, MatchesSayWhereTheyAreInTheLineAndInTheText) {
    write_bytes(project / "a.txt", "  caf\xc3\xa9 Needle here\r\n");
    const std::string long_line = std::string(500, 'x') + "needle" + std::string(500, 'y');
    write_bytes(project / "b.txt", long_line + "\n");
    Json r = search({{"pattern", "needle"}, {"ignore_case", true}});
    ASSERT_EQ(where(r), (Where{"a.txt:1", "b.txt:1"}));
    const Json& short_match = r["matches"][0];
    EXPECT_EQ(short_match["text"], "  caf\xc3\xa9 Needle here");
    EXPECT_EQ(short_match["column"], 8); // bytes: the é is two
    EXPECT_EQ(short_match["length"], 6);
    EXPECT_EQ(short_match["start"], 8);
    EXPECT_EQ(short_match["end"], 14);

    const Json& clipped = r["matches"][1];
    EXPECT_EQ(clipped["column"], 500);
    EXPECT_EQ(clipped["length"], 6);
    const std::string text = clipped["text"];
    ASSERT_TRUE(text.starts_with("…")) << text;
    const std::size_t start = clipped["start"], end = clipped["end"];
    EXPECT_EQ(text.substr(start, end - start), "needle");

    Json regex = search({{"pattern", "e+d"}, {"regex", true}, {"path", "a.txt"}});
    ASSERT_EQ(where(regex), (Where{"a.txt:1"}));
    EXPECT_EQ(regex["matches"][0]["column"], 9);
    EXPECT_EQ(regex["matches"][0]["length"], 3);
}

// fs.files: what a quick open offers, by the search's rules, without reading a file.
TEST_F(SearchE2E, FilesListsTheProjectInPathOrderWithoutIgnoredOnes) {
    write_bytes(project / ".gitignore", "build/\n*.log\n");
    write_bytes(project / "build/out.txt", "x");
    write_bytes(project / "run.log", "x");
    write_bytes(project / ".git/config", "x");
    write_bytes(project / "src/main.cpp", "x");
    write_bytes(project / "src-old.txt", "x");
    write_bytes(project / "blob.bin", std::string("\0\1", 2));
    write_bytes(project / ".hidden/notes.txt", "x");
    Json r = client().request("fs.files");
    ASSERT_EQ(r["ok"], true) << r.dump();
    EXPECT_EQ(r["result"]["files"],
              (Json{".gitignore", ".hidden/notes.txt", "blob.bin", "src-old.txt", "src/main.cpp"}));
    EXPECT_EQ(r["result"]["truncated"], false);

    Json two = client().request("fs.files", {{"max_files", 2}});
    EXPECT_EQ(two["result"]["files"], (Json{".gitignore", ".hidden/notes.txt"}));
    EXPECT_EQ(two["result"]["truncated"], true);
    Json all = client().request("fs.files", {{"max_files", 5}});
    EXPECT_EQ(all["result"]["truncated"], false);

    ASSERT_EQ(client().request("project.close")["ok"], true);
    EXPECT_EQ(code_of(client().request("fs.files")), "no_project");
}

// A Latin-1 name was listed as "bad\uFFFDname.txt" by fs.list, fs.files and fs.search, and
// fs.read of that name said not_found: visible and unreachable. Now such names are left out
// everywhere, counted in `left_out` (decision 0051), and what rio shows can be opened.
TEST_F(SearchE2E, NamesThatAreNotUtf8AreLeftOutOfEveryListingAndCounted) {
    write_bytes(project / "bad\xffname.txt", "needle\n");
    write_bytes(project / "d\xe9j\xe0/inner.txt", "needle\n");
    write_bytes(project / "ok.txt", "needle\n");

    Json list = client().request("fs.list");
    ASSERT_EQ(list["ok"], true) << list.dump();
    ASSERT_EQ(list["result"]["entries"].size(), 1u) << list.dump();
    EXPECT_EQ(list["result"]["entries"][0]["name"], "ok.txt");
    EXPECT_EQ(list["result"]["left_out"], 2);

    Json files = client().request("fs.files");
    EXPECT_EQ(files["result"]["files"], (Json{"ok.txt"})) << files.dump();
    EXPECT_EQ(files["result"]["left_out"], 2);

    Json found = search({{"pattern", "needle"}});
    EXPECT_EQ(where(found), (Where{"ok.txt:1"}));
    EXPECT_EQ(found["left_out"], 2);

    // Everything listed opens; the name as it would have been shown names nothing.
    for (const Json& entry : list["result"]["entries"])
        EXPECT_EQ(client().request("fs.read", {{"path", entry["name"]}})["ok"], true);
    for (const char* op : {"fs.read", "buffer.open"})
        EXPECT_EQ(code_of(client().request(op, {{"path", "bad\uFFFDname.txt"}})), "not_found")
            << op;
    EXPECT_EQ(
        code_of(client().request("fs.search", {{"pattern", "needle"}, {"path", "d\uFFFDj\uFFFD"}})),
        "not_found")
        << "a folder shown with U+FFFD cannot be searched either";
    Json clean = client().request("fs.list", {{"path", "."}});
    EXPECT_EQ(clean["result"]["left_out"], 2) << "nothing was created or renamed";
}

// One binary rule for search and read (docs/protocol.md): a NUL byte anywhere. Search used to
// look at the first 8 KiB only, so it found lines in a file fs.read refused.
TEST_F(SearchE2E, AFileWithANulPastItsFirst8KiBIsNeitherSearchedNorRead) {
    write_bytes(project / "late.txt", "needle\n" + std::string(9000, 'x') + std::string(1, '\0'));
    write_bytes(project / "text.txt", "needle\n");
    Json r = search({{"pattern", "needle"}});
    EXPECT_EQ(where(r), (Where{"text.txt:1"}));
    EXPECT_EQ(r["files_skipped"], 1);
    EXPECT_EQ(code_of(client().request("fs.read", {{"path", "late.txt"}})), "refused");
}

// RE2's \b and \w are ASCII: `\bÜber` found nothing where rg finds every line starting a
// word with Über. They are Unicode now, as rg's are (decision 0052).
TEST_F(SearchE2E, WordBoundariesAndWordCharactersAreUnicodeAsRgHasThem) {
    write_bytes(project / "de.txt",
                "Über alles\n"    // 1: at the start
                "nicht Überall\n" // 2: after a space
                "GrößeÜber\n"     // 3: after a letter: no boundary
                "x_Über\n"        // 4: after '_', a word character: no boundary
                "«Über»\n"        // 5: after punctuation
                "naïve café\n");  // 6: \w+ takes whole words
    EXPECT_EQ(where(search({{"pattern", R"(\bÜber)"}, {"regex", true}})),
              (Where{"de.txt:1", "de.txt:2", "de.txt:5"}));
    EXPECT_EQ(where(search({{"pattern", R"(\büber\b)"}, {"regex", true}, {"ignore_case", true}})),
              (Where{"de.txt:1", "de.txt:5"}));
    EXPECT_EQ(where(search({{"pattern", R"(\BÜber)"}, {"regex", true}})),
              (Where{"de.txt:3", "de.txt:4"}));
    Json words = search({{"pattern", R"(\bcaf\w\b)"}, {"regex", true}});
    ASSERT_EQ(where(words), (Where{"de.txt:6"}));
    EXPECT_EQ(words["matches"][0]["length"], 5) << "café is 5 bytes";
    Json naive = search({{"pattern", R"(^\w+\s)"}, {"regex", true}, {"path", "de.txt"}});
    EXPECT_EQ(where(naive), (Where{"de.txt:1", "de.txt:2", "de.txt:6"}));
    EXPECT_EQ(naive["matches"][2]["length"], 7) << "\\w+ takes all of naïve";
}

// Every match of a large result, through the protocol, each one whole: the reply is written
// as text (decision 0050), grouped by file with a match an array (decision 0067).
TEST_F(SearchE2E, AResultWithEveryMatchOfManyFilesIsWholeAndInOrder) {
    std::string text;
    for (int i = 0; i < 50; ++i)
        text += "needle \"quoted\" \\ tab\there " + std::to_string(i) + "\n";
    for (int f = 0; f < 40; ++f)
        write_bytes(project / ("d" + std::to_string(f % 4)) / ("f" + std::to_string(f) + ".txt"),
                    text);
    Json r = search({{"pattern", "needle"}, {"max_matches", 100000}});
    ASSERT_EQ(r["matches"].size(), 2000u);
    EXPECT_EQ(r["truncated"], false);
    EXPECT_EQ(r["files_searched"], 40);
    EXPECT_FALSE(r.contains("left_out"));
    const Json& first = r["matches"][0];
    EXPECT_EQ(first["path"], "d0/f0.txt");
    EXPECT_EQ(first["text"], "needle \"quoted\" \\ tab\there 0");
    EXPECT_EQ(first["line"], 1);
    EXPECT_EQ(first["column"], 0);
    EXPECT_EQ(first["length"], 6);
    EXPECT_EQ(r["matches"][1999]["path"], "d3/f7.txt"); // d3/f11 … d3/f39, d3/f7
    EXPECT_EQ(r["matches"][1999]["line"], 50);
    // The shape on the wire: a file once, its matches as [line, column, length, start, end, text].
    ASSERT_EQ(r["files"].size(), 40u);
    EXPECT_EQ(r["files"][0]["path"], "d0/f0.txt");
    ASSERT_EQ(r["files"][0]["matches"].size(), 50u);
    EXPECT_EQ(r["files"][0]["matches"][1],
              (Json{2, 0, 6, 0, 6, "needle \"quoted\" \\ tab\there 1"}));
    Json cut = search({{"pattern", "needle"}, {"max_matches", 75}});
    EXPECT_EQ(cut["matches"].size(), 75u);
    ASSERT_EQ(cut["files"].size(), 2u);
    EXPECT_EQ(cut["files"][1]["matches"].size(), 25u)
        << "the second file is cut where 75 is reached";
    EXPECT_EQ(cut["truncated"], true);
}

} // namespace
} // namespace rio::test
