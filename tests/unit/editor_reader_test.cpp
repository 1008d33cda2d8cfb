// host/editor_reader: who answers the agent's reads of the editor's text, and what happens
// when the reader answers, refuses, misses the deadline or goes away.
#include "host/server/editor_reader.hpp"

#include <asio/io_context.hpp>
#include <gtest/gtest.h>
#include <vector>

namespace rio {
namespace {

struct Bench {
    asio::io_context io;
    std::vector<EditorReadEvent> asked;
    EditorReader reader{io,
                        [this](const CoreEvent& event) {
                            ASSERT_TRUE(std::holds_alternative<EditorReadEvent>(event));
                            asked.push_back(std::get<EditorReadEvent>(event));
                        },
                        std::chrono::milliseconds(20)};
    std::vector<std::optional<std::string>> answers;
    std::uint64_t read(const std::string& path) {
        return reader.read(
            path, [this](std::optional<std::string> text) { answers.push_back(std::move(text)); });
    }
};

EditorReadReplyParams text_reply(std::uint64_t request, std::string text) {
    EditorReadReplyParams reply;
    reply.request = request;
    reply.text = std::move(text);
    return reply;
}

TEST(EditorReader, TheReadersTextAnswersTheRead) {
    Bench b;
    EXPECT_FALSE(b.reader.active());
    EXPECT_TRUE(b.reader.set(7, true).enabled);
    std::uint64_t request = b.read("/p/a.py");
    ASSERT_EQ(b.asked.size(), 1u);
    EXPECT_EQ(b.asked[0].request, request);
    EXPECT_EQ(b.asked[0].path, "/p/a.py");
    EXPECT_TRUE(b.answers.empty());
    ASSERT_TRUE(b.reader.reply(7, text_reply(request, "unsaved\n")));
    ASSERT_EQ(b.answers.size(), 1u);
    EXPECT_EQ(b.answers[0], "unsaved\n");
    // Answered once: a second reply finds nothing waiting.
    auto again = b.reader.reply(7, text_reply(request, "late"));
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().code, ErrorCode::not_found);
    EXPECT_EQ(b.answers.size(), 1u);
}

TEST(EditorReader, AnotherClientCannotAnswerAndAnErrorMeansTheDisk) {
    Bench b;
    b.reader.set(7, true);
    EXPECT_FALSE(b.reader.set(8, false).enabled); // 8 was never the reader; 7 still is
    EXPECT_TRUE(b.reader.active());
    std::uint64_t request = b.read("/p/a.py");
    auto stranger = b.reader.reply(8, text_reply(request, "injected"));
    ASSERT_FALSE(stranger);
    EXPECT_EQ(stranger.error().code, ErrorCode::refused);
    EXPECT_TRUE(b.answers.empty());
    EditorReadReplyParams none;
    none.request = request;
    none.error = "no such buffer";
    ASSERT_TRUE(b.reader.reply(7, none));
    ASSERT_EQ(b.answers.size(), 1u);
    EXPECT_EQ(b.answers[0], std::nullopt);
    EXPECT_TRUE(b.reader.active()); // an answer, even "none", keeps the reader
}

TEST(EditorReader, AReaderThatMissesTheDeadlineIsDroppedAndTheReadGoesToTheDisk) {
    Bench b;
    b.reader.set(7, true);
    b.read("/p/a.py");
    b.io.run(); // the deadline's timer is the only work
    ASSERT_EQ(b.answers.size(), 1u);
    EXPECT_EQ(b.answers[0], std::nullopt);
    EXPECT_FALSE(b.reader.active());
}

TEST(EditorReader, AReaderThatLeavesSendsItsWaitingReadsToTheDisk) {
    Bench b;
    b.reader.set(7, true);
    b.read("/p/a.py");
    b.read("/p/b.py");
    b.reader.client_closed(8); // someone else
    EXPECT_TRUE(b.answers.empty());
    b.reader.client_closed(7);
    EXPECT_EQ(b.answers.size(), 2u);
    EXPECT_FALSE(b.reader.active());
    b.io.run(); // the cancelled deadlines answer nothing more
    EXPECT_EQ(b.answers.size(), 2u);
}

TEST(EditorReader, ACancelledReadIsNeverAnswered) {
    Bench b;
    b.reader.set(7, true);
    std::uint64_t request = b.read("/p/a.py");
    b.reader.cancel(request);
    b.io.run();
    EXPECT_TRUE(b.answers.empty());
    EXPECT_FALSE(b.reader.reply(7, text_reply(request, "late")));
    EXPECT_TRUE(b.reader.active()); // it was the turn that stopped, not the reader
}

} // namespace
} // namespace rio
