// The context budget and compaction (DESIGN §18) as the loop decides them: no process, no
// provider — effects in, effects out.
#include "core/agent/compaction.hpp"
#include "core/agent/session_record.hpp"
#include "providers/context_overflow.hpp"
#include "tests/unit/loop_harness.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace rio {
namespace {

using Json = nlohmann::json;

struct Loop : test::LoopHarness {
    void budget(std::uint64_t window, std::size_t prefix = 0) {
        loop.set_budget(ContextBudget{window, 0.8, prefix}, out);
    }
    // Answers the read tools the loop asks for with `bytes` bytes each.
    void run_reads(std::size_t bytes, char fill = 'x') {
        for (const RunTool& run : all<RunTool>())
            if (loop.expects(run.turn, run.call.id, run.stage))
                loop.on_tool(ToolReport{run.turn,
                                        run.call.id,
                                        run.stage,
                                        false,
                                        std::string(bytes, fill),
                                        {},
                                        {},
                                        {}},
                             out);
    }
    // Drops what came before the last provider request, returning how many errors it held:
    // the helpers above scan all of `out`, so a session of hundreds of steps stays linear.
    std::size_t drop_before_last_call() {
        auto last = std::find_if(out.rbegin(), out.rend(), [](const Effect& e) {
                        return std::holds_alternative<CallProvider>(e);
                    }).base();
        if (last == out.begin()) return 0;
        --last; // the request itself stays
        std::size_t errors = 0;
        for (auto e = out.begin(); e != last; ++e)
            if (auto* emitted = std::get_if<EmitEvent>(&*e))
                errors += std::holds_alternative<ErrorEvent>(emitted->event);
        out.erase(out.begin(), last);
        return errors;
    }
    // One step: the model reads a file, the loop answers it.
    void read_step(int n, std::size_t bytes) {
        reply("", {ToolCall{"r" + std::to_string(n),
                            "read_file",
                            {{"path", "f" + std::to_string(n) + ".txt"}}}});
        run_reads(bytes, static_cast<char>('a' + n % 26));
    }
};

std::size_t sent_bytes(const CallProvider& call) {
    return conversation_bytes(call.conversation);
}

TEST(ContextBudget, KnownModelsHaveTheirWindowsAndAnUnknownOneTheDefault) {
    EXPECT_EQ(known_context_window("claude-sonnet-4-5"), 200'000u);
    EXPECT_EQ(known_context_window("anthropic/claude-3-5-haiku"), 200'000u);
    EXPECT_EQ(known_context_window("gpt-4o-mini"), 128'000u);
    EXPECT_EQ(known_context_window("gpt-5-codex"), 400'000u); // the Responses wire's models
    EXPECT_EQ(known_context_window("codex-mini-latest"), 200'000u);
    EXPECT_EQ(known_context_window("gpt-4.1"), 1'047'576u);
    EXPECT_EQ(known_context_window("gpt-4"), 8'192u);
    EXPECT_EQ(known_context_window("gpt-5"), 400'000u);
    EXPECT_EQ(known_context_window("o1-mini"), 128'000u);
    EXPECT_EQ(known_context_window("o3"), 200'000u);
    EXPECT_EQ(known_context_window("qwen2.5-coder:7b"), 0u) << "the caller uses the default";
    EXPECT_EQ(tool_output_cap(200'000), 64u * 1024);
    EXPECT_EQ(tool_output_cap(32'768), 13'107u);
    EXPECT_EQ(tool_output_cap(4'096), 8u * 1024);
}

// Issue 29: the wordings each server family sends when a request does not fit its window.
TEST(ContextBudget, EveryServerFamilysContextLengthRefusalIsRecognised) {
    const std::vector<std::pair<const char*, std::string>> refusals = {
        {"Anthropic",
         R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 213462 tokens > 200000 maximum"}})"},
        {"OpenAI",
         R"({"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130001 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}})"},
        {"llama.cpp",
         R"({"error":{"code":400,"message":"request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":4476,"n_ctx":4096}})"},
        {"llama.cpp, older",
         R"({"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"invalid_request_error"}})"},
        {"vLLM",
         R"({"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens in the messages, Please reduce the length of the messages.","type":"BadRequestError","param":null,"code":400})"},
        {"Ollama",
         R"({"error":{"message":"the input length exceeds the context length","type":"invalid_request_error","param":null,"code":null}})"},
    };
    for (const auto& [who, body] : refusals) {
        EXPECT_TRUE(is_context_overflow(400, body)) << who;
        EXPECT_TRUE(is_context_overflow(0, body)) << who << ", in a stream";
    }
    EXPECT_FALSE(is_context_overflow(400, R"({"error":{"message":"messages: Field required"}})"));
    EXPECT_FALSE(is_context_overflow(500, refusals[0].second)) << "a server error is not it";
    EXPECT_FALSE(is_context_overflow(413, "request_too_large"));
}

TEST(ContextLoop, EveryStepSendsEveryToolAndPlanModeRidesInTheUserMessage) {
    Loop h;
    h.loop.set_mode(Mode::plan, h.out);
    h.loop.send("Plan a change.", h.out);
    CallProvider planning = h.last_call();
    ASSERT_EQ(planning.tools.size(), 10u) << "the prefix is the same in both modes";
    EXPECT_EQ(planning.conversation.front()->note, ModeNote::plan);
    h.reply("", {ToolCall{
                    "e1", "edit_file", {{"path", "a"}, {"old_string", "x"}, {"new_string", "y"}}}});
    auto results = h.events<ToolResultEvent>();
    ASSERT_FALSE(results.empty());
    EXPECT_FALSE(results.back().ok);
    EXPECT_NE(results.back().content.find("not available in plan mode"), std::string::npos)
        << results.back().content;
    EXPECT_EQ(h.last_call().tools.size(), 10u);
    h.reply("Done planning.");
    h.loop.set_mode(Mode::build, h.out);
    h.loop.send("Now build.", h.out);
    EXPECT_EQ(h.last_call().conversation.back()->note, ModeNote::build)
        << "leaving plan mode is said where it happened";
    h.reply("ok");
    h.loop.send("More.", h.out);
    EXPECT_EQ(h.last_call().conversation.back()->note, ModeNote::none) << "said once";
}

TEST(ContextLoop, StatusCarriesAnEstimateUntilTheProviderCountsThenItsCount) {
    Loop h;
    h.budget(100'000, 4000);
    h.loop.send("hello", h.out);
    ContextInfo before = h.loop.context();
    EXPECT_TRUE(before.estimated);
    EXPECT_EQ(before.window, 100'000u);
    EXPECT_GE(before.used, 1000u) << "the prompt and tools count";
    h.report(ProviderReport::usage({{"input_tokens", 10},
                                    {"cache_read_input_tokens", 5000},
                                    {"cache_creation_input_tokens", 200}}));
    ContextInfo counted = h.loop.context();
    EXPECT_FALSE(counted.estimated);
    EXPECT_EQ(counted.used, 5210u);
    auto statuses = h.events<AgentStatus>();
    ASSERT_TRUE(statuses.back().context);
    EXPECT_EQ(statuses.back().context->used, 5210u) << "the meter follows the step";
}

TEST(ContextLoop, PastTheThresholdOldToolOutputsAreClearedFirstAndTheNewestKept) {
    Loop h;
    h.budget(10'000); // 40 KB
    h.loop.send("Read them all.", h.out);
    for (int i = 0; i < 4; ++i)
        h.read_step(i, 9000);
    auto compacted = h.events<CompactedEvent>();
    ASSERT_EQ(compacted.size(), 1u);
    EXPECT_EQ(compacted[0].reason, "threshold");
    EXPECT_GE(compacted[0].cleared, 1u);
    EXPECT_FALSE(compacted[0].summarized) << "clearing was enough";
    EXPECT_LT(compacted[0].after, compacted[0].before);
    const CallProvider& call = h.last_call();
    EXPECT_FALSE(call.summary);
    const Message& newest = *call.conversation.back();
    ASSERT_EQ(newest.results.size(), 1u);
    EXPECT_EQ(newest.results[0].content.size(), 9000u) << "what the model just asked for";
    const Message& oldest = *call.conversation[2];
    EXPECT_EQ(oldest.results[0].content,
              "[read `f0.txt`: output (9,000 bytes) cleared to save context; call the tool "
              "again if you need it]");
    EXPECT_LE(sent_bytes(call), bytes_for_tokens(10'000) * 8 / 10);
}

// Issue 40: a second compaction cleared the first one's note and named the note's size.
TEST(ContextCompaction, AnOutputClearedTwiceStillSaysItsOriginalSize) {
    Message ask, read, answer;
    ask.text = "Read it.";
    read.role = Role::assistant;
    read.calls.push_back(ToolCall{"r0", "read_file", Json{{"path", "f0.txt"}}});
    ToolOutcome big;
    big.call_id = "r0";
    big.content = std::string(9000, 'x');
    answer.results.push_back(big);
    Conversation c;
    for (Message* m : {&ask, &read, &answer})
        c.push_back(std::make_shared<const Message>(*m));
    Cleared once = clear_tool_outputs(c, tool_specs(), 0, c.size());
    ASSERT_EQ(once.cleared, 1u);
    std::string note = "[read `f0.txt`: output (9,000 bytes) cleared to save context; call the "
                       "tool again if you need it]";
    EXPECT_EQ(once.conversation[2]->results[0].content, note);
    Cleared twice = clear_tool_outputs(once.conversation, tool_specs(), 0, c.size());
    EXPECT_EQ(twice.cleared, 0u);
    EXPECT_EQ(twice.conversation[2]->results[0].content, note);
}

TEST(ContextLoop, WhenClearingIsNotEnoughASummaryWithoutToolsKeepsWhatMatters) {
    Loop h;
    h.budget(4'000); // 16 KB
    h.loop.send("Plan the refactor.", h.out);
    h.reply("", {ToolCall{
                    "p1", "present_plan", {{"title", "T"}, {"plan", "1. Split a.cpp\n2. Test"}}}});
    RunTool prepare = h.all<RunTool>().back();
    h.loop.on_tool(ToolReport{prepare.turn,
                              "p1",
                              ToolStage::prepare,
                              false,
                              "",
                              PlanProposal{"T", "1. Split a.cpp\n2. Test", "", "", ""},
                              {},
                              {}},
                   h.out);
    ASSERT_TRUE(h.loop.decide(Decision{h.loop.turn(),
                                       {},
                                       true,
                                       "",
                                       Wire<ApprovalPolicy>(ApprovalPolicy::automatic),
                                       {},
                                       false,
                                       false},
                              h.out));
    RunTool apply = h.all<RunTool>().back();
    h.loop.on_tool(ToolReport{apply.turn,
                              "p1",
                              ToolStage::apply,
                              false,
                              "",
                              PlanReadBack{"1. Split a.cpp\n2. Test", false},
                              {},
                              {}},
                   h.out);
    EXPECT_EQ(h.loop.approved_plan(), "1. Split a.cpp\n2. Test");
    // Its progress travels with it (DESIGN §20).
    Json done{{"step", 1}, {"status", "done"}, {"note", "split in two"}};
    h.reply("", {ToolCall{"g1", "plan_progress", done}});
    RunTool progress = h.all<RunTool>().back();
    h.loop.on_tool(ToolReport{progress.turn,
                              "g1",
                              ToolStage::run,
                              false,
                              "",
                              StepReport{1, "done", "split in two"},
                              {},
                              {}},
                   h.out);
    // Long user messages and answers, which clearing cannot touch, until it must summarize.
    int i = 0;
    for (; i < 5 && !h.last_call().summary; ++i) {
        h.reply(std::string(5000, 'w'));
        h.loop.send("Go on, step " + std::to_string(i) + std::string(3000, '.'), h.out);
    }
    const std::string latest = "Go on, step " + std::to_string(i - 1) + std::string(3000, '.');
    CallProvider summary = h.last_call();
    ASSERT_TRUE(summary.summary) << "a summary request";
    EXPECT_TRUE(summary.tools.empty());
    ASSERT_EQ(summary.conversation.size(), 1u);
    EXPECT_EQ(h.loop.state(), AgentLoop::State::compacting);
    EXPECT_TRUE(h.loop.busy());
    Effects ignored;
    EXPECT_EQ(h.loop.compact("", ignored).error().code, ErrorCode::busy);
    h.report(ProviderReport::delta("The user wants a refactor; the plan was approved."));
    h.report(ProviderReport::done("end_turn"));
    auto compacted = h.events<CompactedEvent>();
    ASSERT_FALSE(compacted.empty());
    EXPECT_TRUE(compacted.back().summarized);
    const CallProvider& next = h.last_call();
    ASSERT_FALSE(next.summary) << "the turn goes on";
    const std::string& seed = next.conversation.front()->text;
    EXPECT_NE(seed.find("The user wants a refactor"), std::string::npos);
    EXPECT_NE(seed.find("## The approved plan (verbatim)\n\n1. Split a.cpp\n2. Test"),
              std::string::npos);
    EXPECT_NE(seed.find("## Progress on the approved plan (step, status, note)\n\n1. [done] "
                        "Split a.cpp — split in two\n2. [pending] Test\n"),
              std::string::npos)
        << seed;
    EXPECT_EQ(h.loop.plan()->steps[0].status, "done") << "the track itself is untouched";
    EXPECT_NE(seed.find(latest), std::string::npos) << "the latest message, whole";
    EXPECT_NE(seed.find("Plan the refactor."), std::string::npos);
    EXPECT_EQ(h.loop.mode(), Mode::build);
    EXPECT_TRUE(h.loop.auto_accept()) << "compaction leaves the gate as it was";
    EXPECT_LT(sent_bytes(next), bytes_for_tokens(4'000) * 8 / 10);
}

TEST(ContextLoop, AnEmptySummaryLeavesOnlyTheClearingAndSaysSo) {
    Loop h;
    h.budget(100'000);
    h.loop.send("Read.", h.out);
    h.read_step(1, 5000);
    h.read_step(2, 5000);
    h.reply("done");
    ASSERT_TRUE(h.loop.compact("keep the file names", h.out));
    CallProvider summary = h.last_call();
    ASSERT_TRUE(summary.summary);
    EXPECT_NE(summary.conversation[0]->text.find("keep the file names"), std::string::npos);
    h.report(ProviderReport::delta("   "));
    h.report(ProviderReport::done("end_turn"));
    CompactedEvent e = h.events<CompactedEvent>().back();
    EXPECT_FALSE(e.summarized);
    EXPECT_EQ(e.cleared, 2u);
    EXPECT_EQ(e.note, "the summary came back empty; only old tool outputs were cleared");
    EXPECT_EQ(h.loop.state(), AgentLoop::State::idle);
    EXPECT_EQ(h.loop.history().front()->text, "Read.") << "no summary took its place";
}

TEST(ContextLoop, CompactWhileATurnStreamsIsBusyAndChangesNothing) {
    Loop h;
    h.loop.send("hi", h.out);
    std::size_t calls = h.all<CallProvider>().size();
    Status s = h.loop.compact("", h.out);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, ErrorCode::busy);
    EXPECT_EQ(h.all<CallProvider>().size(), calls);
    EXPECT_EQ(h.loop.state(), AgentLoop::State::streaming);
    Effects none;
    AgentLoop empty{tool_specs()};
    EXPECT_EQ(empty.compact("", none).error().code, ErrorCode::bad_request);
}

TEST(ContextLoop, APendingPlanStaysPendingThroughACompaction) {
    Loop h;
    h.loop.set_mode(Mode::plan, h.out);
    h.loop.send("Plan it.", h.out);
    h.reply(std::string(4000, 'n'), {ToolCall{"r1", "read_file", {{"path", "f1.txt"}}}});
    h.run_reads(6000);
    h.reply("", {ToolCall{"p1", "present_plan", {{"title", "T"}, {"plan", "1. x"}}}});
    RunTool prepare = h.all<RunTool>().back();
    h.loop.on_tool(ToolReport{prepare.turn,
                              "p1",
                              ToolStage::prepare,
                              false,
                              "",
                              PlanProposal{"T", "1. x", "", "", ""},
                              {},
                              {}},
                   h.out);
    ASSERT_EQ(h.loop.state(), AgentLoop::State::awaiting_decision);
    ASSERT_TRUE(h.loop.compact("", h.out));
    ASSERT_TRUE(h.last_call().summary);
    Status early =
        h.loop.decide(Decision{h.loop.turn(), {}, true, "", {}, {}, false, false}, h.out);
    EXPECT_EQ(early.error().code, ErrorCode::busy) << "decide once it is done";
    h.report(ProviderReport::delta("Investigated f1.txt; a plan is up for approval."));
    h.report(ProviderReport::done("end_turn"));
    EXPECT_TRUE(h.events<CompactedEvent>().back().summarized);
    EXPECT_EQ(h.loop.state(), AgentLoop::State::awaiting_decision);
    EXPECT_EQ(h.loop.mode(), Mode::plan);
    ASSERT_TRUE(h.loop.pending_step());
    EXPECT_EQ(h.loop.proposal()->id, "p1");
    const Conversation& c = h.loop.history();
    EXPECT_EQ(c.back()->calls.at(0).id, "p1") << "the proposal's step is kept whole";
    EXPECT_EQ(c.front()->note, ModeNote::plan) << "the summary starts in plan mode";
    EXPECT_TRUE(h.loop.decide(Decision{h.loop.turn(), {}, true, "", {}, {}, false, false}, h.out));
}

TEST(ContextLoop, AnOverflowCompactsAndRetriesOnceThenSaysContextFullAndTheNextMessageWorks) {
    Loop h;
    h.budget(200'000);
    h.loop.send("Read.", h.out);
    h.read_step(1, 40'000);
    h.read_step(2, 40'000);
    std::size_t refused = sent_bytes(h.last_call());
    h.report(ProviderReport::error(ErrorCode::context_full, "prompt is too long"));
    auto compacted = h.events<CompactedEvent>();
    ASSERT_EQ(compacted.size(), 1u);
    EXPECT_EQ(compacted[0].reason, "overflow");
    EXPECT_EQ(compacted[0].cleared, 1u);
    CallProvider retry = h.last_call();
    EXPECT_FALSE(retry.summary);
    EXPECT_LT(sent_bytes(retry), refused);
    EXPECT_LT(h.loop.context().window, 200'000u) << "the refusal taught the real limit";
    h.report(ProviderReport::error(ErrorCode::context_full, "prompt is too long"));
    auto errors = h.events<ErrorEvent>();
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].code, "context_full");
    EXPECT_NE(errors[0].message.find("/compact"), std::string::npos);
    EXPECT_EQ(errors[0].message.find("bug"), std::string::npos);
    EXPECT_EQ(h.loop.state(), AgentLoop::State::idle);
    h.loop.send("Go on.", h.out);
    EXPECT_EQ(h.loop.state(), AgentLoop::State::streaming) << "the next message is sent";
}

TEST(ContextLoop, AFailedSummaryGoesOnUncompactedIfItFitsElseContextFull) {
    Loop h;
    h.budget(4'000);
    h.loop.send(std::string(7000, 'q'), h.out);
    h.reply(std::string(7000, 'a'));
    h.loop.send(std::string(4000, 'r'), h.out);
    ASSERT_TRUE(h.last_call().summary);
    h.report(ProviderReport::error(ErrorCode::network, "timed out"));
    auto errors = h.events<ErrorEvent>();
    ASSERT_EQ(errors.size(), 1u) << "18 KB do not fit a 16 KB window";
    EXPECT_EQ(errors[0].code, "context_full");
    EXPECT_NE(h.events<CompactedEvent>().back().note.find("the summary request failed"),
              std::string::npos);

    Loop fits;
    fits.budget(100'000);
    fits.loop.send("Read.", fits.out);
    fits.read_step(1, 4000);
    fits.reply("ok");
    ASSERT_TRUE(fits.loop.compact("", fits.out));
    fits.report(ProviderReport::error(ErrorCode::network, "timed out"));
    EXPECT_TRUE(fits.events<ErrorEvent>().empty());
    EXPECT_EQ(fits.loop.state(), AgentLoop::State::idle);
    fits.loop.send("Go on.", fits.out);
    EXPECT_FALSE(fits.last_call().summary) << "the conversation goes on as it was";
}

// Issue 29: a long session never sends more than its window.
TEST(ContextLoop, AFiveHundredStepSessionNeverSendsMoreThanItsWindow) {
    Loop h;
    const std::uint64_t window = 8'000; // 32 KB
    h.budget(window, 2000);
    h.loop.send("Read everything, one file a step.", h.out);
    std::size_t steps = 0, summaries = 0, largest = 0, errors = 0;
    while (steps < 500) {
        errors += h.drop_before_last_call();
        const CallProvider call = h.last_call();
        largest = std::max(largest, sent_bytes(call) + 2000);
        ASSERT_LE(sent_bytes(call) + 2000, bytes_for_tokens(window)) << "step " << steps;
        if (call.summary) {
            ++summaries;
            h.report(ProviderReport::delta("Read files f0 to f" + std::to_string(steps) + "."));
            h.report(ProviderReport::done("end_turn"));
            continue;
        }
        h.read_step(static_cast<int>(steps), 3000);
        ++steps;
    }
    EXPECT_EQ(errors + h.events<ErrorEvent>().size(), 0u);
    EXPECT_GT(summaries, 0u);
    EXPECT_GT(largest, bytes_for_tokens(window) / 2) << "the window was used";
}

TEST(ContextSession, ACompactionLineRestoresTheCompactedConversation) {
    SessionHeader header{"s1", "/p", "t", "2025-01-01T00:00:00Z"};
    Conversation compacted{std::make_shared<const Message>(
        Message{Role::user, "summary", {}, {}, {}, ModeNote::plan})};
    std::vector<Json> lines = {
        header_line(header, Mode::plan, false),
        message_line(Message{Role::user, "old", {}, {}, {}, ModeNote::none}, 1, false, "t1"),
        compacted_line(compacted, 3, "1. the plan", {"a.cpp"}, "t2"),
        message_line(Message{Role::assistant, "next", {}, {}, {}, ModeNote::none}, 3, false, "t3"),
    };
    SessionReplay replay = replay_session(lines);
    EXPECT_EQ(replay.problem, "");
    ASSERT_EQ(replay.session.conversation.size(), 2u);
    EXPECT_EQ(replay.session.conversation[0]->text, "summary");
    EXPECT_EQ(replay.session.conversation[0]->note, ModeNote::plan);
    EXPECT_EQ(replay.session.approved_plan, "1. the plan");
    EXPECT_EQ(replay.session.changed_files, std::vector<std::string>{"a.cpp"});
    EXPECT_EQ(replay.session.turn, 3u);
}

// Issue 48: a rewind past a compaction is refused with the reason; a later one still works.
TEST(ContextLoop, ARewindPastACompactionIsRefusedAndALaterMessageCanStillBeReturnedTo) {
    Loop h;
    h.loop.send("One.", h.out);
    h.reply(std::string(4000, 'a'));
    h.loop.send("Two.", h.out);
    h.reply(std::string(4000, 'b'));
    ASSERT_TRUE(h.loop.compact("", h.out));
    h.reply("Summary of one and two.");
    ASSERT_TRUE(h.events<CompactedEvent>().back().summarized);
    auto refused = h.loop.rewind_target(1);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, ErrorCode::refused);
    EXPECT_NE(refused.error().message.find("compacted or continued in a fresh context during "
                                           "turn 2"),
              std::string::npos)
        << refused.error().message;
    h.loop.send("Three.", h.out);
    h.reply("three done");
    const std::size_t before = h.loop.history().size();
    auto target = h.loop.rewind_target(3);
    ASSERT_TRUE(target) << target.error().message;
    EXPECT_EQ(target->text, "Three.");
    // The message joined the summary's entry: that stays as it was, the reply goes.
    EXPECT_EQ(target->dropped, 1u);
    h.loop.rewind(3, h.out);
    EXPECT_EQ(h.loop.history().size(), before - 1);
    EXPECT_EQ(h.loop.history().back()->text.find("Three."), std::string::npos);
    EXPECT_EQ(h.events<RewoundEvent>().back().turn, 3u);
    EXPECT_FALSE(h.loop.rewind_target(3)) << "gone with its message";
}

// A message sent after a stop joins the stopped turn's results: rewinding to it keeps them,
// so every call stays answered.
TEST(ContextLoop, RewindingToAMessageThatJoinedAStoppedTurnsResultsKeepsThem) {
    Loop h;
    h.loop.send("Read it.", h.out);
    h.reply("", {ToolCall{"r1", "read_file", {{"path", "a"}}}});
    h.loop.send("Never mind.", h.out); // the read is answered "interrupted"
    h.reply("ok");
    ASSERT_EQ(h.loop.history().size(), 4u);
    h.loop.rewind(2, h.out);
    const Conversation& c = h.loop.history();
    ASSERT_EQ(c.size(), 3u);
    EXPECT_EQ(c.back()->role, Role::user);
    EXPECT_TRUE(c.back()->text.empty()) << "the text is gone, the results stay";
    ASSERT_EQ(c.back()->results.size(), 1u);
    EXPECT_EQ(c.back()->results[0].call_id, "r1");
}

} // namespace
} // namespace rio
