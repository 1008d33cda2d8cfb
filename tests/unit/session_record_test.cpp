// A session file's lines and their replay (core/agent/session_record): what a resumed loop
// starts from, and where a damaged file stops being read.
#include "core/agent/session_record.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

using Json = nlohmann::json;
const std::string t = "2026-12-01T10:00:00.000Z";

std::vector<Json> lines_of(std::vector<Json> entries) {
    std::vector<Json> lines{header_line({"s-1", "/p", "Title", t}, Mode::plan, false)};
    lines.insert(lines.end(), entries.begin(), entries.end());
    return lines;
}

Message user(std::string text) {
    return Message{Role::user, std::move(text), {}, {}, {}, ModeNote::none};
}

TEST(SessionRecord, AMessageRoundTripsWithCallsResultsAndKeptBlocks) {
    Message a{Role::assistant,
              "looking",
              {ToolCall{"c1", "read_file", {{"path", "a"}}}},
              {},
              {Json{{"provider", "anthropic"}, {"block", {{"type", "thinking"}}}}},
              ModeNote::none};
    Message r{Role::user,
              "",
              {},
              {ToolOutcome{"c1", "text", false, CommandExit{0, {}, false, false, 0.5}, "out"}},
              {},
              ModeNote::none};
    auto replay =
        replay_session(lines_of({message_line(user("hi"), 1, false, t),
                                 message_line(a, 1, false, t), message_line(r, 1, false, t)}));
    EXPECT_EQ(replay.problem, "");
    ASSERT_EQ(replay.session.conversation.size(), 3u);
    EXPECT_EQ(to_json(*replay.session.conversation[1]), to_json(a));
    EXPECT_EQ(replay.session.conversation[1]->kept, a.kept);
    EXPECT_EQ(replay.session.conversation[2]->results[0].exit->code, 0);
    EXPECT_EQ(replay.session.conversation[2]->results[0].output, "out");
    EXPECT_EQ(replay.session.mode, Mode::plan);
    EXPECT_EQ(replay.session.header.title, "Title");
}

TEST(SessionRecord, ReplacesLastSwapsTheLastEntry) {
    auto replay = replay_session(lines_of(
        {message_line(user("one"), 1, false, t), message_line(user("one\n\ntwo"), 2, true, t)}));
    ASSERT_EQ(replay.session.conversation.size(), 1u);
    EXPECT_EQ(replay.session.conversation[0]->text, "one\n\ntwo");
    EXPECT_EQ(replay.session.turn, 2u);
}

TEST(SessionRecord, APendingProposalIsKeptUntilTheStepGoesOn) {
    PendingStep step{{ToolOutcome{"c1", "ok", false, {}, {}}},
                     Proposal{3, "c2", PlanProposal{"T", "1. x", "", "", ""}}};
    auto pending = replay_session(lines_of({pending_line(&step, 3, t)}));
    ASSERT_TRUE(pending.session.pending);
    EXPECT_EQ(pending.session.pending->proposal.id, "c2");
    EXPECT_EQ(pending.session.pending->proposal.as_plan().plan, "1. x");
    EXPECT_EQ(pending.session.pending->results.size(), 1u);
    auto decided =
        replay_session(lines_of({pending_line(&step, 3, t), pending_line(nullptr, 3, t)}));
    EXPECT_FALSE(decided.session.pending);
    auto went_on =
        replay_session(lines_of({pending_line(&step, 3, t), message_line(user("x"), 3, false, t)}));
    EXPECT_FALSE(went_on.session.pending);
}

TEST(SessionRecord, ALineThatDoesNotFitStopsTheReplayKeepingWhatCameBefore) {
    auto replay = replay_session(
        lines_of({message_line(user("kept"), 1, false, t), Json{{"type", "message"}, {"time", t}},
                  message_line(user("after"), 1, false, t)}));
    EXPECT_EQ(replay.lines_used, 2u);
    ASSERT_EQ(replay.session.conversation.size(), 1u);
    EXPECT_EQ(replay.session.conversation[0]->text, "kept");
    EXPECT_NE(replay.problem.find("line 3"), std::string::npos) << replay.problem;
}

TEST(SessionRecord, UnknownTypesAndNewerFormatsAreNamed) {
    auto unknown = replay_session(lines_of({Json{{"type", "telepathy"}, {"time", t}}}));
    EXPECT_NE(unknown.problem.find("unknown entry type 'telepathy'"), std::string::npos);
    Json newer = header_line({"s", "", "", t}, Mode::build, false);
    newer["version"] = 99;
    auto future = replay_session({newer});
    EXPECT_EQ(future.lines_used, 0u);
    EXPECT_NE(future.problem.find("newer rio"), std::string::npos) << future.problem;
    EXPECT_EQ(replay_session({Json{{"type", "message"}}}).lines_used, 0u);
}

TEST(SessionRecord, TheTitleIsTheFirstNonBlankLineCutAt80) {
    EXPECT_EQ(session_title("\n  \n  fix the bug  \nmore"), "fix the bug");
    std::string longer(100, 'a');
    EXPECT_EQ(session_title(longer), std::string(80, 'a') + "…");
    EXPECT_EQ(session_title(std::string(79, 'a') + "é"), std::string(79, 'a') + "é");
    EXPECT_EQ(session_title(std::string(79, 'a') + "éé"), std::string(79, 'a') + "é…");
    EXPECT_EQ(session_title(""), "");
}

} // namespace
} // namespace rio
