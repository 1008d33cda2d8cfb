#!/usr/bin/env python3
"""rio-cli -p against a real rio-core with the script provider: every exit code of
DESIGN §11, plan mode files and changes nothing, approval flags, output formats, stdin,
NO_COLOR."""
import json
import os
import re
import shlex
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_support import (ANSI, GREET, HOSTILE, RIO_CLI, ROOT, FakeLlm, Pty,  # noqa: E402
                         Sandbox, check_escaped, edit_step, unix_request, plan_step, tool)


CLAUDE_KEYS = {
    "system": {"type", "subtype", "session_id", "model", "permissionMode", "tools"},
    "assistant": {"type", "message", "session_id", "parent_tool_use_id"},
    "user": {"type", "message", "session_id", "parent_tool_use_id"},
    "result": {"type", "subtype", "is_error", "num_turns", "duration_ms", "usage",
               "session_id", "result"},
}


def check_claude_shape(test, line):
    """The keys Claude Code's headless output has for each line type (DESIGN §14)."""
    test.assertIn(line.get("type"), CLAUDE_KEYS, line)
    test.assertLessEqual(CLAUDE_KEYS[line["type"]], set(line), line)
    if line["type"] in ("assistant", "user"):
        test.assertEqual(line["message"]["role"], line["type"])
        test.assertIsInstance(line["message"]["content"], list)


class Headless(unittest.TestCase):
    def sandbox(self, steps):
        box = Sandbox(steps)
        self.addCleanup(box.cleanup)
        return box

    def test_exit_0_when_the_task_is_done(self):
        box = self.sandbox([{"text": "All good."}])
        r = box.run("-p", "check it")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "All good.")

    def test_escapes_in_a_failed_summary_reach_stderr_shown_not_obeyed(self):
        # Issue 39, N: the first step reports a context nearly full, so the next one is
        # preceded by a summary request, which fails with the provider's words.
        box = self.sandbox([
            {"tools": [tool("read_file", path="greet.py")],
             "usage": {"input_tokens": 30000, "output_tokens": 1}},
            {"error": {"code": "server", "message": HOSTILE}},
            {"text": "Done."}])
        r = box.run("-p", "read it")
        self.assertIn("the summary request failed: \\e]0;PWNED", r.stderr)
        check_escaped(self, r.stderr)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_plan_mode_files_the_plan_prints_it_and_exits_2_changing_nothing(self):
        box = self.sandbox([{"tools": [tool("read_file", path="greet.py")]}, plan_step()])
        r = box.run("-p", "make it friendlier", "--mode", "plan")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("Plan — Friendlier greeting", r.stdout)
        self.assertEqual(len(box.plans()), 1)
        self.assertIn("Plan filed: .rio/plans/" + box.plans()[0], r.stdout)
        for raw in ("**", "|---", "| ---", "`greet.py`"):
            self.assertNotIn(raw, r.stdout, "the plan is rendered, not raw Markdown")
        self.assertEqual(box.read("greet.py"), GREET)
        with open(os.path.join(box.project, ".rio", "plans", box.plans()[0])) as f:
            # Nobody decided before the run ended (DESIGN §7).
            self.assertIn("status: abandoned", f.read())
        self.assertIn("• read_file greet.py", r.stderr)

    def test_the_task_may_follow_the_flags_as_with_claude_p(self):
        # `rio-cli -p --mode plan "task" DIR`: a bare -p, the task after the flags.
        box = self.sandbox([plan_step()])
        r = box.run("-p", "--mode", "plan", "make it friendlier")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("Plan — Friendlier greeting", r.stdout)
        self.assertEqual(box.calls()[0]["conversation"][0]["text"], "make it friendlier")
        self.assertEqual(box.read("greet.py"), GREET)

    def test_a_bare_p_without_a_task_reads_it_from_stdin(self):
        box = self.sandbox([{"text": "All good."}])
        r = subprocess.run([RIO_CLI, "--provider", "script:" + box.script, "-p", "--project",
                            box.project], input="check it\n", capture_output=True, text=True,
                           env=box.env, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(box.calls()[0]["conversation"][0]["text"], "check it\n")

    def test_two_folders_are_refused_by_name(self):
        box = self.sandbox([{"text": "no"}])
        r = box.run("-p", "task", "/tmp")
        self.assertEqual(r.returncode, 1)
        self.assertIn("one project folder, not 2", r.stderr)
        self.assertEqual(box.calls(), [])

    def test_leaving_a_core_it_did_not_start_leaves_the_plan_pending(self):
        # A person at the desktop may be watching this core: rio-cli -p --connect must not
        # stop their turn when it leaves.
        box = self.sandbox([plan_step()])
        core = box.listening_core()
        try:
            r = subprocess.run([RIO_CLI, "--connect", "unix:" + box.socket, "-p",
                                "make it friendlier", "--mode", "plan"],
                               env=box.env, capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 2, r.stderr)
            status = unix_request(box.socket, "agent.status")["result"]
            self.assertTrue(status["busy"])
            self.assertEqual(status["pending"]["kind"], "plan")
            with open(os.path.join(box.project, ".rio", "plans", box.plans()[0])) as f:
                self.assertIn("status: presented", f.read())
        finally:
            core.terminate()
            core.wait(timeout=10)
            core.stderr.close()

    def test_an_mcp_calls_progress_is_in_the_trace(self):
        # The odd MCP server (tests/e2e) sends two notifications/progress before its result;
        # rio-cli shows each under the call's line. The core is started first, so the
        # server is ready before the turn (rio-cli -p does not wait for servers).
        box = self.sandbox([{"tools": [tool("mcp__odd__probe")]}, {"text": "probed"}])
        odd = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "e2e",
                           "mcp_odd_server.py")
        with open(os.path.join(box.dir, "config", "rio", "mcp.json"), "w") as f:
            json.dump({"mcpServers": {"odd": {"command": sys.executable,
                                              "args": [odd, "client", box.dir],
                                              "rio": {"plan": True}}}}, f)
        box.trust()  # the user's servers start in trusted projects only (decision 0071)
        core = box.listening_core()
        try:
            while True:  # each look is a round trip to the core
                server = unix_request(box.socket, "mcp.list")["result"]["servers"][0]
                if server["state"] == "ready":
                    break
                self.assertEqual(server["state"], "starting", server)
            r = subprocess.run([RIO_CLI, "--connect", "unix:" + box.socket, "-p", "probe it"],
                               env=box.env, capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            lines = r.stderr.splitlines()
            self.assertIn("• mcp__odd__probe", lines, r.stderr)
            at = lines.index("• mcp__odd__probe")
            self.assertEqual(lines[at + 1:at + 3], ["  … 1 of 2 · step 1", "  … 2 of 2 · step 2"],
                             r.stderr)
        finally:
            core.terminate()
            core.wait(timeout=10)
            core.stderr.close()

    def test_a_connection_lost_mid_turn_is_an_error_in_every_json_format(self):
        # Issue 40 item 3: the core a --connect run is attached to dies while the model
        # answers. Each JSON format's last object says so with code connection_lost, in the
        # words text mode says, and how to go on; the session on disk keeps the task.
        box = self.sandbox([])
        formats = {"json": ["--output", "json"], "events": ["--output", "events"],
                   "stream-json": ["--output-format", "stream-json"],
                   "text": []}
        for name, flags in formats.items():
            with self.subTest(output=name):
                box.rescript([{"text": "Slow.", "delay_ms": 60000}])
                core = box.listening_core()
                self.addCleanup(lambda core=core: (core.kill(), core.wait(), core.stderr.close()))
                before = len(box.calls())
                run = subprocess.Popen([RIO_CLI, "--connect", "unix:" + box.socket, "-p",
                                        "take your time", *flags], env=box.env,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                sessions = os.path.join(box.dir, "state", "rio", "sessions")

                def saved():  # sessions on disk that hold the task
                    found = 0
                    for entry in os.listdir(sessions) if os.path.isdir(sessions) else []:
                        with open(os.path.join(sessions, entry)) as f:
                            found += "take your time" in f.read()
                    return found
                held = saved()
                deadline = time.time() + 30
                # Mid-turn: the model is answering, and the core has saved the task (it writes
                # the session right after it asks the model, on another thread than the call).
                while len(box.calls()) == before or saved() == held:
                    self.assertLess(time.time(), deadline, "the model was never called")
                    time.sleep(0.01)
                core.kill()
                out, err = run.communicate(timeout=60)
                self.assertEqual(run.returncode, 1, err)
                words = (r"the core closed the connection; the conversation so far is saved in "
                         r"session (\S+); pick it up with: rio-cli --resume \1 (.*)")
                if name == "text":
                    m = re.search("^rio-cli: " + words.replace("; the", "\nrio-cli: the", 1) +
                                  "$", err, re.M)
                else:
                    last = json.loads(out.splitlines()[-1])
                    if name == "events":
                        self.assertEqual(last["event"], "agent.error", last)
                        error = last["params"]
                    else:
                        error = last["error"]
                    if name == "stream-json":
                        self.assertEqual(last["type"], "result")
                        self.assertTrue(last["is_error"])
                    self.assertEqual(error["code"], "connection_lost", last)
                    m = re.fullmatch(words, error["message"])
                    self.assertIn("rio-cli: " + error["message"].split("; the")[0], err)
                self.assertIsNotNone(m, out + err)
                self.assertEqual(shlex.split(m.group(2)), [os.path.realpath(box.project)])
                with open(os.path.join(box.dir, "state", "rio", "sessions",
                                       m.group(1) + ".jsonl")) as f:
                    self.assertIn("take your time", f.read())

    def test_connect_over_tcp_reads_the_token_rio_core_left(self):
        box = self.sandbox([{"text": "Hello over TCP."}])
        core = box.listening_core("127.0.0.1:0")
        try:
            address = box.listening.split("listening on ")[1].split(" ")[0]
            r = subprocess.run([RIO_CLI, "--connect", address, "-p", "hi"], env=box.env,
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout.strip(), "Hello over TCP.")
            wrong = subprocess.run([RIO_CLI, "--connect", address, "--token", "0" * 64, "-p",
                                    "hi"], env=box.env, capture_output=True, text=True, timeout=60)
            self.assertEqual(wrong.returncode, 1)
            elsewhere = {**box.env, "XDG_RUNTIME_DIR": os.path.join(box.dir, "other")}
            lost = subprocess.run([RIO_CLI, "--connect", address, "-p", "hi"], env=elsewhere,
                                  capture_output=True, text=True, timeout=60)
            self.assertEqual(lost.returncode, 1)
            self.assertIn("needs its token", lost.stderr)
        finally:
            core.terminate()
            core.wait(timeout=10)
            core.stderr.close()

    def test_a_cloned_projects_allow_list_never_applies_without_trust_project(self):
        # Hole 1 of the trust issue: a repository whose .rio/allow holds `sh` ran `sh -c`
        # unasked, in -p without --allow-commands too.
        # In out/: under the sandbox's workspace-write the project's top level takes no new files.
        steps = [{"tools": [tool("run_command", argv=["sh", "-c", "touch out/pwned"])]},
                 {"text": "done"}]
        box = self.sandbox(steps)
        os.makedirs(os.path.join(box.project, "out"))
        os.makedirs(os.path.join(box.project, ".rio"))
        with open(os.path.join(box.project, ".rio", "allow"), "w") as f:
            f.write("sh\n")
        r = box.run("-p", "do it")
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertFalse(os.path.exists(os.path.join(box.project, "out", "pwned")))
        self.assertIn("not trusted", r.stderr)
        trusted = self.sandbox(steps)
        os.makedirs(os.path.join(trusted.project, "out"))
        os.makedirs(os.path.join(trusted.project, ".rio"))
        with open(os.path.join(trusted.project, ".rio", "allow"), "w") as f:
            f.write("sh\n")
        r = trusted.run("-p", "do it", "--trust-project")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.exists(os.path.join(trusted.project, "out", "pwned")))

    def test_approve_plans_auto_carries_the_plan_out(self):
        box = self.sandbox([plan_step(), edit_step(), {"text": "Done."}])
        r = box.run("-p", "make it friendlier", "--mode", "plan", "--approve-plans", "auto")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Hi, {name}", box.read("greet.py"))
        # Every call lists every tool (decision 0053): the edit that made "Hi, {name}" ran
        # because approving the plan let the gate allow it.
        self.assertEqual(box.calls()[0]["tools"], box.calls()[1]["tools"])

    def test_approve_plans_review_without_approve_edits_rejects_the_edit_exit_3(self):
        box = self.sandbox([plan_step(), edit_step(), {"text": "I could not edit."}])
        r = box.run("-p", "make it friendlier", "--mode", "plan", "--approve-plans", "review")
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertEqual(box.read("greet.py"), GREET)
        self.assertIn("rejected the edit of greet.py", r.stderr)
        seen = box.calls()[2]["conversation"][-1]["results"][0]
        self.assertFalse(seen["ok"])
        self.assertIn("non-interactive", seen["content"])

    def test_approve_edits_applies_reviewed_edits(self):
        box = self.sandbox([plan_step(), edit_step(), {"text": "Done."}])
        r = box.run("-p", "x", "--mode", "plan", "--approve-plans", "review", "--approve-edits")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Hi, {name}", box.read("greet.py"))

    def test_approve_plans_never_rejects_the_plan_exit_3(self):
        box = self.sandbox([plan_step(), {"text": "Understood."}])
        r = box.run("-p", "x", "--mode", "plan", "--approve-plans", "never")
        self.assertEqual(r.returncode, 3, r.stderr)
        with open(os.path.join(box.project, ".rio", "plans", box.plans()[0])) as f:
            self.assertIn("status: rejected", f.read())

    def test_a_write_attempt_in_plan_mode_is_refused(self):
        box = self.sandbox([edit_step(), {"text": "Sorry."}])
        r = box.run("-p", "x", "--mode", "plan", "--approve-edits")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(box.read("greet.py"), GREET)
        self.assertIn("not available in plan mode", r.stderr)

    def test_commands_need_allow_commands(self):
        steps = [{"tools": [tool("run_command", argv=["touch", "out/made"])]}, {"text": "ok"}]
        box = self.sandbox(steps)
        os.makedirs(os.path.join(box.project, "out"))
        self.assertEqual(box.run("-p", "x").returncode, 3)
        self.assertFalse(os.path.exists(os.path.join(box.project, "out", "made")))
        box2 = self.sandbox(steps)
        os.makedirs(os.path.join(box2.project, "out"))
        self.assertEqual(box2.run("-p", "x", "--allow-commands").returncode, 0)
        self.assertTrue(os.path.exists(os.path.join(box2.project, "out", "made")))

    def test_a_provider_error_exits_4(self):
        box = self.sandbox([{"error": {"code": "rate_limit", "message": "slow down"}}])
        r = box.run("-p", "x")
        self.assertEqual(r.returncode, 4)
        self.assertIn("rate_limit: slow down", r.stderr)

    def test_control_characters_in_replies_and_errors_are_shown_not_sent(self):
        # Issue 26, break B: reply text and provider errors reached the terminal raw in -p.
        box = self.sandbox([{"text": "Done \x1b]0;owned\x07 now\x1b[2K",
                             "tools": [tool("read_file", path="greet\x1b[1A.py")]},
                            {"error": {"code": "server", "message": "bad \x1b[31mred\x1b[0m gone"}}])
        r = box.run("-p", "x")
        self.assertEqual(r.returncode, 4, r.stderr)
        for out in (r.stdout, r.stderr):
            self.assertNotIn("\x1b", out)
            self.assertNotIn("\x07", out)
        self.assertIn("Done \\e]0;owned^G now\\e[2K", r.stdout)
        self.assertIn("read_file greet\\e[1A.py", r.stderr)
        self.assertIn("bad \\e[31mred\\e[0m gone", r.stderr)

    def test_anything_else_exits_1(self):
        box = self.sandbox([])
        unknown = subprocess.run([RIO_CLI, "-p", "x", "--provider", "nonsense", box.project],
                                 capture_output=True, text=True, env=box.env, timeout=30)
        self.assertEqual(unknown.returncode, 1)
        self.assertIn("unknown provider 'nonsense'", unknown.stderr)
        self.assertEqual(box.run("-p", "x", "--mode", "sideways").returncode, 1)
        self.assertEqual(box.run("--connect", "unix:/nonexistent/sock", "-p", "x").returncode, 1)
        self.assertEqual(box.run(stdin="").returncode, 1, "no task at all")

    def test_output_events_is_rios_event_stream_one_json_per_line(self):
        box = self.sandbox([{"text": "Hello there.", "tools": [tool("list_dir", path=".")]},
                            {"text": "Done."}])
        r = box.run("-p", "x", "--output", "events")
        self.assertEqual(r.returncode, 0, r.stderr)
        events = [json.loads(line) for line in r.stdout.splitlines()]
        names = [e["event"] for e in events]
        self.assertIn("agent.delta", names)
        self.assertIn("agent.tool_result", names)
        self.assertEqual(names[-1], "agent.done")

    def test_json_output_is_one_object(self):
        box = self.sandbox([{"text": "The answer."}])
        r = box.run("-p", "x", "--output", "json")
        result = json.loads(r.stdout)
        self.assertEqual(result["exit_code"], 0)
        self.assertEqual(result["result"], "The answer.")
        self.assertRegex(result["session_id"], r"^\d{8}-\d{6}-[0-9a-f]{4}$")

    def test_stream_json_has_claude_codes_line_shapes(self):
        box = self.sandbox([{"text": "Looking.", "tools": [tool("list_dir", path=".")]},
                            {"text": "Done."}])
        r = box.run("-p", "x", "--output-format", "stream-json", "--approve-edits")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [json.loads(line) for line in r.stdout.splitlines()]
        for line in lines:
            check_claude_shape(self, line)
        init, result = lines[0], lines[-1]
        self.assertEqual((init["type"], init["subtype"]), ("system", "init"))
        self.assertEqual(init["permissionMode"], "acceptEdits")
        self.assertIn("read_file", init["tools"])
        self.assertEqual(result["type"], "result")
        self.assertEqual(result["subtype"], "success")
        self.assertFalse(result["is_error"])
        self.assertEqual(result["num_turns"], 2)
        self.assertEqual(result["result"], "Done.")
        self.assertIsInstance(result["usage"]["input_tokens"], int)
        # rio's own beside Claude Code's: how full the window is (estimated: the script
        # provider counts nothing; its model is unknown, so 32,768 tokens).
        self.assertEqual(result["context"]["window"], 32768)
        self.assertGreater(result["context"]["used"], 0)
        self.assertTrue(result["context"]["estimated"])
        self.assertTrue(all(line["session_id"] == init["session_id"] for line in lines))
        kinds = [(line["type"], block["type"]) for line in lines[1:-1]
                 for block in line["message"]["content"]]
        self.assertEqual(kinds, [("assistant", "text"), ("assistant", "tool_use"),
                                 ("user", "tool_result"), ("assistant", "text")])
        use = lines[2]["message"]["content"][0]
        self.assertEqual(lines[3]["message"]["content"][0]["tool_use_id"], use["id"])
        self.assertEqual(use["name"], "list_dir")

    def test_output_format_json_is_claude_codes_result_object(self):
        box = self.sandbox([plan_step()])
        r = box.run("-p", "x", "--mode", "plan", "--output-format", "json")
        self.assertEqual(r.returncode, 2, r.stderr)
        result = json.loads(r.stdout)
        check_claude_shape(self, result)
        self.assertEqual(result["type"], "result")
        self.assertEqual(result["exit_code"], 2)
        self.assertEqual(result["plan"]["kind"], "plan")
        self.assertIn("greet", result["result"])

    def test_a_filed_plan_is_carried_out_later_with_resume_without_planning_again(self):
        box = self.sandbox([plan_step()])
        first = box.run("-p", "--mode", "plan", "make it friendlier")
        self.assertEqual(first.returncode, 2, first.stderr)
        m = re.search(r"session (\S+); carry it out with: rio-cli -p --resume (\S+) "
                      r"--approve-plans auto", first.stderr)
        self.assertIsNotNone(m, first.stderr)
        self.assertEqual(m.group(1), m.group(2))
        box.rescript([edit_step(), {"text": "Done."}])
        # A comment left open on the plan meanwhile (issue 44): --approve-plans auto approves
        # it all the same and says so.
        plan = os.path.join(box.project, ".rio", "plans", box.plans()[0])
        with open(plan[:-3] + ".comments.json", "w") as f:
            json.dump({"comments": [{"id": "c1", "quote": "Edit it", "text": "why?",
                                     "author": "person", "replies": [], "state": "open"}]}, f)
        # As typed after the hint: no task, the project by --project (a folder after a bare
        # -p would be taken for the task).
        second = subprocess.run([RIO_CLI, "--provider", "script:" + box.script, "-p", "--resume",
                                 m.group(1), "--approve-plans", "auto", "--project", box.project],
                                input="", capture_output=True, text=True, env=box.env, timeout=60)
        self.assertEqual(second.returncode, 0, second.stderr)
        self.assertIn("resumed session " + m.group(1), second.stderr)
        self.assertIn("(auto) with 1 comment still open", second.stderr)
        self.assertNotEqual(box.read("greet.py"), GREET)
        calls = box.calls()
        self.assertEqual(len(calls), 3, "one planning call, then the edit and the answer")
        approved = calls[1]["conversation"][-1]["results"][0]
        self.assertTrue(approved["ok"])
        self.assertIn("approved", approved["content"])
        with open(plan) as f:
            text = f.read()
        self.assertIn("status: approved", text)
        self.assertIn("open_comments: 1\n", text)

    def test_continue_goes_on_with_the_latest_conversation_of_the_project(self):
        box = self.sandbox([{"text": "First answer."}])
        self.assertEqual(box.run("-p", "remember the word teapot").returncode, 0)
        box.rescript([{"text": "Second answer."}])
        r = box.run("-p", "--continue", "what was the word?")
        self.assertEqual(r.returncode, 0, r.stderr)
        sent = box.calls()[-1]["conversation"]
        self.assertEqual([m["text"] for m in sent],
                         ["remember the word teapot", "First answer.", "what was the word?"])

    def test_resume_without_a_task_needs_something_waiting(self):
        box = self.sandbox([{"text": "Done."}])
        first = box.run("-p", "x", "--output", "json")
        session = json.loads(first.stdout)["session_id"]
        r = subprocess.run([RIO_CLI, "--provider", "script:" + box.script, "-p", "--resume",
                            session, "--project", box.project], input="", capture_output=True,
                           text=True, env=box.env, timeout=60)
        self.assertEqual(r.returncode, 1)
        self.assertIn("session " + session + " has nothing waiting for a decision; give a task",
                      r.stderr)
        self.assertEqual(len(box.calls()), 1)

    def test_resume_of_an_unknown_session_says_so(self):
        box = self.sandbox([{"text": "no"}])
        r = box.run("-p", "--resume", "nosuch-1", "x")
        self.assertEqual(r.returncode, 1)
        self.assertIn("no session nosuch-1", r.stderr)
        r = box.run("-p", "--continue", "x")
        self.assertEqual(r.returncode, 1)
        self.assertIn("no earlier conversation in this project", r.stderr)
        self.assertEqual(box.calls(), [])

    def test_the_task_can_come_on_stdin(self):
        box = self.sandbox([{"text": "Got it."}])
        r = box.run(stdin="summarise the project\n")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(box.calls()[0]["conversation"][0]["text"], "summarise the project\n")

    def test_colour_only_on_a_terminal_and_never_with_no_color(self):
        box = self.sandbox([plan_step(), plan_step()])
        piped = box.run("-p", "x", "--mode", "plan")
        self.assertNotIn("\x1b[", piped.stdout, "no colour into a pipe")
        term = Pty(box.args("-p", "x", "--mode", "plan"), box.env)
        self.addCleanup(term.close)
        term.expect("Plan filed")
        self.assertIn("\x1b[", term.seen, "colour on a terminal")
        plain = Pty(box.args("-p", "x", "--mode", "plan"), {**box.env, "NO_COLOR": "1"})
        self.addCleanup(plain.close)
        plain.expect("Plan filed")
        self.assertNotIn("\x1b[", plain.seen)
        self.assertEqual(ANSI.sub("", plain.seen), plain.seen)

    def test_echo_standing_in_for_a_model_fails_and_says_how_to_connect_one(self):
        box = self.sandbox([])
        r = subprocess.run([RIO_CLI, "-p", "hello", box.project], capture_output=True,
                           text=True, env=box.env, timeout=60)
        self.assertEqual(r.returncode, 4, r.stderr)
        self.assertEqual(r.stdout, "", "no echoed answer passes for a result")
        for words in ("no model is connected", "ANTHROPIC_API_KEY or OPENAI_API_KEY",
                      "Settings ▸ Providers", "/key", "--provider echo"):
            self.assertIn(words, r.stderr)
        stream = subprocess.run([RIO_CLI, "-p", "hello", "--output-format", "stream-json",
                                 box.project], capture_output=True, text=True, env=box.env,
                                timeout=60)
        self.assertEqual(stream.returncode, 4)
        result = json.loads(stream.stdout.splitlines()[-1])
        self.assertTrue(result["is_error"])
        self.assertEqual(result["error"]["code"], "not_configured")
        named = subprocess.run([RIO_CLI, "-p", "hello", "--provider", "echo", box.project],
                               capture_output=True, text=True, env=box.env, timeout=60)
        self.assertEqual((named.returncode, named.stdout.strip()), (0, "You said: hello"))
        with open(os.path.join(box.dir, "config", "rio", "config.json"), "w") as f:
            json.dump({"default_mode": "build", "provider": "echo"}, f)
        configured = subprocess.run([RIO_CLI, "-p", "hello", box.project], capture_output=True,
                                    text=True, env=box.env, timeout=60)
        self.assertEqual(configured.returncode, 0, configured.stderr)

    def test_a_commands_output_is_in_the_text_log_and_the_tool_result(self):
        program = ("import sys; print('first out'); sys.stdout.flush(); "
                   "print('\\x1b[31msecond err\\x1b[0m', file=sys.stderr); sys.exit(1)")
        steps = [{"tools": [tool("run_command", argv=["python3", "-c", program])]},
                 {"text": "It failed."}]
        box = self.sandbox(steps)
        r = box.run("-p", "x", "--allow-commands")
        self.assertEqual(r.returncode, 0, r.stderr)
        log = r.stderr
        self.assertIn("  │ first out\n  │ second err\n  ✗ [exit code 1", log,
                      "the output, colours stripped, above the exit line")
        box = self.sandbox(steps)
        r = box.run("-p", "x", "--allow-commands", "--output-format", "stream-json")
        lines = [json.loads(line) for line in r.stdout.splitlines()]
        results = [block for line in lines if line["type"] == "user"
                   for block in line["message"]["content"]]
        self.assertIn("first out", results[0]["content"])
        self.assertIn("second err", results[0]["content"])
        self.assertTrue(results[0]["is_error"])

    def test_the_plans_progress_is_in_the_event_stream_and_on_stderr(self):
        steps = [plan_step(), {"tools": [tool("plan_progress", step=1, status="done")]},
                 {"text": "Done."}]
        box = self.sandbox(steps)
        r = box.run("-p", "x", "--mode", "plan", "--approve-plans", "auto", "--output", "events")
        self.assertEqual(r.returncode, 0, r.stderr)
        events = [json.loads(line) for line in r.stdout.splitlines()]
        progress = [e["params"] for e in events if e["event"] == "plans.progress"]
        self.assertEqual([[s["status"] for s in p["steps"]] for p in progress],
                         [["pending", "pending"], ["done", "pending"]])
        self.assertEqual(progress[0]["steps"][0]["text"], "Edit it")
        text = self.sandbox(steps).run("-p", "x", "--mode", "plan", "--approve-plans", "auto")
        self.assertEqual(text.returncode, 0, text.stderr)
        self.assertIn("plan 1/2 ▸ Run the tests", ANSI.sub("", text.stderr))

    def test_exit_10_when_a_declared_step_failed_its_check_or_stayed_unverified(self):
        # Issue 43: done means verified. The work finished; a declared check did not pass.
        def run(first_check, second):
            steps = [{"text": "Fix it", "check": {"argv": first_check}}, second]
            script = [{"tools": [tool("present_plan", title="Checked", plan="- fix it\n",
                                      steps=steps)]},
                      {"tools": [tool("plan_progress", step=1, status="done")]},
                      {"tools": [tool("plan_progress", step=2, status="done")]},
                      {"text": "Done."}]
            return self.sandbox(script).run("-p", "x", "--mode", "plan", "--approve-plans",
                                            "auto")
        failed = run(["sh", "-c", "exit 3"], {"text": "Say so"})
        self.assertEqual(failed.returncode, 10, failed.stderr)
        err = ANSI.sub("", failed.stderr)
        self.assertIn("not every declared step is verified (exit 10)", err)
        self.assertIn("[!] 1. Fix it (check failed: sh -c 'exit 3', exit 3", err)
        self.assertIn("[x] 2. Say so (unverified)", err)
        self.assertIn("Receipt", err)
        self.assertIn("1/2 steps done (0 verified), 1 failed", err)
        # Who approved it and where: here the flag, in the headless run.
        self.assertRegex(err, r"Approved \d{4}-\d\d-\d\dT[0-9:]+Z \(auto\) in rio-cli -p "
                              r"--approve-plans auto\.")
        unverified = run(["true"], {"text": "Say so"})
        self.assertEqual(unverified.returncode, 10, unverified.stderr)
        verified = run(["true"], {"text": "Say so", "check": {"argv": ["sh", "-c", "echo ok"]}})
        self.assertEqual(verified.returncode, 0, verified.stderr)
        self.assertNotIn("exit 10", verified.stderr)

    def test_files_changed_outside_the_plan_are_warned_about(self):
        steps = [plan_step(), {"tools": [tool("create_file", path="extra.py", content="x = 1\n")]},
                 edit_step(), {"text": "Done."}]
        box = self.sandbox(steps)
        r = box.run("-p", "x", "--mode", "plan", "--approve-plans", "auto")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("warning: Changed but not named in the plan: extra.py", r.stderr)

    def test_mcp_servers_are_ready_for_the_first_request_and_listed_in_init(self):
        box = self.sandbox([{"text": "ok"}])
        server = os.path.join(ROOT, "tests", "e2e", "mcp_odd_server.py")
        with open(os.path.join(box.dir, "config", "rio", "mcp.json"), "w") as f:
            json.dump({"mcpServers": {"odd": {"command": "python3", "args": [server, "slow"]}}}, f)
        box.trust()
        r = box.run("-p", "x", "--output-format", "stream-json")
        self.assertEqual(r.returncode, 0, r.stderr)
        init = json.loads(r.stdout.splitlines()[0])
        self.assertEqual(init["mcp_servers"], [{"name": "odd", "status": "connected"}])
        self.assertIn("mcp__odd__probe", init["tools"])
        self.assertIn("mcp__odd__probe", box.calls()[0]["tools"], "offered from the first call")

    def test_api_key_source_says_where_the_key_came_from(self):
        box = self.sandbox([])
        fake = FakeLlm(box.dir, responses=[{"text": "one"}, {"text": "two"}])
        self.addCleanup(fake.stop)

        def init(env):
            r = subprocess.run([RIO_CLI, "-p", "x", "--provider", "anthropic", "--output-format",
                                "stream-json", box.project], capture_output=True, text=True,
                               env={**box.env, "ANTHROPIC_BASE_URL": fake.url, **env},
                               timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            return json.loads(r.stdout.splitlines()[0])["apiKeySource"]

        self.assertEqual(init({"ANTHROPIC_API_KEY": "sk-env-1"}), "ANTHROPIC_API_KEY")
        secrets = os.path.join(box.dir, "data", "rio", "secrets")
        os.makedirs(secrets, mode=0o700)
        with open(os.path.join(secrets, "anthropic"), "w") as f:
            f.write("sk-file-2\n")
        os.chmod(os.path.join(secrets, "anthropic"), 0o600)
        self.assertEqual(init({}), "file")

    def test_a_base_url_ending_in_v1_reaches_both_wires(self):
        box = self.sandbox([])
        fake = FakeLlm(box.dir, responses=[{"text": "anthropic answered"},
                                           {"text": "openai answered"}])
        self.addCleanup(fake.stop)
        for provider, env, answer in (
                ("anthropic", {"ANTHROPIC_BASE_URL": fake.url + "/v1/", "ANTHROPIC_API_KEY": "k"},
                 "anthropic answered"),
                ("openai", {"OPENAI_BASE_URL": fake.url + "/v1", "OPENAI_API_KEY": "k"},
                 "openai answered")):
            r = subprocess.run([RIO_CLI, "-p", "x", "--provider", provider, box.project],
                               capture_output=True, text=True, env={**box.env, **env}, timeout=60)
            self.assertEqual((r.returncode, r.stdout.strip()), (0, answer), r.stderr)


    def write_command(self, box, name, text, scope="project"):
        folder = (os.path.join(box.project, ".rio", "commands") if scope == "project"
                  else os.path.join(box.dir, "config", "rio", "commands"))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name + ".md"), "w") as f:
            f.write(text)

    def test_a_projects_command_reaches_the_model_with_its_arguments(self):
        # Issue 48: /shout-it x from .rio/commands/shout-it.md is the substituted text.
        box = self.sandbox([{"text": "Shouted."}])
        self.write_command(box, "shout-it", "---\ndescription: shout\nmode: plan\n---\n"
                                            "Make $1 shout; all of it: $ARGUMENTS.\n")
        r = box.run("-p", "/shout-it greet.py \"very loud\"")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "Shouted.")
        sent = box.calls()[0]["conversation"][0]["text"]
        self.assertEqual(sent, 'Make greet.py shout; all of it: greet.py "very loud".')
        self.assertIn("plan", box.calls()[0].get("notes", ""), "mode: plan forced plan mode")

    def test_an_unknown_command_is_an_error_naming_those_there_are(self):
        box = self.sandbox([{"text": "never asked"}])
        self.write_command(box, "mine", "Do my thing.", scope="user")
        r = box.run("-p", "/nosuch thing")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("there is no command /nosuch; there are: /mine", r.stderr)
        self.assertEqual(box.calls(), [], "nothing was sent to the model")
        r = box.run("-p", "/tmp/x is empty, why?")  # a path, not a command: sent as written
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(box.calls()[0]["conversation"][0]["text"], "/tmp/x is empty, why?")

    def test_a_subagents_steps_are_indented_under_its_task_call(self):
        box = self.sandbox([
            {"tools": [tool("task", description="find greet", prompt="Where is the greeting?")]},
            {"tools": [tool("search", pattern="Hello")]},
            {"text": "greet.py line 2"},
            {"text": "It is in greet.py."}])
        r = box.run("-p", "where?")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "It is in greet.py.")
        lines = r.stderr.splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("• task"))
        self.assertEqual(lines[at + 1:at + 4],
                         ["    ↳ find greet: started", '    ↳ find greet: search "Hello"',
                          "    ↳ find greet: answered: greet.py line 2"], r.stderr)
        r = box.run("-p", "--output-format", "stream-json", "where?")
        self.assertEqual(r.returncode, 0, r.stderr)
        shapes = [json.loads(line) for line in r.stdout.splitlines()]
        task = next(s for s in shapes if s["type"] == "assistant" and
                    s["message"]["content"][0].get("name") == "task")
        parent = task["message"]["content"][0]["id"]
        nested = [s for s in shapes if s.get("parent_tool_use_id") == parent]
        self.assertEqual([s["type"] for s in nested], ["assistant", "user", "assistant"],
                         "Claude Code's shapes for a Task: the subagent's call, result, answer")
        self.assertEqual(nested[0]["message"]["content"][0]["name"], "search")

if __name__ == "__main__":
    unittest.main()
