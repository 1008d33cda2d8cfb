// Declared plan steps (issue 43 item 1, DESIGN §20): present_plan's `steps` read strictly
// (agent_tools/declared_steps), the checklist they make (core/agent/plan_track), kept in the
// plan file's front matter and a session's track; and the fallback for a plan without them,
// its "Changes" list, never its "Not doing" one.
#include "acp/updates.hpp"
#include "agent_tools/declared_steps.hpp"
#include "cli/trace.hpp"
#include "client/trace_words.hpp"
#include "core/agent/plan_file.hpp"
#include "core/agent/plan_receipt.hpp"
#include "core/agent/plan_track.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

using Json = nlohmann::json;
using Texts = std::vector<std::string>;

Texts checklist_texts(const std::vector<PlanStep>& steps) {
    Texts out;
    for (const PlanStep& s : steps) {
        EXPECT_EQ(s.n, out.size() + 1);
        EXPECT_EQ(s.status, "pending");
        out.push_back(s.text);
    }
    return out;
}

const std::string three_changes_not_doing_four =
    "# Shout\n\nWhat I understood: greet.py says hello.\n\n## Changes\n\n"
    "1. greet.py: uppercase the greeting\n2. tests/test_greet.py: a test\n3. README.md: say so\n\n"
    "## Verification\n\n- run pytest\n\n## Not doing\n\n- colours\n- i18n\n- a flag\n"
    "- packaging\n\n- See the docs\n";

Json three_declared() {
    return Json{{"steps",
                 {{{"text", "Uppercase the greeting"},
                   {"files", {"greet.py", "nothing/matches/*.py"}},
                   {"check", {{"argv", {"pytest", "-q"}}, {"cwd", "tests"}, {"writes", true}}}},
                  {{"text", "Add\ta   test\n"}},
                  {{"text", "Say so"}, {"files", Json::array()}, {"check", nullptr}}}}};
}

TEST(DeclaredSteps, ThreeStepsAreReadTypedWithFilesAndCheck) {
    auto steps = read_declared_steps(three_declared());
    ASSERT_TRUE(steps) << steps.error().message;
    ASSERT_EQ(steps->size(), 3u);
    const DeclaredStep& first = (*steps)[0];
    EXPECT_EQ(first.text, "Uppercase the greeting");
    EXPECT_EQ(first.files, (Texts{"greet.py", "nothing/matches/*.py"})) << "a glob is not expanded";
    ASSERT_TRUE(first.check);
    EXPECT_EQ(first.check->argv, (Texts{"pytest", "-q"}));
    EXPECT_EQ(first.check->cwd, "tests");
    EXPECT_TRUE(first.check->writes);
    EXPECT_EQ((*steps)[1].text, "Add a test") << "one line";
    EXPECT_FALSE((*steps)[2].check);
    // No steps at all is a plan without them.
    EXPECT_TRUE(read_declared_steps(Json::object())->empty());
    EXPECT_TRUE(read_declared_steps(Json{{"steps", nullptr}})->empty());
    EXPECT_TRUE(read_declared_steps(Json{{"steps", Json::array()}})->empty());
}

TEST(DeclaredSteps, ThreeDeclaredStepsAndANotDoingListAreThreeSteps) {
    auto declared = read_declared_steps(three_declared());
    ASSERT_TRUE(declared);
    EXPECT_EQ(checklist_texts(plan_checklist(three_changes_not_doing_four, *declared)),
              (Texts{"Uppercase the greeting", "Add a test", "Say so"}));
    PlanTrack t = track_plan(2, ".rio/plans/p.md", three_changes_not_doing_four, *declared);
    EXPECT_EQ(t.steps.size(), 3u);
    EXPECT_EQ(tally(t.steps).total, 3u);
}

// Each malformed shape is refused with the place that is wrong.
TEST(DeclaredSteps, HostileShapesAreRefusedNamingThePlace) {
    const Json ok_step = {{"text", "a"}};
    const std::vector<std::pair<Json, std::string>> cases = {
        {"do it", "steps must be a list of objects {text, files?, check?}"},
        {Json{{"text", "a"}}, "steps must be a list of objects {text, files?, check?}"},
        {Json::array({"do it"}), "steps[0] must be an object {text, files?, check?}"},
        {Json::array({ok_step, Json::array()}),
         "steps[1] must be an object {text, files?, check?}"},
        {Json::array({{{"files", {"a.py"}}}}), "steps[0].text must be a non-empty string"},
        {Json::array({{{"text", " \n\t"}}}), "steps[0].text must be a non-empty string"},
        {Json::array({{{"text", 3}}}), "steps[0].text must be a non-empty string"},
        {Json::array({{{"text", "a"}, {"files", "a.py"}}}),
         "steps[0].files must be a list of project paths or globs (strings)"},
        {Json::array({{{"text", "a"}, {"files", {"a.py", 1}}}}),
         "steps[0].files must be a list of project paths or globs (strings)"},
        {Json::array({{{"text", "a"}, {"files", {""}}}}),
         "steps[0].files must be a list of project paths or globs (strings)"},
        {Json::array({ok_step, ok_step, {{"text", "c"}, {"check", "make"}}}),
         "steps[2].check must be an object {argv, cwd?, writes?}"},
        {Json::array({ok_step, ok_step, {{"text", "c"}, {"check", {{"argv", Json::array()}}}}}),
         "steps[2].check.argv must be a non-empty list of strings"},
        {Json::array({{{"text", "a"}, {"check", Json::object()}}}),
         "steps[0].check.argv must be a non-empty list of strings"},
        {Json::array({{{"text", "a"}, {"check", {{"argv", "make check"}}}}}),
         "steps[0].check.argv must be a non-empty list of strings"},
        {Json::array({{{"text", "a"}, {"check", {{"argv", {"make", 1}}}}}}),
         "steps[0].check.argv must be a non-empty list of strings"},
        {Json::array({{{"text", "a"}, {"check", {{"argv", {""}}}}}}),
         "steps[0].check.argv must be a non-empty list of strings"},
        {Json::array({{{"text", "a"}, {"check", {{"argv", {"make"}}, {"writes", "yes"}}}}}),
         "steps[0].check.writes must be true or false"},
        {Json::array({{{"text", "a"}, {"check", {{"argv", {"make"}}, {"cwd", 3}}}}}),
         "steps[0].check.cwd must be a string: a folder of the project"},
        {Json::array({{{"text", "a"}, {"chek", {{"argv", {"make"}}}}}}),
         "steps[0] has an unknown field \"chek\"; a step has text, files and check"},
        {Json::array({{{"text", "a"}, {"check", {{"argv", {"make"}}, {"network", true}}}}}),
         "steps[0].check has an unknown field \"network\"; a check has argv, cwd and writes"},
        {Json(std::vector<Json>(max_declared_steps + 1, ok_step)),
         "steps has 51 items; a plan may declare at most 50"},
    };
    for (const auto& [steps, message] : cases) {
        auto read = read_declared_steps(Json{{"steps", steps}});
        ASSERT_FALSE(read) << steps.dump();
        EXPECT_EQ(read.error().message, message) << steps.dump();
        EXPECT_EQ(read.error().code, ErrorCode::bad_request);
    }
}

// The fallback (issue 43: a three-change plan with a "Not doing" list showed "0/7").
TEST(PlanStepsFallback, TheChangesListNotTheNotDoingList) {
    EXPECT_EQ(checklist_texts(plan_steps(three_changes_not_doing_four)),
              (Texts{"greet.py: uppercase the greeting", "tests/test_greet.py: a test",
                     "README.md: say so"}));
    EXPECT_EQ(checklist_texts(
                  plan_steps("## What I understood\n\n- it says hello\n\n## Steps\n\n- a\n- b\n"
                             "\n## Out of scope\n\n- c\n")),
              (Texts{"a", "b"}));
    EXPECT_EQ(checklist_texts(
                  plan_steps("## Proposed changes\n\n1. a\n2. b\n3. c\n\n### Non-goals\n\n- d\n"
                             "\nSee the docs:\n\n- docs/x.md\n")),
              (Texts{"a", "b", "c"}))
        << "a left-out subsection ends the changes";
}

TEST(PlanStepsFallback, WithoutAChangesHeadingEveryListButWhatIsLeftOut) {
    EXPECT_EQ(
        checklist_texts(plan_steps("1. a\n2. b\n\n## Not doing\n\n- c\n- d\n\n## Later\n\n- e\n")),
        (Texts{"a", "b"}));
    EXPECT_EQ(checklist_texts(
                  plan_steps("Intro.\n\n- a\n- b\n\n## Won't do\n\n- c\n\n## Tests\n\n- t\n")),
              (Texts{"a", "b", "t"}))
        << "a section after the left-out one counts again";
    EXPECT_EQ(checklist_texts(plan_steps("1. One\n2. Two\n3. Three\n")),
              (Texts{"One", "Two", "Three"}))
        << "a plan that is just one list, as before";
    EXPECT_EQ(checklist_texts(plan_steps("# Plan for the parser\n\n- a\n\n## Not doing\n\n- b\n")),
              (Texts{"a"}));
}

TEST(DeclaredSteps, KeptInTheFrontMatterAndTheSessionsTrack) {
    auto declared = read_declared_steps(three_declared());
    ASSERT_TRUE(declared);
    std::string file =
        render_plan_file("Shout", three_changes_not_doing_four, WallTime{}, "", *declared);
    PlanFileInfo info = parse_plan_file(file);
    ASSERT_EQ(info.steps.size(), 3u);
    EXPECT_EQ(info.steps[0].files, (*declared)[0].files);
    EXPECT_EQ(info.steps[0].check->argv, (Texts{"pytest", "-q"}));
    EXPECT_TRUE(info.steps[0].check->writes);
    EXPECT_EQ(info.plan, plan_file_body("Shout", three_changes_not_doing_four))
        << "the body stays as approved";
    // Progress and status rewrite the front matter and keep the steps.
    info = parse_plan_file(set_plan_progress(
        set_plan_status(file, PlanStatus::approved, WallTime{}, "auto"), "done pending pending"));
    EXPECT_EQ(info.steps.size(), 3u);
    EXPECT_EQ(info.progress, "done pending pending");
    // A plan without declared steps files as before: no steps field.
    EXPECT_EQ(render_plan_file("Shout", "1. a\n", WallTime{}).find("steps:"), std::string::npos);

    PlanTrack t = track_plan(4, ".rio/plans/p.md", three_changes_not_doing_four, *declared);
    ASSERT_FALSE(set_step(t, 3, "done", std::nullopt));
    auto back = track_from_json(track_json(t));
    ASSERT_TRUE(back);
    EXPECT_EQ(back->declared.size(), 3u);
    EXPECT_EQ(back->declared[0].check->cwd, "tests");
    EXPECT_EQ(back->steps[2].status, "done");
    Json forged = track_json(t);
    forged["declared"].erase(0);
    EXPECT_FALSE(track_from_json(forged)) << "declared steps that do not fit the checklist";
    EXPECT_FALSE(track_json(track_plan(1, "", "1. a\n")).contains("declared"));
}

// On the wire only when declared, so a plan without steps is byte for byte as before.
TEST(DeclaredSteps, OnTheWireOnlyWhenDeclared) {
    Json plain = PlanProposal{"T", "1. a", "p.md", "", ""};
    EXPECT_EQ(plain.dump(), R"({"path":"p.md","plan":"1. a","title":"T"})");
    auto declared = read_declared_steps(three_declared());
    ASSERT_TRUE(declared);
    Proposal p{3, "c1", PlanProposal{"T", "1. a", "p.md", "", "", *declared}};
    Json j = p;
    EXPECT_EQ(j["steps"][1], (Json{{"text", "Add a test"}}));
    EXPECT_EQ(j["steps"][0]["check"],
              (Json{{"argv", {"pytest", "-q"}}, {"cwd", "tests"}, {"writes", true}}));
    Proposal back = j.get<Proposal>();
    ASSERT_TRUE(back.plan());
    ASSERT_EQ(back.plan()->steps.size(), 3u);
    EXPECT_EQ(back.plan()->steps[0].check->argv, (Texts{"pytest", "-q"}));
}

// Before approval every frontend shows each step with its files and its check (DESIGN §20).
TEST(DeclaredSteps, FrontendsShowEachStepWithItsFilesAndCheck) {
    auto declared = read_declared_steps(three_declared());
    ASSERT_TRUE(declared);
    std::string text = client::declared_steps_text(*declared);
    EXPECT_EQ(text, "**Steps, approved with the plan**\n\n"
                    "1. Uppercase the greeting\n"
                    "   - files: `greet.py`, `nothing/matches/*.py`\n"
                    "   - check: `pytest -q` in `tests` (may write to the project)\n"
                    "2. Add a test\n"
                    "   - no check: done when the agent says so\n"
                    "3. Say so\n"
                    "   - no check: done when the agent says so\n");
    EXPECT_EQ(client::declared_steps_text({}), "") << "a plan without steps shows as before";

    PlanProposal plan{"Shout", "1. Shout", ".rio/plans/p.md", "", "", *declared};
    std::string cli = plan_text(plan, 100, false);
    EXPECT_NE(cli.find("pytest -q"), std::string::npos) << cli;
    EXPECT_NE(cli.find("nothing/matches/*.py"), std::string::npos) << cli;
    EXPECT_LT(cli.find("Shout"), cli.find("Uppercase the greeting")) << "below the plan";
    EXPECT_EQ(plan_text(PlanProposal{"Shout", "1. Shout", "", "", ""}, 100, false).find("Steps"),
              std::string::npos);

    Json request = acp::permission_request("s1", Proposal{1, "call_1", plan}, "/p");
    ASSERT_EQ(request["toolCall"]["content"].size(), 2u) << request.dump();
    EXPECT_EQ(request["toolCall"]["content"][0]["content"]["text"], "1. Shout");
    EXPECT_EQ(request["toolCall"]["content"][1]["content"]["text"], text);
}

// Issue 43 items 2, 3: what a check leaves behind, and how each frontend says it.
CheckRun failed_run() {
    return CheckRun{{"pytest", "-q"}, ".", "read-only",           3, "", 1.5,
                    "1 failed",       {},  "2026-12-05T00:00:00Z"};
}

PlanTrack three_with_checks() {
    std::vector<DeclaredStep> declared{{"Change it", {"a.py"}, StepCheck{{"pytest", "-q"}}},
                                       {"Document it", {}, std::nullopt},
                                       {"Tidy up", {}, StepCheck{{"true"}}}};
    return track_plan(1, ".rio/plans/p.md", "the plan", declared);
}

TEST(PlanChecks, ACheckDecidesDoneOrFailedAndTheModelCannotSayFailed) {
    PlanTrack t = three_with_checks();
    EXPECT_EQ(refused_report(t, 1, "failed").value_or("").substr(0, 36),
              "'failed' is not a status you report;");
    set_checked(t, 1, failed_run(), std::nullopt);
    EXPECT_EQ(t.steps[0].status, "failed");
    EXPECT_FALSE(t.steps[0].verified);
    EXPECT_NE(check_result_text(t, 1).find("did not pass (it exited 3)"), std::string::npos);
    EXPECT_NE(check_result_text(t, 1).find("1 failed"), std::string::npos) << "its output";
    CheckRun ok = failed_run();
    ok.exit = 0;
    set_checked(t, 1, ok, std::nullopt);
    EXPECT_EQ(t.steps[0].status, "done");
    EXPECT_EQ(t.steps[0].verified, true);
    ASSERT_FALSE(set_step(t, 2, "done", std::nullopt));
    EXPECT_EQ(t.steps[1].verified, false) << "done without a check is unverified";
    EXPECT_TRUE(refused_report(t, 2, "pending")) << "out of order";
    EXPECT_FALSE(refused_report(t, 2, "in_progress")) << "reopened";
    ASSERT_FALSE(set_step(t, 2, "in_progress", std::nullopt));
    EXPECT_FALSE(t.steps[1].verified) << "no longer done";
    CheckRun timed_out = failed_run();
    timed_out.exit.reset();
    timed_out.failure = "timed out after 300 s";
    EXPECT_FALSE(timed_out.passed());
}

TEST(PlanChecks, EvidenceKeepsNoControlCharactersAndOnlyTheTail) {
    std::string out = evidence_output("\x1b]0;PWNED\x07\x1b[31mred\x1b[0m\r\nok\x01\tdone\n");
    EXPECT_EQ(out, "red\nok\tdone\n");
    std::string long_output;
    for (int i = 0; i < 1000; ++i)
        long_output += "line " + std::to_string(i) + "\n";
    std::string tail = evidence_output(long_output);
    EXPECT_LE(tail.size(), max_evidence_bytes);
    EXPECT_TRUE(tail.ends_with("line 999\n"));
}

TEST(PlanChecks, TheChecksFieldKeepsEvidenceAndRefusesWhatDoesNotFit) {
    PlanTrack t = three_with_checks();
    EXPECT_EQ(checks_field(t.steps), "") << "nothing to show yet";
    set_checked(t, 1, failed_run(), std::nullopt);
    ASSERT_FALSE(set_step(t, 2, "done", std::nullopt));
    std::string field = checks_field(t.steps);
    EXPECT_EQ(field.find('\n'), std::string::npos) << "one line of front matter";
    std::string file =
        set_plan_progress(render_plan_file("P", "the plan", {}), progress_field(t.steps), field);
    PlanFileInfo info = parse_plan_file(file);
    ASSERT_TRUE(info.checks);
    std::vector<PlanStep> read = declared_plan_steps(t.declared);
    ASSERT_TRUE(read_progress_field(*info.progress, read));
    ASSERT_TRUE(read_checks_field(*info.checks, read));
    EXPECT_EQ(Json(read), Json(t.steps));
    std::vector<PlanStep> two(2);
    EXPECT_FALSE(read_checks_field(field, two)) << "another count of steps";
    EXPECT_FALSE(read_checks_field("[{\"verified\": \"yes\"}, null, null]", read));
    EXPECT_FALSE(read_checks_field("not json", read));
}

TEST(PlanChecks, EveryFrontendTellsVerifiedUnverifiedAndFailedApart) {
    PlanTrack t = three_with_checks();
    set_checked(t, 1, failed_run(), std::nullopt);
    ASSERT_FALSE(set_step(t, 2, "done", std::nullopt));
    CheckRun ok = failed_run();
    ok.exit = 0;
    set_checked(t, 3, ok, std::nullopt);
    PlanProgressEvent e = progress_event(t);
    EXPECT_EQ(client::plan_steps_text(e.steps),
              "[!] 1. Change it (check failed: pytest -q, exit 3, 1.5 s)\n"
              "[x] 2. Document it (unverified)\n"
              "[x] 3. Tidy up (verified)\n");
    EXPECT_EQ(client::plan_summary_text(e), "plan: 2/3 done (1 unverified), 1 failed");
    EXPECT_TRUE(client::declared_step_unverified(e));
    Json acp = acp::plan_update(e);
    EXPECT_EQ(acp["entries"][0]["status"], "pending") << "ACP has no failed";
    EXPECT_EQ(acp["entries"][0]["content"], "Change it (check failed: pytest -q, exit 3, 1.5 s)");
    EXPECT_EQ(acp["entries"][1]["content"], "Document it (unverified)");
    EXPECT_EQ(acp["entries"][2]["status"], "completed");
    // Exit 10 only for declared steps, and not for one the model skipped.
    set_checked(t, 1, ok, std::nullopt);
    ASSERT_FALSE(set_step(t, 2, "skipped", std::string("not needed")));
    EXPECT_FALSE(client::declared_step_unverified(progress_event(t)));
    e.drift = std::vector<std::string>{"a.py"};
    EXPECT_EQ(client::plan_progress_line(e), "2/3 ▸ Change it · a.py changed since approval");
    EXPECT_EQ(client::plan_summary_text(e),
              "plan: 2/3 done (1 unverified), 1 failed · 1 file changed since approval");
    PlanTrack fallback = track_plan(1, "", "## Changes\n\n- a\n- b\n");
    ASSERT_FALSE(set_step(fallback, 1, "done", std::nullopt));
    EXPECT_FALSE(client::declared_step_unverified(progress_event(fallback)));
}

TEST(PlanDrift, TheStepsFilesDecideWhatIsPlannedAndOnlyOthersChangesAreDrift) {
    std::vector<DeclaredStep> declared{{"Change", {"greet.py", "src/", "tests/**/*.py"}, {}},
                                       {"Tidy", {}, {}}};
    PlanTrack t = track_plan(1, "", "Touches `notes.txt` in the text only", declared);
    for (const char* in : {"greet.py", "src/a/b.c", "tests/unit/test_x.py"})
        EXPECT_TRUE(plan_covers(t, in)) << in;
    for (const char* out : {"notes.txt", "greet.pyc", "srcx/a.c", "tests/x.txt"})
        EXPECT_FALSE(plan_covers(t, out)) << out << ": the text does not count with steps";
    PlanTrack no_files = track_plan(1, "", "text", {{"Do", {}, {}}});
    EXPECT_TRUE(plan_covers(no_files, "anything.txt")) << "steps that name no files flag nothing";

    t.expected = {{"greet.py", ""}, {"new.py", ""}};
    t.approved_texts = {{"greet.py", "a\n"}};
    expect_text(t, "greet.py", "a\n");
    EXPECT_FALSE(drifted(t, "greet.py", "a\n"));
    EXPECT_FALSE(drifted(t, "new.py", "")) << "missing then, created now by the agent";
    EXPECT_FALSE(drifted(t, "other.py", "x")) << "not named: the agent's own";
    auto words = drifted(t, "greet.py", "a\nb\n");
    ASSERT_TRUE(words);
    EXPECT_NE(words->find("greet.py changed since the plan was approved"), std::string::npos);
    EXPECT_NE(words->find("+b"), std::string::npos) << *words;
    EXPECT_EQ(t.drift, std::vector<std::string>{"greet.py"});
    (void)drifted(t, "greet.py", "a\nc\n");
    EXPECT_EQ(t.drift.size(), 1u) << "once";
    expect_files(t, {{"greet.py", "0000"}});
    EXPECT_EQ(t.expected[0].sha256, "0000") << "a command's change is the plan's own work";
    PlanTrack back = *track_from_json(track_json(t));
    EXPECT_EQ(back.drift, t.drift);
    EXPECT_EQ(Json(back.expected), Json(t.expected));
    EXPECT_TRUE(back.approved_texts.empty()) << "texts stay in memory";
}

// What the watcher sees: a hash, no text.
TEST(PlanDrift, AHashSeenIsDriftOnlyWhenTheWorkDidNotLeaveItSo) {
    PlanTrack t = track_plan(1, "", "text", {{"Change", {"greet.py"}, {}}});
    t.expected = {{"greet.py", "aaaa"}, {"gone.py", ""}};
    EXPECT_FALSE(drift_seen(t, {"greet.py", "aaaa"}));
    EXPECT_FALSE(drift_seen(t, {"gone.py", ""})) << "missing then and now";
    EXPECT_FALSE(drift_seen(t, {"other.py", "bbbb"})) << "not named";
    EXPECT_TRUE(drift_seen(t, {"gone.py", "cccc"})) << "created by someone else";
    EXPECT_TRUE(drift_seen(t, {"greet.py", "bbbb"}));
    EXPECT_FALSE(drift_seen(t, {"greet.py", "dddd"})) << "recorded once";
    EXPECT_EQ(t.drift, (std::vector<std::string>{"gone.py", "greet.py"}));
}

TEST(PlanReceipt, TheFileGainsOneReceiptReplacedEachTurnAndThePlanStaysAsApproved) {
    PlanTrack t = three_with_checks();
    set_checked(t, 1, failed_run(), std::string("needs \x1b[31mwork\x1b[0m"));
    record_edit(t, "a.py", "--- a/a.py\n+++ b/a.py\n@@ -1 +1,2 @@\n-x\n+y\n+z\n");
    t.commands.push_back({{"make", "test"}, "workspace-write", 0});
    record_usage(t, 1200, 80, "claude-x");
    t.head = "0123456789abcdef0123456789abcdef01234567";
    PlanReceipt r = receipt_of(t, false);
    EXPECT_FALSE(r.final) << "steps 2 and 3 are pending";
    r.approved = "2026-12-05T04:00:00Z (auto)";
    std::string md = receipt_markdown(r);
    EXPECT_TRUE(md.starts_with("## Receipt\n\n0/3 steps done (0 verified), 1 failed")) << md;
    EXPECT_NE(
        md.find("- [!] 1. Change it: `pytest -q` exit 3, 1.5 s, read-only (needs  [31mwork [0m)"),
        std::string::npos)
        << md;
    EXPECT_NE(md.find("- `a.py` +2 −1"), std::string::npos) << md;
    EXPECT_NE(md.find("- `make test` — workspace-write, exit 0"), std::string::npos) << md;
    EXPECT_NE(md.find("Git HEAD `0123456789ab`"), std::string::npos) << md;
    EXPECT_NE(md.find("1200 tokens in, 80 out; answered by `claude-x`."), std::string::npos) << md;
    EXPECT_EQ(md.find('\x1b'), std::string::npos);

    std::string file = render_plan_file("P", "- do it\n", {});
    std::string once = set_plan_receipt(file, md);
    std::string twice = set_plan_receipt(once, receipt_markdown(receipt_of(t, true)));
    PlanFileInfo info = parse_plan_file(twice);
    EXPECT_EQ(info.plan, parse_plan_file(file).plan) << "the plan stays as approved";
    EXPECT_TRUE(info.receipt.starts_with("## Receipt\n"));
    EXPECT_EQ(twice.find("## Receipt"), twice.rfind("## Receipt")) << "one receipt";
    EXPECT_EQ(info.receipt.find("so far"), std::string::npos) << "final: " << info.receipt;
    EXPECT_NE(once.find("so far"), std::string::npos) << "not final yet";
    // A plan's own "## Receipt" heading, without the front matter's mark, stays the plan's.
    std::string own = render_plan_file("P", "## Receipt\n\nkeep the receipt\n", {});
    EXPECT_EQ(parse_plan_file(own).receipt, "");
}

} // namespace
} // namespace rio
