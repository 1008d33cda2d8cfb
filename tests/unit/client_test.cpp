// client/: the Session reducer driven by a recorded plan turn (tests/unit/data, recorded
// from a real rio-core with the script provider), request/response matching, the mode
// mapping and the trace's words. No process.
#include "client/activity.hpp"
#include "client/modes.hpp"
#include "client/requests.hpp"
#include "client/session.hpp"
#include "client/trace_words.hpp"
#include "io/listen_address.hpp"
#include "protocol/json_parse.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace rio::client {
namespace {

std::string data_file(const char* name) {
    std::ifstream in(std::string(RIO_SOURCE_DIR) + "/tests/unit/data/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> recorded_lines() {
    std::vector<std::string> lines;
    std::stringstream in(data_file("plan_turn_events.jsonl"));
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// Feeds the recording line by line through Requests, as a frontend does, until `stop`
// returns true for a session state (or the recording ends).
template <typename Stop> Session replay(Stop stop, std::size_t* events = nullptr) {
    Requests requests;
    Session session;
    std::size_t n = 0;
    for (const std::string& line : recorded_lines()) {
        auto event = requests.take(line);
        if (!event) continue;
        ++n;
        session.apply(*event);
        if (stop(session.state())) break;
    }
    EXPECT_EQ(requests.malformed(), 0u);
    if (events) *events = n;
    return session;
}

Session replay_all(std::size_t* events = nullptr) {
    return replay([](const SessionState&) { return false; }, events);
}

TEST(ClientSession, EveryRecordedEventDecodes) {
    std::size_t events = 0;
    replay_all(&events);
    EXPECT_EQ(events, recorded_lines().size());
}

TEST(ClientSession, APlanWaitingForAPersonIsPendingAndTheTurnIsBusy) {
    Session s = replay([](const SessionState& st) { return st.pending.has_value(); });
    ASSERT_TRUE(s.state().pending);
    EXPECT_TRUE(s.state().pending->is(ProposalKind::plan));
    EXPECT_EQ(s.state().pending->as_plan().title, "Shout");
    EXPECT_EQ(s.state().mode, "plan");
    EXPECT_EQ(s.state().choice(), ModeChoice::plan);
    EXPECT_TRUE(s.state().busy);
}

TEST(ClientSession, TheWholeTurnFoldsIntoTranscriptTraceAndState) {
    const SessionState st = replay_all().state();
    EXPECT_FALSE(st.busy);
    EXPECT_FALSE(st.pending);
    EXPECT_EQ(st.mode, "build");
    EXPECT_EQ(st.choice(), ModeChoice::review);
    EXPECT_EQ(st.provider, "script");
    EXPECT_EQ(st.turn, 1u);
    ASSERT_EQ(st.calls.size(), 3u);
    EXPECT_EQ(st.calls[0].call.name, "read_file");
    ASSERT_TRUE(st.calls[0].result);
    EXPECT_TRUE(st.calls[0].result->ok);
    // The command's exit is data, not prose to parse.
    ASSERT_TRUE(st.calls[2].result && st.calls[2].result->exit);
    EXPECT_EQ(st.calls[2].result->exit->code, 1);
    EXPECT_FALSE(st.calls[2].result->ok);

    std::vector<std::string> words;
    for (const TranscriptEntry& e : st.transcript)
        words.push_back(e.kind == TranscriptEntry::Kind::tool ? "tool:" + st.calls[e.call].call.name
                                                              : e.text);
    EXPECT_EQ(words,
              (std::vector<std::string>{"Let me look.", "tool:read_file", "tool:present_plan",
                                        "Plan approved — review each edit", "tool:run_command",
                                        "Command allowed to run", "Done."}));
    EXPECT_TRUE(st.streaming.empty());
}

TEST(ClientSession, ADecisionElsewhereClearsThePendingProposal) {
    Session s = replay([](const SessionState& st) { return st.pending.has_value(); });
    DecidedEvent decided;
    decided.id = s.state().pending->id;
    decided.kind = ProposalKind::plan;
    decided.decision = Verdict::reject;
    decided.feedback = "too broad\nand more";
    s.apply(decided);
    EXPECT_FALSE(s.state().pending);
    EXPECT_EQ(s.state().transcript.back().text, "Plan rejected: too broad");
}

// The tool result of a rejected call carries what the model is told ("The user rejected the
// plan. Their feedback: …"); every frontend shows the person's own words instead.
TEST(ClientSession, ARejectedCallsOutcomeIsThePersonsWordsNotTheModels) {
    Session s = replay([](const SessionState& st) { return st.pending.has_value(); });
    const std::string id = s.state().pending->id;
    DecidedEvent decided;
    decided.id = id;
    decided.kind = ProposalKind::plan;
    decided.decision = Verdict::reject;
    decided.feedback = "keep main() as it is";
    s.apply(decided);
    ToolResultEvent result;
    result.id = id;
    result.ok = false;
    result.content = "The user rejected the plan. Their feedback: keep main() as it is";
    s.apply(result);
    ToolOutcome outcome = s.outcome(result);
    EXPECT_EQ(outcome.text, "You asked for changes: keep main() as it is");
    EXPECT_TRUE(outcome.rejected);
    EXPECT_FALSE(outcome.failed) << "a decision, not a failure";
    ToolResultEvent other;
    other.id = "another-call";
    other.ok = false;
    other.content = "edit_file failed: no match";
    EXPECT_EQ(s.outcome(other).text, "edit_file failed: no match");
    EXPECT_TRUE(s.outcome(other).failed);
}

TEST(ClientSession, ResetClearsTheConversation) {
    Session s = replay_all();
    s.apply(ResetEvent{});
    EXPECT_TRUE(s.state().transcript.empty());
    EXPECT_TRUE(s.state().calls.empty());
}

TEST(ClientSession, AFreshContextLeavesTheSeedAsTheOnlyMessageAsTheHistoryWould) {
    Session s = replay_all();
    ASSERT_FALSE(s.state().transcript.empty());
    s.apply(FreshEvent{3, ".rio/plans/p.md", "add shout\n\n---\n\nThe approved plan: …"});
    ASSERT_EQ(s.state().transcript.size(), 1u);
    EXPECT_EQ(s.state().transcript[0].kind, TranscriptEntry::Kind::user);
    EXPECT_EQ(s.state().transcript[0].text, "add shout\n\n---\n\nThe approved plan: …");
    EXPECT_TRUE(s.state().calls.empty());
}

TEST(ClientSession, APlanReportNotesOnlyChangesOutsideThePlan) {
    Session s;
    s.apply(PlanReportEvent{2, ".rio/plans/p.md", {"greet.py"}, {}, {"README.md"}});
    EXPECT_TRUE(s.state().transcript.empty()) << "nothing to say when all was in the plan";
    ASSERT_TRUE(s.state().last_report);
    s.apply(PlanReportEvent{
        2, ".rio/plans/p.md", {"greet.py", "a.txt", "b.txt"}, {"a.txt", "b.txt"}, {}});
    ASSERT_EQ(s.state().transcript.size(), 1u);
    EXPECT_EQ(s.state().transcript[0].text, "Changed but not named in the plan: a.txt, b.txt");
    EXPECT_EQ(s.state().last_report->unplanned.size(), 2u);
}

TEST(ClientSession, HistoryRebuildsTheTraceWithResultsAndExits) {
    Session s;
    s.apply_history(parse_json(data_file("plan_turn_history.json"))->get<HistoryResult>());
    const SessionState& st = s.state();
    ASSERT_EQ(st.calls.size(), 3u);
    for (const TraceCall& c : st.calls)
        EXPECT_TRUE(c.result) << c.call.name << " has no result";
    EXPECT_EQ(st.calls[2].result->name, "run_command");
    ASSERT_TRUE(st.calls[2].result->exit);
    EXPECT_EQ(st.calls[2].result->exit->code, 1);
    EXPECT_EQ(st.transcript.front().kind, TranscriptEntry::Kind::user);
    EXPECT_EQ(st.transcript.front().text, "add shout");
    EXPECT_EQ(st.transcript.back().text, "Done.");
}

TEST(ClientRequests, EachReplyReachesItsOwnHandlerOnce) {
    Requests requests;
    std::vector<std::string> seen;
    Json first = *parse_json(requests.encode(op::agent_status, Json::object(), [&](const Reply& r) {
        seen.push_back("first:" + r.result.value("mode", ""));
    }));
    Json second = *parse_json(requests.encode(op::agent_send, {{"text", "x"}}, [&](const Reply& r) {
        seen.push_back("second:" + r.error->message);
    }));
    EXPECT_NE(first["id"], second["id"]);
    EXPECT_EQ(second["op"], "agent.send");
    EXPECT_EQ(requests.pending(), 2u);
    std::string error_reply = Json{{"id", second["id"]},
                                   {"ok", false},
                                   {"error", {{"code", "refused"}, {"message", "busy"}}}}
                                  .dump();
    EXPECT_FALSE(requests.take(error_reply));
    EXPECT_FALSE(requests.take(
        Json{{"id", first["id"]}, {"ok", true}, {"result", {{"mode", "plan"}}}}.dump()));
    EXPECT_FALSE(requests.take(error_reply)); // answered already: ignored
    EXPECT_EQ(seen, (std::vector<std::string>{"second:busy", "first:plan"}));
    EXPECT_EQ(requests.pending(), 0u);
}

TEST(ClientRequests, TypedRepliesDecodeOrSayWhyNot) {
    Requests requests;
    std::optional<Typed<SendParams>> got;
    Json line = *parse_json(
        requests.encode(SendParams{"hi"}, [&](const Typed<SendParams>& r) { got = r; }));
    EXPECT_EQ(line["params"]["text"], "hi");
    requests.take(Json{{"id", line["id"]}, {"ok", true}, {"result", {{"turn", "seven"}}}}.dump());
    ASSERT_TRUE(got);
    ASSERT_FALSE(*got);
    EXPECT_EQ(got->error().code, ErrorCode::bad_response);
}

TEST(ClientRequests, GarbageIsCountedAndUnknownEventsAreIgnored) {
    Requests requests;
    EXPECT_FALSE(requests.take("not json"));
    EXPECT_FALSE(requests.take("[1,2]"));
    EXPECT_FALSE(requests.take(R"({"event":"agent.future_thing","params":{}})"));
    EXPECT_FALSE(requests.take(R"({"event":"agent.delta","params":{"text":5}})"));
    EXPECT_EQ(requests.malformed(), 3u);
}

TEST(ClientRequests, ACoreThatGoesAwayFailsEveryWaitingRequest) {
    Requests requests;
    int failed = 0;
    requests.encode(op::agent_status, Json::object(), [&](const Reply& r) {
        failed += !r.ok() && r.error->code == ErrorCode::io_error;
    });
    requests.encode(op::agent_tools, Json::object(), [&](const Reply& r) { failed += !r.ok(); });
    requests.fail_all(make_error(ErrorCode::io_error, "the core closed the connection"));
    EXPECT_EQ(failed, 2);
    EXPECT_EQ(requests.pending(), 0u);
}

TEST(ClientModes, AutoAcceptIsSetBeforeLeavingPlanMode) {
    const ModeRequests requests = mode_requests(ModeChoice::auto_accept);
    ASSERT_TRUE(requests.auto_accept);
    EXPECT_EQ(AutoAcceptSetParams::op, "agent.autoaccept.set");
    EXPECT_EQ(Json(*requests.auto_accept), Json({{"on", true}}));
    EXPECT_EQ(ModeSetParams::op, "agent.mode.set");
    EXPECT_EQ(Json(requests.mode), Json({{"mode", "build"}}));
    ASSERT_TRUE(mode_requests(ModeChoice::review).auto_accept);
    EXPECT_EQ(Json(*mode_requests(ModeChoice::review).auto_accept), Json({{"on", false}}));
    EXPECT_EQ(Json(mode_requests(ModeChoice::review).mode), Json({{"mode", "build"}}));
    EXPECT_FALSE(mode_requests(ModeChoice::plan).auto_accept);
    EXPECT_EQ(Json(mode_requests(ModeChoice::plan).mode), Json({{"mode", "plan"}}));
    EXPECT_EQ(mode_choice("plan", true), ModeChoice::plan);
    EXPECT_EQ(mode_choice("build", true), ModeChoice::auto_accept);
    EXPECT_EQ(mode_word(ModeChoice::review), "review");
}

ToolEvent tool(const char* name, Json input) {
    ToolEvent t;
    t.name = name;
    t.input = std::move(input);
    return t;
}

// Issue 45: /status and the desktop say how a command's network can be let out, and the
// user's standing hosts; a proposal says the hosts it asks for.
TEST(ClientTraceWords, TheSandboxSaysHowTheNetworkIsLetOutAndTheStandingHosts) {
    SandboxState sandbox{true, 4, ""};
    sandbox.network = NetworkReach::by_host;
    sandbox.hosts = std::vector<std::string>{"registry.npmjs.org", "pypi.org"};
    std::string text = sandbox_status_text(sandbox);
    EXPECT_NE(text.find("network: none, or some hosts through rio's proxy"), std::string::npos)
        << text;
    EXPECT_NE(text.find("standing hosts (sandbox.hosts in config.json): registry.npmjs.org, "
                        "pypi.org"),
              std::string::npos)
        << text;
    sandbox.network = NetworkReach::all_or_nothing;
    sandbox.network_reason = "no network namespace for commands: unshare failed";
    text = sandbox_status_text(sandbox);
    EXPECT_NE(text.find("network: none or all of it (no network namespace for commands: "
                        "unshare failed)"),
              std::string::npos)
        << text;
    CommandProposal asking{{"npm", "install"}, ".", 120, false};
    asking.hosts = {"registry.npmjs.org"};
    EXPECT_EQ(asked_hosts_text(Proposal{1, "c", asking}),
              "asks for the network to registry.npmjs.org");
    EXPECT_EQ(asked_hosts_text(Proposal{1, "c", CommandProposal{{"make"}, ".", 120, false}}), "");
}

TEST(ClientTraceWords, EachToolReadsAsWhatItIsAbout) {
    EXPECT_EQ(tool_verb("read_file"), "read");
    EXPECT_EQ(tool_verb("mcp__git__log"), "mcp__git__log");
    EXPECT_EQ(tool_detail(tool("read_file", {{"path", "src/app.cpp"}})), "src/app.cpp");
    EXPECT_EQ(tool_detail(tool("list_dir", {{"path", "."}})), "the project");
    EXPECT_EQ(tool_detail(tool("search", {{"pattern", "TODO"}, {"path", "src"}})),
              "\"TODO\" in src");
    EXPECT_EQ(tool_detail(tool("present_plan", {{"title", "Shout"}, {"plan", "…"}})), "\"Shout\"");
    EXPECT_EQ(tool_detail(tool("run_command", {{"argv", {"git", "commit", "-m", "a b", "$x"}}})),
              "git commit -m 'a b' '$x'");
    EXPECT_EQ(tool_detail(tool("run_command", {{"argv", {"echo", ""}}})), "echo ''");
}

TEST(ClientTraceWords, ACallInProgressReadsAsAnActivity) {
    EXPECT_EQ(tool_activity(tool("read_file", {{"path", "greet.py"}})), "reading greet.py");
    EXPECT_EQ(tool_activity(tool("list_dir", {{"path", "."}})), "listing the project");
    EXPECT_EQ(tool_activity(tool("run_command", {{"argv", {"make", "test"}}})),
              "running make test");
    EXPECT_EQ(tool_activity(tool("present_plan", {{"title", "Shout"}})), "presenting the plan");
    EXPECT_EQ(tool_activity(tool("mcp__git__log", Json::object())), "using mcp__git__log");
}

// An MCP server's notifications/progress for a long call (agent.tool_progress): in every
// frontend's trace, in the same words.
TEST(ClientTraceWords, ACallsProgressReadsAsHowFarItGot) {
    EXPECT_EQ(progress_text({1, "c", 3, 5.0, std::nullopt}), "3 of 5");
    EXPECT_EQ(progress_text({1, "c", 0.25, 1.0, "indexing\nsrc/"}), "0.25 of 1 · indexing");
    EXPECT_EQ(progress_text({1, "c", 12, std::nullopt, ""}), "12");

    ToolEvent call = tool("mcp__x__slow", Json::object());
    call.id = "call-1";
    Session session;
    session.apply(CoreEvent(call));
    ToolProgressEvent progress{1, "call-1", 1, 2.0, "half"};
    session.apply(CoreEvent(progress));
    ASSERT_EQ(session.state().calls.size(), 1u);
    ASSERT_TRUE(session.state().calls[0].progress);
    EXPECT_EQ(session.state().calls[0].progress->progress, 1);

    Activity activity;
    activity.apply(CoreEvent(call));
    activity.apply(CoreEvent(progress));
    EXPECT_EQ(activity.words(), "using mcp__x__slow · 1 of 2 · half");
}

TEST(ClientTraceWords, ACommandsOutcomeComesFromItsExitData) {
    ToolResultEvent r;
    r.name = "run_command";
    r.content = "$ false\nprose that is not parsed";
    r.ok = false;
    r.exit = CommandExit{1, std::nullopt, false, false, 0.44};
    EXPECT_EQ(tool_outcome(r).text, "exit code 1 · 0.4 s");
    EXPECT_TRUE(tool_outcome(r).failed);
    r.exit = CommandExit{std::nullopt, 9, false, false, 2};
    EXPECT_EQ(tool_outcome(r).text, "killed by signal 9 after 2.0 s");
    r.exit = CommandExit{std::nullopt, 9, true, false, 30};
    EXPECT_EQ(tool_outcome(r).text, "killed: timed out after 30.0 s");
    r.exit = CommandExit{std::nullopt, 15, false, true, 1.2};
    EXPECT_EQ(tool_outcome(r).text, "stopped by the user after 1.2 s");
    r.sandbox = SandboxUse{SandboxProfile::read_only, false, std::nullopt};
    EXPECT_EQ(tool_outcome(r).text,
              "stopped by the user after 1.2 s · sandboxed: read-only, no network");
    r.sandbox.reset();
    r.exit.reset();
    r.content = "\n  The command was not run: refused.\nmore";
    EXPECT_EQ(tool_outcome(r).text, "The command was not run: refused.");
    r.ok = true;
    EXPECT_EQ(tool_outcome(r).text, "");
}

TEST(ClientTraceWords, DecisionsReadAsSentences) {
    DecidedEvent d;
    d.kind = ProposalKind::plan;
    d.decision = Verdict::approve;
    d.policy = ApprovalPolicy::automatic;
    EXPECT_EQ(decision_text(d), "Plan approved — auto-accept edits");
    d.kind = ProposalKind::edit;
    d.decision = Verdict::reject;
    d.policy.reset();
    d.feedback = "too broad";
    EXPECT_EQ(decision_text(d), "Edit rejected: too broad");
    d.kind = ProposalKind::command;
    d.decision = Verdict::approve;
    d.feedback.reset();
    EXPECT_EQ(decision_text(d), "Command allowed to run");
    d.network = NetworkGrant{true, {}};
    EXPECT_EQ(decision_text(d), "Command allowed to run with the network");
    d.network = NetworkGrant{false, {"registry.npmjs.org", "*.pythonhosted.org"}};
    d.keep_hosts = true;
    EXPECT_EQ(decision_text(d), "Command allowed to run with the network to registry.npmjs.org, "
                                "*.pythonhosted.org (kept for later commands)");
    d.keep_hosts.reset();
    d.unsandboxed = true;
    EXPECT_EQ(decision_text(d), "Command allowed to run without the sandbox");
    d.network.reset();
    d.unsandboxed.reset();
    d.kind = ProposalKind::plan;
    d.decision = Verdict::reject;
    d.comments = std::vector<PlanComment>{{"q", 1, {}, "t"}, {"r", {}, {}, "u"}};
    EXPECT_EQ(decision_text(d), "Changes requested (2 comments)");
    d.decision = Verdict::approve;
    d.comments->pop_back();
    d.fresh = true;
    EXPECT_EQ(decision_text(d), "Plan approved with notes (1 comment) — in a fresh context");
    DecidedEvent rest;
    rest.kind = ProposalKind::edit;
    rest.decision = Verdict::approve;
    rest.rest_of_turn = true;
    EXPECT_EQ(decision_text(rest), "Edit approved, and the rest of this turn's edits");
}

TEST(ClientTraceWords, ATurnsTokensReadAtAGlance) {
    TurnUsage u;
    EXPECT_EQ(usage_text(u), "") << "no call reported counts";
    u.calls = 1;
    u.input_tokens = 1234;
    u.output_tokens = 56;
    EXPECT_EQ(usage_text(u), "1,234 tokens in · 56 out");
    u.input_tokens = 12345;
    u.cache_read_tokens = 9800;
    u.cache_write_tokens = 120;
    u.output_tokens = 456789;
    EXPECT_EQ(usage_text(u), "12.3k tokens in · 9,800 cache read · 120 cache write · 457k out");
    u.input_tokens = 1250000;
    u.cache_read_tokens = 0;
    u.cache_write_tokens = 0;
    u.output_tokens = 1005;
    EXPECT_EQ(usage_text(u), "1.3M tokens in · 1,005 out");
}

TEST(ClientTraceWords, TheContextMeterAndACompactionReadAsOneLine) {
    EXPECT_EQ(context_text(ContextInfo{12345, 200000, false}), "12.3k / 200k tokens (6%)");
    EXPECT_EQ(context_text(ContextInfo{900, 32768, true}), "≈900 / 32.8k tokens (2%)")
        << "no provider count stands behind it";
    EXPECT_EQ(context_percent(ContextInfo{500, 100, false}), 100) << "past the window";
    CompactedEvent e{4, 150000, 41200, 12, true, "threshold", ""};
    EXPECT_EQ(compacted_text(e),
              "Context compacted: 150k → 41.2k tokens (12 tool outputs cleared, older turns "
              "summarized)");
    e = CompactedEvent{4,
                       9000,
                       3000,
                       1,
                       false,
                       "request",
                       "the summary came back empty; only "
                       "old tool outputs were cleared"};
    EXPECT_EQ(compacted_text(e),
              "Context compacted: 9,000 → 3,000 tokens (1 tool output cleared); the summary came "
              "back empty; only old tool outputs were cleared");
    Session session;
    session.apply(e);
    EXPECT_EQ(session.state().transcript.back().text, compacted_text(e));
    AgentStatus status;
    status.context = ContextInfo{10, 100, true};
    session.apply(status);
    ASSERT_TRUE(session.state().context);
    EXPECT_EQ(session.state().context->used, 10u);
}

TEST(ClientSession, UsageIsSummedOverATurnsCallsAndStartsAgainWithTheNext) {
    Session session;
    session.apply(UsageEvent{3, Json{{"input_tokens", 100}, {"output_tokens", 20}}});
    session.apply(UsageEvent{3, Json{{"input_tokens", 150},
                                     {"output_tokens", 30},
                                     {"cache_read_input_tokens", 90},
                                     {"cache_creation_input_tokens", 10}}});
    TurnUsage u = session.state().usage;
    EXPECT_EQ(u.turn, 3u);
    EXPECT_EQ(u.calls, 2u);
    EXPECT_EQ(u.input_tokens, 250u);
    EXPECT_EQ(u.cache_read_tokens, 90u);
    EXPECT_EQ(u.cache_write_tokens, 10u);
    EXPECT_EQ(u.output_tokens, 50u);
    session.apply(UsageEvent{4, Json{{"input_tokens", 7}, {"output_tokens", "many"}}});
    u = session.state().usage;
    EXPECT_EQ(u.turn, 4u);
    EXPECT_EQ(u.calls, 1u);
    EXPECT_EQ(u.input_tokens, 7u);
    EXPECT_EQ(u.output_tokens, 0u) << "a count that is not a number counts as none";
}

AgentStatus busy_status(AgentState state) {
    AgentStatus s;
    s.busy = state != AgentState::idle;
    s.state = state;
    return s;
}

TEST(ClientActivity, EachEventOfATurnSaysWhatTheAgentIsDoing) {
    Activity a;
    EXPECT_EQ(a.words(), "");
    a.apply(busy_status(AgentState::streaming));
    EXPECT_EQ(a.words(), "waiting for the model");
    a.apply(ThinkingEvent{{1, "hmm"}});
    EXPECT_EQ(a.words(), "thinking");
    a.apply(DeltaEvent{{1, "Let me"}});
    EXPECT_EQ(a.words(), "writing");
    a.apply(tool("read_file", {{"path", "greet.py"}}));
    EXPECT_EQ(a.words(), "reading greet.py");
    a.apply(busy_status(AgentState::running_tool));
    EXPECT_EQ(a.words(), "reading greet.py") << "a status changes nothing while a tool runs";
    a.apply(ToolResultEvent{});
    EXPECT_EQ(a.words(), "waiting for the model");
    a.apply(tool("run_command", {{"argv", {"make", "test"}}}));
    a.apply(Proposal{});
    EXPECT_EQ(a.words(), "waiting for your approval");
    DecidedEvent approved;
    approved.decision = Verdict::approve;
    a.apply(approved);
    EXPECT_EQ(a.words(), "running make test") << "approved, the command runs";
    a.apply(tool("edit_file", {{"path", "greet.py"}}));
    a.apply(busy_status(AgentState::awaiting_decision));
    EXPECT_EQ(a.words(), "waiting for your approval");
    DecidedEvent rejected;
    rejected.decision = Verdict::reject;
    a.apply(rejected);
    EXPECT_EQ(a.words(), "waiting for the model");
    a.apply(DoneEvent{1, "end_turn"});
    EXPECT_EQ(a.words(), "");
    a.apply(busy_status(AgentState::streaming));
    a.apply(busy_status(AgentState::idle));
    EXPECT_EQ(a.words(), "");
}

TEST(ClientActivity, ElapsedTimeReadsAtAGlance) {
    using std::chrono::seconds;
    EXPECT_EQ(elapsed_text(seconds(0)), "0s");
    EXPECT_EQ(elapsed_text(seconds(42)), "42s");
    EXPECT_EQ(elapsed_text(seconds(65)), "1m 05s");
    EXPECT_EQ(elapsed_text(seconds(59 * 60 + 59)), "59m 59s");
    EXPECT_EQ(elapsed_text(seconds(3720)), "1h 02m");
    EXPECT_EQ(elapsed_text(seconds(-3)), "0s") << "a clock that went back";
}

TEST(ClientTraceWords, FirstLinesAreCutByCharactersNotBytes) {
    EXPECT_EQ(first_line("  one\ntwo"), "one");
    EXPECT_EQ(first_line("abcdef", 4), "abc…");
    EXPECT_EQ(first_line("abcd", 4), "abcd");
    EXPECT_EQ(first_line("äöüßé", 3), "äö…");
    EXPECT_EQ(first_line("äöü", 3), "äöü");
}

} // namespace
} // namespace rio::client

namespace rio {
namespace {

// The one parser of --connect addresses, for every frontend.
TEST(ConnectAddress, SpellingsOfListenAreAcceptedAndHostsMayBeNames) {
    auto unix_socket = parse_connect_address("unix:/tmp/rio.sock");
    ASSERT_TRUE(unix_socket && unix_socket->unix_socket);
    EXPECT_EQ(unix_socket->path, "/tmp/rio.sock");
    auto tcp = parse_connect_address("127.0.0.1:7000");
    ASSERT_TRUE(tcp && !tcp->unix_socket);
    EXPECT_EQ(tcp->host, "127.0.0.1");
    EXPECT_EQ(tcp->port, 7000);
    auto v6 = parse_connect_address("[::1]:9");
    ASSERT_TRUE(v6);
    EXPECT_EQ(v6->host, "::1");
    EXPECT_EQ(parse_connect_address("localhost:9")->host, "127.0.0.1");
    EXPECT_EQ(parse_connect_address("build-box:7000")->host, "build-box");
    EXPECT_FALSE(parse_connect_address("unix:"));
    EXPECT_FALSE(parse_connect_address("localhost"));
    EXPECT_FALSE(parse_connect_address("localhost:http"));
    EXPECT_FALSE(parse_connect_address("localhost:70000"));
    EXPECT_FALSE(parse_connect_address(":7000"));
}

} // namespace
} // namespace rio
