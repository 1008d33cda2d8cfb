// The per-turn checkpoint's rules (DESIGN §14), without files: the first write of a turn
// keeps the prior, undo selects by turn and path, memory stays within its budget.
#include "core/agent/checkpoints.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

FilePrior prior(std::string path, std::string bytes, bool existed = true) {
    FilePrior p;
    p.path = std::move(path);
    p.bytes = std::move(bytes);
    p.existed = existed;
    p.mode = 0644;
    return p;
}

std::vector<std::string> paths_of(const Result<std::vector<const FileCheckpoint*>>& selected) {
    std::vector<std::string> out;
    for (const FileCheckpoint* c : *selected)
        out.push_back(c->prior.path);
    return out;
}

TEST(Checkpoints, OnlyATurnsFirstWriteOfAFileKeepsItsPrior) {
    Checkpoints checkpoints;
    checkpoints.keep(1, prior("a.txt", "one"));
    checkpoints.wrote(1, "a.txt", 11);
    EXPECT_TRUE(checkpoints.holds(1, "a.txt"));
    checkpoints.keep(1, prior("a.txt", "two"));
    checkpoints.wrote(1, "a.txt", 12);
    auto selected = checkpoints.select(1, std::nullopt);
    ASSERT_TRUE(selected.ok());
    ASSERT_EQ(selected->size(), 1u);
    EXPECT_EQ(selected->front()->prior.bytes, "one") << "what the file held before the turn";
    EXPECT_EQ(selected->front()->written, 12u) << "what the agent left there last";
    EXPECT_FALSE(checkpoints.holds(2, "a.txt"));
}

TEST(Checkpoints, SelectsOneFileOrTheWholeTurnInTheOrderItWroteThem) {
    Checkpoints checkpoints;
    checkpoints.keep(3, prior("b.txt", "b"));
    checkpoints.keep(3, prior("a.txt", "", false));
    EXPECT_EQ(paths_of(checkpoints.select(3, std::nullopt)),
              (std::vector<std::string>{"b.txt", "a.txt"}));
    EXPECT_EQ(paths_of(checkpoints.select(3, std::string("a.txt"))),
              (std::vector<std::string>{"a.txt"}));
    auto state = checkpoints.state();
    ASSERT_EQ(state.turns.size(), 1u);
    EXPECT_EQ(state.turns[0].turn, 3u);
    ASSERT_EQ(state.turns[0].files.size(), 2u);
    EXPECT_FALSE(state.turns[0].files[0].created);
    EXPECT_TRUE(state.turns[0].files[1].created);
}

TEST(Checkpoints, NothingToUndoSaysWhy) {
    Checkpoints checkpoints;
    checkpoints.keep(2, prior("a.txt", "a"));
    auto none = checkpoints.select(5, std::nullopt);
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.error().code, ErrorCode::not_found);
    EXPECT_EQ(none.error().message, "turn 5 changed no files");
    auto other = checkpoints.select(2, std::string("b.txt"));
    ASSERT_FALSE(other.ok());
    EXPECT_NE(other.error().message.find("turn 2 has no change to b.txt"), std::string::npos);
    checkpoints.forget(2, "a.txt");
    auto again = checkpoints.select(2, std::nullopt);
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().message, "turn 2's changes were already undone");
    EXPECT_TRUE(checkpoints.empty());
}

TEST(Checkpoints, AFailedWriteRetractsItsPriorWithoutCountingAsUndone) {
    Checkpoints checkpoints;
    checkpoints.keep(1, prior("a.txt", "a"));
    checkpoints.retract(1, "a.txt");
    EXPECT_EQ(checkpoints.select(1, std::nullopt).error().message, "turn 1 changed no files");
    EXPECT_EQ(checkpoints.bytes(), 0u);
}

TEST(Checkpoints, PastTheBudgetTheOldestTurnsAreDroppedWhole) {
    Checkpoints checkpoints(10);
    checkpoints.keep(1, prior("a.txt", "aaaa"));
    checkpoints.keep(1, prior("b.txt", "bb"));
    checkpoints.keep(2, prior("c.txt", "cccc"));
    EXPECT_EQ(checkpoints.bytes(), 10u);
    checkpoints.keep(3, prior("d.txt", "d"));
    EXPECT_EQ(checkpoints.bytes(), 5u) << "turn 1 went, both its files";
    auto dropped = checkpoints.select(1, std::nullopt);
    ASSERT_FALSE(dropped.ok());
    EXPECT_NE(dropped.error().message.find("can no longer be undone"), std::string::npos);
    EXPECT_TRUE(checkpoints.select(2, std::nullopt).ok());
    EXPECT_TRUE(checkpoints.select(3, std::nullopt).ok());
}

TEST(Checkpoints, ATurnTooLargeToKeepIsNotKeptAtAll) {
    Checkpoints checkpoints(10);
    checkpoints.keep(1, prior("a.txt", "aaaa"));
    checkpoints.keep(2, prior("b.txt", "bbbbbb"));
    checkpoints.keep(2, prior("c.txt", "cccccc"));
    EXPECT_FALSE(checkpoints.select(2, std::nullopt).ok()) << "half a turn is no undo";
    checkpoints.keep(2, prior("d.txt", "d"));
    EXPECT_FALSE(checkpoints.holds(2, "d.txt")) << "nor does it keep later files";
    EXPECT_TRUE(checkpoints.select(1, std::nullopt).ok()) << "older turns are not sacrificed";
    EXPECT_EQ(checkpoints.bytes(), 4u);
}

TEST(Checkpoints, ClearForgetsEverything) {
    Checkpoints checkpoints;
    checkpoints.keep(1, prior("a.txt", "a"));
    checkpoints.clear();
    EXPECT_TRUE(checkpoints.empty());
    EXPECT_EQ(checkpoints.select(1, std::nullopt).error().message, "turn 1 changed no files");
}

} // namespace
} // namespace rio
