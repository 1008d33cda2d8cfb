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

    Json search(const Json& params) {
        Json r = client().request("fs.search", params);
        EXPECT_EQ(r["ok"], true) << r.dump();
        return r["result"];
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

} // namespace
} // namespace rio::test
