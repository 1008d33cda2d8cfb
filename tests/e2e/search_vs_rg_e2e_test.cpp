// ripgrep as the oracle for fs.search: on a generated tree with ignored folders and files,
// nested .gitignore files with negations, hidden files, a binary file and awkward lines,
// rio and `rg` must report the same lines. rg is told to select files as rio does: hidden
// files searched, .git/ never, no global or parent ignore files.
#include "tests/support/core_process.hpp"
#include "tests/support/replies.hpp"
#include "tests/support/rng.hpp"

#include <cstdio>
#include <gtest/gtest.h>
#include <set>
#include <string>

namespace rio::test {
namespace {

using Lines = std::set<std::string>; // "path:line"

std::string shell_quote(std::string_view s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// rg told to select files as rio does, then `flags`; what it prints.
std::string run_rg(const TempDir& tree, const std::string& flags) {
    std::string command = "cd " + shell_quote(tree.path().string()) +
                          " && rg --no-config --hidden -g '!.git' --no-ignore-global "
                          "--no-ignore-parent --no-ignore-dot --no-require-git --no-messages "
                          "--color never " +
                          flags;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) {
        ADD_FAILURE() << "popen failed for " << command;
        return {};
    }
    std::string out;
    char chunk[65536];
    for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;)
        out.append(chunk, n);
    int status = ::pclose(pipe);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) <= 1) << command << ": " << status;
    return out;
}

// `-g GLOB` for each glob, in order.
std::string rg_globs(const Json& globs) {
    std::string flags;
    for (const Json& g : globs)
        flags += " -g " + shell_quote(g.get<std::string>());
    return flags;
}

// rg prints "path\0line:text" with --null; exit 1 means no match.
Lines rg_lines(const TempDir& tree, const std::string& flags, const std::string& pattern) {
    std::string out = run_rg(tree, "-n --no-heading --with-filename --null " + flags + " -e " +
                                       shell_quote(pattern) + " .");
    Lines lines;
    for (std::size_t at = 0; at < out.size();) {
        std::size_t nul = out.find('\0', at);
        std::size_t colon = out.find(':', nul);
        std::size_t eol = out.find('\n', colon);
        if (nul == std::string::npos || colon == std::string::npos) break;
        std::string path = out.substr(at, nul - at);
        if (path.starts_with("./")) path.erase(0, 2);
        lines.insert(path + ":" + out.substr(nul + 1, colon - nul - 1));
        at = eol == std::string::npos ? out.size() : eol + 1;
    }
    return lines;
}

void write(const TempDir& tree, const std::string& rel, std::string_view bytes) {
    write_bytes(tree / rel, bytes);
}

// A few hundred files of code-like lines with needles in every spelling the searches
// below care about, under rules that exercise each part of .gitignore.
void generate(const TempDir& tree) {
    write(tree, ".git/HEAD", "ref: refs/heads/main\nneedle_token\n");
    write(tree, ".git/info/exclude", "private/\n");
    write(tree, ".gitignore",
          "# build output\nbuild/\n*.log\n!keep.log\n/generated/*\n!/generated/keep.txt\n"
          "cache/\n**/tmp/**\ndocs/*.draft\n");
    write(tree, "src/mod1/.gitignore", "*.tmp\n!important.tmp\n/local.txt\n");
    write(tree, "src/mod1/deep/.gitignore", "!*.log\nignored-here.txt\n");
    write(tree, "src/mod2/.gitignore", "*\n!*.cpp\n!*/\n");

    Rng rng(20240611);
    const char* const words[] = {"value", "count", "index", "buffer", "result", "token",
                                 "node",  "size",  "line",  "offset", "parse",  "emit"};
    const char* const needles[] = {
        "needle_token",      "Needle_Token",
        "NEEDLE_TOKEN",
        "needle_to\u212Aen", // KELVIN SIGN, which (?i)k matches
        "needle_7(value)",   "NEEDLE_42(Size)",
        "needle_x(value)",   "caf\xC3\xA9 needle_token \xC3\x89T\xC3\x89"};
    auto text_of = [&](std::size_t lines, bool crlf) {
        std::string text;
        for (std::size_t l = 0; l < lines; ++l) {
            text += std::string(4 * rng.below(3), ' ');
            text += words[rng.below(std::size(words))];
            text += "_";
            text += words[rng.below(std::size(words))];
            text += "(" + std::to_string(rng.below(1000)) + ");";
            if (rng.below(8) == 0)
                text += std::string(" // ") + needles[rng.below(std::size(needles))];
            text += crlf ? "\r\n" : "\n";
        }
        return text;
    };
    const char* const places[] = {
        "src/mod1",  "src/mod1/deep", "src/mod2", "src/mod2/sub", "src/mod3/tmp",    "build",
        "build/obj", "generated",     "docs",     "logs",         ".hidden",         "cache",
        "src/cache", "private",       "src/mod3", "vendor/tmp",   "src/mod1/deep/er"};
    const char* const extensions[] = {".cpp", ".h", ".log", ".tmp", ".txt", ".draft", ""};
    for (int f = 0; f < 320; ++f) {
        std::string rel = std::string(places[rng.below(std::size(places))]) + "/file" +
                          std::to_string(f) + extensions[rng.below(std::size(extensions))];
        write(tree, rel, text_of(5 + rng.below(60), f % 11 == 0));
    }
    write(tree, "src/mod1/important.tmp", "needle_token kept\n");
    write(tree, "src/mod1/local.txt", "needle_token\n");
    write(tree, "src/mod1/sub/local.txt", "needle_token: only the top one is anchored\n");
    write(tree, "src/mod1/deep/keep-me.log", "needle_token\n");
    write(tree, "src/mod1/deep/ignored-here.txt", "needle_token\n");
    write(tree, "logs/keep.log", "needle_token\n");
    write(tree, "generated/keep.txt", "needle_token\n");
    write(tree, "generated/other.txt", "needle_token\n");
    write(tree, ".env", "TOKEN=needle_token\n");
    write(tree, "blob.bin",
          std::string("\x7f"
                      "ELF\0\0needle_token\n",
                      19));
    write(tree, "no-newline.txt", "first\nneedle_token at the end");
    write(tree, "empty.txt", "");
    write(tree, "long.txt",
          std::string(100'000, 'x') + "needle_token" + std::string(10, 'y') + "\n");
}

class SearchVsRipgrep : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(std::system("rg --version >/dev/null 2>&1"), 0)
            << "ripgrep (rg) is not installed, and this test compares rio's search with it: "
               "run scripts/install-deps (Debian package ripgrep)";
        generate(tree);
        Json r = core.stdio().request("project.open", {{"path", tree.path().string()}});
        ASSERT_EQ(r["ok"], true) << r.dump();
    }

    Lines rio_lines(const Json& params) {
        Json query = params;
        query["max_matches"] = 1'000'000;
        Json r = core.stdio().request("fs.search", query);
        EXPECT_EQ(r["ok"], true) << r.dump();
        Lines lines;
        for (const Json& m : search_matches(r["result"]))
            lines.insert(m["path"].get<std::string>() + ":" + std::to_string(m["line"].get<int>()));
        EXPECT_EQ(r["result"]["truncated"], false);
        return lines;
    }

    void compare(const Json& params, const std::string& rg_flags, std::size_t at_least = 21) {
        std::string pattern = params["pattern"];
        Lines rio = rio_lines(params), rg = rg_lines(tree, rg_flags, pattern);
        EXPECT_GE(rg.size(), at_least) << "the tree should hold matches for " << pattern;
        expect_same(rio, rg, pattern + " (" + params.dump() + ")");
    }

    // fs.files against `rg --files`, both with `globs`.
    void compare_files(const Json& globs) {
        Json r = core.stdio().request("fs.files", {{"glob", globs}});
        ASSERT_EQ(r["ok"], true) << r.dump();
        Lines rio;
        for (const Json& f : r["result"]["files"])
            rio.insert(f.get<std::string>());
        Lines rg;
        std::string out = run_rg(tree, "--files --null" + rg_globs(globs) + " .");
        for (std::size_t at = 0, nul; (nul = out.find('\0', at)) != std::string::npos;
             at = nul + 1) {
            std::string path = out.substr(at, nul - at);
            if (path.starts_with("./")) path.erase(0, 2);
            rg.insert(path);
        }
        EXPECT_FALSE(rg.empty()) << globs.dump();
        expect_same(rio, rg, "fs.files " + globs.dump());
    }

    static void expect_same(const Lines& rio, const Lines& rg, const std::string& what) {
        std::vector<std::string> only_rio, only_rg;
        std::set_difference(rio.begin(), rio.end(), rg.begin(), rg.end(),
                            std::back_inserter(only_rio));
        std::set_difference(rg.begin(), rg.end(), rio.begin(), rio.end(),
                            std::back_inserter(only_rg));
        EXPECT_TRUE(only_rio.empty() && only_rg.empty())
            << what << ": " << rio.size() << " from rio, " << rg.size()
            << " from rg; only rio: " << testing::PrintToString(only_rio)
            << "; only rg: " << testing::PrintToString(only_rg);
    }

    TempDir tree;
    CoreProcess core{std::vector<std::string>{}};
};

TEST_F(SearchVsRipgrep, Literal) {
    compare({{"pattern", "needle_token"}}, "-F");
}

TEST_F(SearchVsRipgrep, Regex) {
    compare({{"pattern", R"(needle_[0-9]+\([a-z]+\))"}, {"regex", true}}, "");
}

TEST_F(SearchVsRipgrep, IgnoreCaseLiteral) {
    compare({{"pattern", "needle_token"}, {"ignore_case", true}}, "-F -i");
}

TEST_F(SearchVsRipgrep, IgnoreCaseRegex) {
    compare({{"pattern", R"(needle_[0-9]+\([a-z]+\))"}, {"regex", true}, {"ignore_case", true}},
            "-i");
}

TEST_F(SearchVsRipgrep, AnchoredRegexOnCrlfAndUnterminatedLines) {
    compare({{"pattern", R"(\);$|^\s*(value|token)_)"}, {"regex", true}}, "");
}

// Alternations and classes (issue 40 item 7), which a run of byte classes prefilters and,
// when they are a few strings, matches without RE2.
TEST_F(SearchVsRipgrep, AlternationsAndClasses) {
    compare({{"pattern", "needle_token|NEEDLE_TOKEN|needle_[0-9]"}, {"regex", true}}, "");
    compare({{"pattern", "[A-Z]{3,}_[0-9]+"}, {"regex", true}}, "");
    compare({{"pattern", "(needle|token)_[a-z]"}, {"regex", true}, {"ignore_case", true}}, "-i");
    compare({{"pattern", R"(\b(value|count)_(index|size)\b)"}, {"regex", true}}, "");
}

// Globs as `rg -g` reads them (issue 40): braces, `!` to exclude, `**`, classes, and
// several at once, the later deciding where two match — a glob that includes a file or a
// folder also overrides .gitignore, as rg's do. Both fs.search and fs.files.
TEST_F(SearchVsRipgrep, GlobsSelectFilesAsRipgrepsDo) {
    const std::vector<std::vector<std::string>> cases = {
        {"*.{cpp,h}"},
        {"!*.cpp"},
        {"!*.{cpp,h,txt}"},
        {"src/**"},
        {"**/deep/**"},
        {"src/**/*.{txt,log}"},
        {"*.[ch]*"},
        {"file[0-4]*"},
        {"file[!0-4]*.cpp"},
        {"*.log"},
        {"src/*/*.h"},
        {"/src/mod2/*"},
        {"*.cpp", "!src/mod1/**"},
        {"!src/mod1/**", "*.cpp"},
        {"*.{cpp,h}", "!file1*", "file1[0-5]*"},
        {"build", "*.cpp"},
        {"!**/tmp/**", "!.hidden/"},
        {"src/{mod1,mod3}/**/*.tmp"},
    };
    for (const auto& list : cases) {
        const Json globs = list;
        compare({{"pattern", "needle_token"}, {"glob", globs}}, "-F" + rg_globs(globs), 1);
        compare_files(globs);
    }
    // One glob may also be given as a string.
    compare({{"pattern", "needle_token"}, {"glob", "*.{txt,draft}"}}, "-F -g '*.{txt,draft}'", 1);
}

} // namespace
} // namespace rio::test
