// The terminal panel's core half (issue 47, decision 0093): a real rio-core runs /bin/sh on a
// pty in the project, and the client's screen (client/terminal_screen, libvterm) is checked
// cell by cell — colours, a cursor move, a resize the program sees, bytes that are not UTF-8,
// a flood held to the flow-control window while the core keeps answering, a hang-up, and a
// shell that cannot start.
#include "client/terminal_screen.hpp"
#include "tests/support/core_process.hpp"
#include "tests/support/replies.hpp"

#include <gtest/gtest.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

class TerminalE2E : public ::testing::Test {
protected:
    explicit TerminalE2E(std::string shell = "/bin/sh")
        : core(std::vector<std::string>{"--project", root.string()},
               std::vector<std::string>{"SHELL=" + shell, "PS1=$ ", "ENV="}) {}

    LineClient& client() { return core.stdio(); }

    std::uint64_t open(int cols, int rows) {
        Json r = client().request("terminal.open", {{"cols", cols}, {"rows", rows}});
        EXPECT_EQ(r["ok"], true) << r.dump();
        EXPECT_EQ(r["result"]["cwd"], root.string());
        return r["result"].value("id", std::uint64_t{0});
    }

    void type(std::uint64_t id, const std::string& text) {
        Json r = client().request("terminal.input", {{"id", id}, {"data", text}});
        ASSERT_EQ(r["ok"], true) << r.dump();
    }

    // Output fed to the screen (and acknowledged) until `done` holds: events, not a clock.
    bool until(std::uint64_t id, client::TerminalScreen& screen,
               const std::function<bool()>& done) {
        while (!done()) {
            Json e;
            try {
                e = client().next_event("terminal.output");
            } catch (const std::exception&) {
                for (int row = 0; row < screen.rows(); ++row)
                    ADD_FAILURE() << "row " << row << ": " << screen.row_text(row);
                throw;
            }
            if (e.empty()) return false;
            if (e["params"]["id"] != id) continue;
            const std::string data = e["params"]["data"];
            if (std::string answer = screen.feed(data); !answer.empty()) type(id, answer);
            client().request("terminal.ack", {{"id", id}, {"bytes", data.size()}});
        }
        return true;
    }

    TempDir project;
    fs::path root = fs::canonical(project.path());
    CoreProcess core;
};

TEST_F(TerminalE2E, ColoursAndACursorMoveLandInTheCellsTheyName) {
    client::TerminalScreen screen(6, 30);
    const std::uint64_t id = open(30, 6);
    // Clear and home, a red R, a bold G on green, then X at row 3 column 5, then the
    // prompt sent to the last row.
    type(id, "printf '\\033[2J\\033[H\\033[31mR\\033[1;42mG\\033[0m\\033[3;5HX\\033[6;1H'\n");
    ASSERT_TRUE(until(id, screen, [&] { return screen.row_text(2) == "    X"; }));
    EXPECT_EQ(screen.row_text(0), "RG");
    EXPECT_EQ(screen.row_text(1), "");
    const client::TerminalCell r = screen.cell(0, 0);
    EXPECT_EQ(r.text, "R");
    EXPECT_FALSE(r.fg.is_default);
    EXPECT_GT(r.fg.red, 128);
    EXPECT_EQ(r.fg.green, 0);
    EXPECT_TRUE(r.bg.is_default);
    EXPECT_FALSE(r.bold);
    const client::TerminalCell g = screen.cell(0, 1);
    EXPECT_EQ(g.text, "G");
    EXPECT_TRUE(g.bold);
    EXPECT_FALSE(g.bg.is_default);
    EXPECT_GT(g.bg.green, g.bg.red);
    const client::TerminalCell x = screen.cell(2, 4);
    EXPECT_EQ(x.text, "X");
    EXPECT_TRUE(x.fg.is_default);
    EXPECT_FALSE(x.bold);
    EXPECT_TRUE(screen.cell(2, 3).text.empty());
    ASSERT_TRUE(until(id, screen, [&] { return screen.row_text(5) == "$"; }));
    EXPECT_EQ(screen.cursor_row(), 5);
    EXPECT_EQ(screen.cursor_col(), 2);
}

TEST_F(TerminalE2E, AResizeReachesTheProgram) {
    client::TerminalScreen screen(5, 40);
    const std::uint64_t id = open(40, 5);
    screen.resize(8, 50);
    Json r = client().request("terminal.resize", {{"id", id}, {"cols", 50}, {"rows", 8}});
    ASSERT_EQ(r["ok"], true) << r.dump();
    type(id, "stty size\n");
    ASSERT_TRUE(until(id, screen, [&] {
        for (int row = 0; row < screen.rows(); ++row)
            if (screen.row_text(row) == "8 50") return true;
        return false;
    }));
    EXPECT_EQ(screen.cols(), 50);
}

TEST_F(TerminalE2E, BytesThatAreNotUtf8AreShownAsReplacementCharacters) {
    client::TerminalScreen screen(5, 40);
    const std::uint64_t id = open(40, 5);
    // \377\376 are never UTF-8; é is.
    type(id, "printf '\\377\\376ok \\303\\251\\n'\n");
    // (The shell's first prompt may come before or after the echo of what was typed.)
    ASSERT_TRUE(until(id, screen, [&] {
        for (int row = 0; row < screen.rows(); ++row)
            if (screen.row_text(row).ends_with("\xEF\xBF\xBD\xEF\xBF\xBDok \xC3\xA9")) return true;
        return false;
    }));
}

TEST_F(TerminalE2E, AFloodWaitsForTheClientAndTheCoreKeepsAnswering) {
    const std::uint64_t id = open(80, 24);
    type(id, "seq 1 10000000\n");
    // Nothing acknowledged: the core stops reading the pty within its window, and a request
    // made now is answered after what little it sent.
    std::size_t unacked = 0;
    for (;;) {
        Json e = client().next_event("terminal.output");
        ASSERT_FALSE(e.empty());
        unacked += e["params"]["data"].get<std::string>().size();
        if (unacked >= 200 * 1024) break;
    }
    Json answered = client().request("project.info");
    ASSERT_EQ(answered["ok"], true);
    for (const Json& e : client().drain(std::chrono::milliseconds(0)))
        if (e["event"] == "terminal.output")
            unacked += e["params"]["data"].get<std::string>().size();
    EXPECT_LE(unacked, 256u * 1024 + 64 * 1024) << "the core read past its window";

    // Acknowledged as shown, a screen's worth at a time: it flows, and the core still answers
    // between the pieces.
    client::TerminalScreen screen(24, 80);
    std::size_t shown = 0;
    client().request("terminal.ack", {{"id", id}, {"bytes", unacked}});
    while (shown < 4 * 1024 * 1024) {
        Json e = client().next_event("terminal.output");
        ASSERT_FALSE(e.empty());
        const std::string data = e["params"]["data"];
        screen.feed(data);
        shown += data.size();
        client().request("terminal.ack", {{"id", id}, {"bytes", data.size()}});
    }
    EXPECT_EQ(client().request("fs.list")["ok"], true);
    EXPECT_LE(screen.scrollback().size(), 10'000u);

    // Closing hangs the flood up, acknowledged or not: the terminal says it ended.
    ASSERT_EQ(client().request("terminal.close", {{"id", id}})["ok"], true);
    Json exited = client().next_event("terminal.exited");
    EXPECT_EQ(exited["params"]["id"], id);
    EXPECT_EQ(exited["params"]["signal"], 1) << exited.dump(); // SIGHUP
    Json gone = client().request("terminal.input", {{"id", id}, {"data", "x"}});
    EXPECT_EQ(code_of(gone), "not_found");
    EXPECT_EQ(message_of(gone), "no terminal " + std::to_string(id) + " is open");
}

TEST_F(TerminalE2E, AShellThatExitsSaysHow) {
    const std::uint64_t id = open(40, 5);
    type(id, "exit 7\n");
    Json exited = client().next_event("terminal.exited");
    EXPECT_EQ(exited["params"]["id"], id);
    EXPECT_EQ(exited["params"]["code"], 7);
}

class MissingShellE2E : public TerminalE2E {
protected:
    MissingShellE2E() : TerminalE2E("/nonexistent/shell") {}
};

TEST_F(MissingShellE2E, AShellThatCannotStartSaysWhy) {
    Json r = client().request("terminal.open", {{"cols", 80}, {"rows", 24}});
    EXPECT_EQ(code_of(r), "io_error") << r.dump();
    EXPECT_EQ(message_of(r), "cannot start /nonexistent/shell in " + root.string() +
                                 ": No such file or directory");
    // The core is fine: another request is answered.
    EXPECT_EQ(client().request("project.info")["ok"], true);
}

} // namespace
} // namespace rio::test
