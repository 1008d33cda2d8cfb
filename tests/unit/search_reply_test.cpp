// fs.search's reply is written as text by the search's threads (ops/search_reply, decisions
// 0050 and 0067), never built as a document. These tests hold the text to the document it
// stands for: what nlohmann dumps for the same FsSearchResult, built from the matches the
// search lists when nothing renders them. Names and lines with every kind of odd byte.
#include "host/search/search.hpp"
#include "ops/search_reply.hpp"
#include "protocol/messages.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>
#include <random>
#include <string>

namespace rio {
namespace {

using LiveText = std::map<std::string, std::string, std::less<>>;

// The reply as a document: the listed matches grouped by file, as FsSearchResult says.
FsSearchResult document_of(const SearchResult& r) {
    FsSearchResult out;
    for (const SearchMatch& m : r.matches) {
        if (out.files.empty() || out.files.back().path != m.path)
            out.files.push_back(SearchFileMatches{m.path, {}});
        out.files.back().matches.push_back(
            SearchMatchInfo{m.line, m.column, m.length, m.start, m.end, m.text});
    }
    out.truncated = r.truncated;
    out.files_searched = r.files_searched;
    out.files_skipped = r.files_skipped;
    if (r.left_out > 0) out.left_out = r.left_out;
    return out;
}

// Where two replies part, with a little of each around it: a whole reply is megabytes.
::testing::AssertionResult same_text(const std::string& text, const std::string& dump) {
    if (text == dump) return ::testing::AssertionSuccess();
    std::size_t at = 0;
    while (at < text.size() && at < dump.size() && text[at] == dump[at])
        ++at;
    const std::size_t from = at > 60 ? at - 60 : 0;
    return ::testing::AssertionFailure()
           << "the text parts from the document's dump at byte " << at << " of " << text.size()
           << "/" << dump.size() << ":\n  text: " << text.substr(from, 120)
           << "\n  dump: " << dump.substr(from, 120);
}

class SearchReply : public ::testing::Test {
protected:
    // The reply written as text, and the document's dump from a second search without it.
    std::pair<std::string, std::string> both(SearchQuery q, const LiveText& live = {}) {
        auto listed = search_project(project.path(), q, live);
        q.render = append_search_match;
        auto rendered = search_project(project.path(), q, live);
        EXPECT_TRUE(listed.ok() && rendered.ok());
        if (!listed.ok() || !rendered.ok()) return {};
        EXPECT_TRUE(rendered->matches.empty()) << "rendered matches are not listed too";
        std::string text;
        append_search_reply(text, *rendered);
        return {text, nlohmann::json(document_of(*listed)).dump()};
    }

    void odd_tree() {
        const std::string lines =
            std::string("needle plain\n") + "needle \"quoted\" \\ back\tslash\n" +
            "needle \x01\x02\x1f \x7f \b\f\v controls\n" + "needle \xff\xfe invalid \xc3\n" +
            "needle é € \xe2\x80\xa8 \xf0\x9f\x98\x80 wide\r\n" + // CRLF
            std::string(300, 'x') + "é€needle" + std::string(300, 'y') + "\n" +
            std::string(500, '\xff') + "needle\n" + "needle at the end";
        for (const char* name : {"plain.txt", "sp ace.txt", "quo\"te.txt", "back\\slash.txt",
                                 "tab\tname.txt", "new\nline.txt",
                                 "\x01"
                                 "ctl.txt",
                                 "ünï/cödé.txt",
                                 "z/\x7f"
                                 "del.txt"})
            test::write_bytes(project / name, lines);
        test::write_bytes(project / "bad\xffname.txt", "needle\n");          // left out, counted
        test::write_bytes(project / "blob.bin", std::string("needle\0", 7)); // skipped, counted
    }

    test::TempDir project;
};

SearchQuery query(std::string pattern, std::size_t max_matches = 1'000'000) {
    SearchQuery q;
    q.pattern = std::move(pattern);
    q.max_matches = max_matches;
    return q;
}

TEST_F(SearchReply, EveryMatchOfOddNamesAndLinesIsTheDocumentsDump) {
    odd_tree();
    auto [text, dump] = both(query("needle"));
    EXPECT_TRUE(same_text(text, dump));
    const auto reply = nlohmann::json::parse(text);
    EXPECT_EQ(reply["files"].size(), 9u);
    EXPECT_EQ(reply["left_out"], 1);
    EXPECT_EQ(reply["files_skipped"], 1);
    EXPECT_EQ(reply["files"][0]["matches"][3][5], "needle \uFFFD\uFFFD invalid \uFFFD")
        << "invalid UTF-8 is shown as U+FFFD";
}

TEST_F(SearchReply, ACutInsideAFileNarrowingsAndOpenBuffersGiveTheDocumentsDump) {
    odd_tree();
    for (std::size_t max : {1u, 7u, 8u, 9u, 20u, 71u, 72u, 73u}) {
        auto [text, dump] = both(query("needle", max));
        EXPECT_TRUE(same_text(text, dump)) << "max_matches " << max;
        EXPECT_EQ(nlohmann::json::parse(text)["truncated"], max < 72) << max;
    }
    SearchQuery regex = query(R"(\w+ (?:é|"|\\))");
    regex.regex = true;
    regex.ignore_case = true;
    auto [regex_text, regex_dump] = both(regex);
    EXPECT_TRUE(same_text(regex_text, regex_dump));
    SearchQuery one = query("needle");
    one.path = "ünï";
    auto [one_text, one_dump] = both(one);
    EXPECT_TRUE(same_text(one_text, one_dump));
    const LiveText live{{"plain.txt", "needle \"unsaved\"\x01\n"}, {"new.txt", "needle"}};
    auto [live_text, live_dump] = both(query("needle"), live);
    EXPECT_TRUE(same_text(live_text, live_dump));
    auto [none_text, none_dump] = both(query("absent"));
    EXPECT_TRUE(same_text(none_text, none_dump));
    EXPECT_EQ(nlohmann::json::parse(none_text)["files"], nlohmann::json::array());
}

// The writer alone, on random text made of the bytes JSON must escape and those it must not.
TEST(SearchReplyWriter, AMatchIsWhatNlohmannDumpsForItsRow) {
    std::mt19937 rng(67);
    const std::string pieces[] = {"\"",
                                  "\\",
                                  "\n",
                                  "\t",
                                  "\x01",
                                  "\x1f",
                                  "\x7f",
                                  " ",
                                  "a",
                                  "é",
                                  "€",
                                  "\xe2\x80\xa8",
                                  "\xf0\x9f\x98\x80",
                                  "/",
                                  "\r"};
    for (int round = 0; round < 1000; ++round) {
        std::string text;
        for (std::size_t n = rng() % 30; n > 0; --n)
            text += pieces[rng() % std::size(pieces)];
        const MatchView view{"p", rng(), text, rng() % 1000, rng() % 100, rng() % 50, rng() % 50};
        std::string out;
        append_search_match(out, view);
        const SearchMatchInfo row{view.line, view.column, view.length, view.start, view.end, text};
        ASSERT_EQ(out, nlohmann::json(row).dump());
        ASSERT_EQ(nlohmann::json::parse(out).get<SearchMatchInfo>().text, text);
    }
}

// A frontend reading a reply of another shape says so (the search panel's message) rather
// than showing zeros.
TEST(SearchReplyWriter, ARowThatIsNotSixFieldsIsRefused) {
    for (const char* bad : {R"([1,2,3,4,5])", R"([1,2,3,4,5,6])", R"([1,2,-3,4,5,"t"])",
                            R"({"line":1})", R"([1,2,3,4,5,"t",7])", R"([1,2,3,4,5.5,"t"])"}) {
        try {
            (void)nlohmann::json::parse(bad).get<SearchMatchInfo>();
            ADD_FAILURE() << bad << " was read";
        } catch (const ParamError& e) {
            EXPECT_NE(std::string(e.what()).find("[line, column, length, start, end, text]"),
                      std::string::npos)
                << e.what();
        }
    }
    const auto ok = nlohmann::json::parse(R"([3,4,6,1,7,"x"])").get<SearchMatchInfo>();
    EXPECT_EQ(ok.line, 3u);
    EXPECT_EQ(ok.end, 7u);
}

} // namespace
} // namespace rio
