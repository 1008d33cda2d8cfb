#!/usr/bin/env python3
"""rio-cli's interactive session on a pseudo-terminal, against a real rio-core with the
script provider: a plan is rendered (no raw Markdown), approve-auto continues the same
turn, a rejection's reason reaches the model, Ctrl+C stops a turn, slash commands."""
import json
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_support import (ANSI, GREET, HOSTILE, RIO_CLI, FakeLlm, Pty, Sandbox,  # noqa: E402
                         check_escaped, edit_step, plan_step, tool, unix_request)

WORDS = ("alpha bravo charlie delta foxtrot hotel juliet kilo november oscar quebec romeo "
         "sierra tango uniform victor whiskey xray yankee zulu").split()


def screen_lines(raw):
    """The screen's lines as they end up: ANSI gone, and of a line rewritten after a carriage
    return (the busy line, erased and replaced) only what was written last."""
    return [line.rstrip("\r").split("\r")[-1] for line in ANSI.sub("", raw).split("\n")]


def pieces(text, sizes):
    """`text` cut into pieces of the given sizes, in turn, so that words are split."""
    out, at, i = [], 0, 0
    while at < len(text):
        out.append(text[at:at + sizes[i % len(sizes)]])
        at += sizes[i % len(sizes)]
        i += 1
    return out


class Interactive(unittest.TestCase):
    def session(self, steps):
        box = Sandbox(steps)
        self.addCleanup(box.cleanup)
        term = Pty(box.args(), box.env)
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        return box, term

    def test_a_plan_is_rendered_and_approve_auto_continues_the_same_turn(self):
        box, term = self.session([plan_step(), edit_step(), {"text": "Done, it says Hi now."}])
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("make it friendlier\r")
        screen = term.expect(r"\[A\] approve, auto-accept edits")
        plan = ANSI.sub("", screen[screen.index("Plan — "):])
        self.assertIn("Friendlier greeting", plan)
        for raw in ("**", "|---", "| ---", "`greet.py`", "## "):
            self.assertNotIn(raw, plan, "rendered, not raw Markdown")
        self.assertIn("┌", plan, "the table is drawn with box characters")
        term.send("A")
        term.expect("Done, it says Hi now.")
        term.expect("auto ❯ ")
        self.assertIn("Hi, {name}", box.read("greet.py"))
        calls = box.calls()
        self.assertEqual(len(calls), 3, "one turn: plan, edit, answer")
        self.assertIn("edit_file", calls[1]["tools"])

    def test_the_plans_progress_is_one_line_as_it_changes_and_steps_lists_it(self):
        long_step = ("Update README.md with the new flag, its default, an example of each way "
                     "to call it and a note on what changed since the last release")
        steps_plan = "1. Edit greet.py\n2. Test it\n3. " + long_step + "\n"
        box, term = self.session([
            plan_step("Shout", steps_plan),
            {"tools": [tool("plan_progress", step=1, status="in_progress"),
                       tool("plan_progress", step=1, status="done"),
                       tool("create_file", path="notes.txt", content="x\n"),
                       tool("plan_progress", step=3, status="skipped", note="no README")]},
            {"text": "All done."}])
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("shout\r")
        term.expect(r"\[A\] approve, auto-accept edits")
        term.send("A")
        term.expect("All done.")
        screen = term.expect("auto ❯ ")
        lines = [l for l in screen_lines(screen) if l.startswith("plan ") and "▸" in l]
        self.assertEqual(lines, ["plan 0/3 ▸ Edit greet.py", "plan 1/3 ▸ Test it"],
                         "one line, only when it changes")
        self.assertIn("outside the plan: notes.txt", ANSI.sub("", screen))
        self.assertIn("(plan: 1/3 done, 1 skipped · 1 file outside the plan", ANSI.sub("", screen))
        term.send("/steps\r")
        listed = term.expect("auto ❯ ")
        self.assertIn("[x] 1. Edit greet.py", ANSI.sub("", listed))
        self.assertIn("[ ] 2. Test it", ANSI.sub("", listed))
        # Issue 46: a step longer than the terminal is filled between words, not cut.
        shown = screen_lines(listed)
        first = next(i for i, line in enumerate(shown) if line.startswith("[-] 3."))
        step_lines = [shown[first]]
        for line in shown[first + 1:]:
            if not line.strip() or line.startswith("(") or line.startswith("["):
                break
            step_lines.append(line)
        self.assertGreater(len(step_lines), 1, listed)
        for line in step_lines:
            self.assertLessEqual(len(line.rstrip()), 100, line)
        self.assertIn("[-] 3. " + long_step + " — no README", " ".join(
            line.strip() for line in step_lines))

    def test_status_shows_the_context_and_compact_shows_one_line(self):
        long_answer = "Hello there. " + " ".join(WORDS * 20)  # worth summarizing
        box, term = self.session([{"text": long_answer}, {"text": "Said hello."}])
        term.send("say hello\r")
        # The line under the turn: the context, estimated (the script provider counts none).
        term.expect(r"context ≈[0-9.,k]+ / 32\.8k tokens \(\d+%\)")
        term.expect("review ❯ ")
        term.send("/status\r")
        term.expect(r"context: ≈[0-9.,k]+ / 32\.8k tokens")
        # How commands run here (issue 42): the sandbox, the top level, TMPDIR and the limits.
        term.expect(r"sandbox: Landlock ABI \d+, seccomp")
        term.expect(r"top level: a build command may (create entries there; \.git/ and \.rio/ "
                    r"are bound read-only|write only what already exists there \(.+\))")
        term.expect(r"TMPDIR: ")
        term.expect(r"memory: [0-9.]+ [GM]iB .*; sandbox\.memory in config\.json")
        term.expect(r"processes: \d+ at once")
        term.expect("review ❯ ")
        term.send("/compact keep the greeting\r")
        term.expect(r"Context compacted: [0-9.,k]+ → [0-9.,k]+ tokens \(older turns summarized\)")
        term.expect("review ❯ ")
        calls = box.calls()
        self.assertEqual(calls[-1]["tools"], [], "the summary request offers no tools")
        self.assertIn("keep the greeting", json.dumps(calls[-1]))

    def test_escapes_in_a_failed_summary_are_shown_not_obeyed(self):
        # Issue 39, N: the provider's words reach the compaction note.
        long_answer = "Hello there. " + " ".join(WORDS * 20)
        box, term = self.session([{"text": long_answer},
                                  {"error": {"code": "server", "message": HOSTILE}}])
        term.send("say hello\r")
        term.expect("review ❯ ")
        term.send("/compact\r")
        term.expect(r"the summary request failed: \\e\]0;PWNED")
        term.expect("review ❯ ")
        check_escaped(self, term.seen)

    def test_escapes_in_a_model_name_are_shown_not_obeyed(self):
        # Issue 39, O: the name comes from whatever answers on the provider's port.
        box = Sandbox([])
        self.addCleanup(box.cleanup)
        fake = FakeLlm(box.dir, models=[HOSTILE + " model"])
        self.addCleanup(fake.stop)
        term = Pty([RIO_CLI, "--provider", "anthropic", box.project],
                   {**box.env, "ANTHROPIC_BASE_URL": fake.url})
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("/model\r")
        term.expect("Use which")
        term.send("1\r")
        term.expect("review ❯ ")
        term.send("/status\r")
        term.expect(r"anthropic · \\e\]0;PWNED")
        term.expect("review ❯ ")
        check_escaped(self, term.seen)

    def test_a_project_allow_list_applies_only_once_trusted_here(self):
        # In out/: under the sandbox's workspace-write the project's top level takes no new files.
        box = Sandbox([{"tools": [tool("run_command", argv=["sh", "-c", "touch out/ran"])]},
                       {"text": "ran it"}])
        self.addCleanup(box.cleanup)
        os.makedirs(os.path.join(box.project, "out"))
        os.makedirs(os.path.join(box.project, ".rio"))
        with open(os.path.join(box.project, ".rio", "allow"), "w") as f:
            f.write("sh\n")
        term = Pty(box.args(), box.env)
        self.addCleanup(term.close)
        term.expect(r"\.rio/allow would let the agent run `sh` without asking")
        term.expect(r"Trust this project\? \[y/N\] ")
        term.send("y\r")
        term.expect("Trusted as it is now")
        term.send("run it\r")
        term.expect("ran it")
        self.assertTrue(os.path.exists(os.path.join(box.project, "out", "ran")),
                        "ran without asking")

    def test_an_untrusted_allow_list_makes_commands_wait(self):
        box = Sandbox([{"tools": [tool("run_command", argv=["sh", "-c", "touch ran"])]},
                       {"text": "ok"}])
        self.addCleanup(box.cleanup)
        os.makedirs(os.path.join(box.project, ".rio"))
        with open(os.path.join(box.project, ".rio", "allow"), "w") as f:
            f.write("sh\n")
        term = Pty(box.args(), box.env)
        self.addCleanup(term.close)
        term.expect(r"Trust this project\? \[y/N\] ")
        term.send("\r")
        term.expect("Not trusted")
        term.send("run it\r")
        term.expect(r"\[y\] run")
        self.assertFalse(os.path.exists(os.path.join(box.project, "ran")))

    def test_control_characters_from_the_model_never_reach_the_terminal_raw(self):
        # Issue 26, break B: this argv showed only "Run $ make test" above [y] run [n]
        # reject, and `y` created the file; reply text and plan titles passed raw too.
        box = Sandbox([])
        self.addCleanup(box.cleanup)
        marker = os.path.join(box.dir, "PWNED")
        argv = ["sh", "-c", "touch " + marker + " #\r\x1b[2K\x1b[1A\r\x1b[2KRun \x1b[1m$ make test"]
        box.rescript([{"text": "Sure \x1b]0;owned\x07 thing\r", "tools": [tool("run_command", argv=argv)]},
                      {"text": "ok"},
                      plan_step(title="Title\x1b[2J\rwiped"),
                      {"text": "fine"}])
        term = Pty(box.args(), box.env)
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("run it\r")
        raw = term.expect(r"\[n\] reject")
        asked = raw[raw.index("run it"):]
        for sequence in ("\x1b[2K", "\x1b[1A", "\x1b]0;", "\x07", "\x1b[1m$"):
            self.assertNotIn(sequence, asked, "sent raw to the terminal")
        lines = [line.strip() for line in ANSI.sub("", asked).split("\n")]
        self.assertIn("Sure \\e]0;owned^G thing", ANSI.sub("", asked))
        self.assertTrue(any("control characters" in line for line in lines), lines)
        self.assertIn("argv[0] sh", lines)
        self.assertIn("argv[1] -c", lines)
        self.assertIn("argv[2] touch " + marker + " #^M\\e[2K\\e[1A^M\\e[2KRun \\e[1m$ make test",
                      lines)
        term.send("n")
        term.expect("reason")
        term.send("\r")
        term.expect("review ❯ ")
        self.assertFalse(os.path.exists(marker))
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("plan it\r")
        raw = term.expect(r"\[r\] reject")
        shown = raw[raw.index("plan it"):]
        self.assertNotIn("\x1b[2J", shown)
        self.assertIn("Plan — Title [2J wiped", ANSI.sub("", shown), "the title as filed, one line")

    def test_the_trust_question_shows_what_the_project_wrote_visibly(self):
        # Issue 26, break B: .rio/allow rules and .mcp.json server names reached the trust
        # question raw, so a project could rewrite what the question says.
        box = Sandbox([])
        self.addCleanup(box.cleanup)
        os.makedirs(os.path.join(box.project, ".rio"))
        with open(os.path.join(box.project, ".rio", "allow"), "w") as f:
            f.write("make\x1b[2K\x1b[1Atest\n")
        with open(os.path.join(box.project, ".mcp.json"), "w") as f:
            json.dump({"mcpServers": {"docs\x1b[1A\rnothing": {"command": "cat"}}}, f)
        term = Pty(box.args(), box.env)
        self.addCleanup(term.close)
        raw = term.expect(r"Trust this project\? \[y/N\] ")
        for sequence in ("\x1b[2K", "\x1b[1A"):
            self.assertNotIn(sequence, raw)
        screen = ANSI.sub("", raw)
        self.assertIn("`make\\e[2K\\e[1Atest`", screen)
        self.assertIn("docs\\e[1A^Mnothing (cat)", screen)
        term.send("\r")
        term.expect("Not trusted")

    def test_a_command_says_its_sandbox_and_one_may_run_without_it(self):
        # DESIGN §19: the proposal names the sandbox it would run in; [u] lets this one
        # command out (here: to create a file at the project's top level), the next asks again.
        box, term = self.session([{"tools": [tool("run_command", argv=["touch", "top"]),
                                             tool("run_command", argv=["touch", "again"])]},
                                  {"text": "done"}])
        term.send("make files\r")
        screen = term.expect(r"\[u\] without the sandbox")
        self.assertIn("(sandboxed: workspace-write, no network)", ANSI.sub("", screen))
        self.assertNotIn("[h]", ANSI.sub("", screen), "it asked for no hosts")
        term.send("u")
        term.expect(r"· not sandboxed\]")
        term.expect(r"\[u\] without the sandbox")
        term.send("y")
        term.expect(r"sandboxed: workspace-write, no network\]")
        term.expect("review ❯ ")
        self.assertTrue(os.path.exists(os.path.join(box.project, "top")))
        self.assertFalse(os.path.exists(os.path.join(box.project, "again")),
                         "the next command ran sandboxed")

    def test_e_runs_one_command_with_the_variables_that_look_like_secrets(self):
        # Issue 39: a command gets no DEMO_TOKEN unless a person chose [e] for it.
        box = Sandbox([{"tools": [tool("run_command", argv=["sh", "-c", "echo T=$DEMO_TOKEN."]),
                                  tool("run_command", argv=["sh", "-c", "echo U=$DEMO_TOKEN."])]},
                       {"text": "done"}])
        self.addCleanup(box.cleanup)
        term = Pty(box.args(), {**box.env, "DEMO_TOKEN": "cli-tok-9"})
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("show it\r")
        term.expect(r"\[e\] with my environment")
        term.send("e")
        term.expect(r"with your environment\]")
        term.expect("T=cli-tok-9.")
        term.expect(r"\[e\] with my environment")
        term.send("y")
        term.expect(r"U=\.")
        term.expect("review ❯ ")

    def test_h_and_a_let_a_command_reach_the_hosts_it_asked_for_once_or_always(self):
        # Issue 45: [h] lets this command reach the hosts it asked for; the next one asks
        # again and has none; [a] keeps them in the user's config.json for every command.
        import http.server
        import threading

        class Hello(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Length", "5")
                self.end_headers()
                self.wfile.write(b"hello")

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hello)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        url = "http://localhost:%d/" % server.server_address[1]

        def fetch(n, hosts=None):
            script = ("import urllib.request as u\ntry: print('%d', u.urlopen('%s', timeout=10)"
                      ".read().decode())\nexcept Exception as x: print('%d failed', x)\n"
                      % (n, url, n))
            extra = {"hosts": hosts} if hosts else {}
            return tool("run_command", argv=["/usr/bin/python3", "-I", "-S", "-c", script],
                        **extra)
        box, term = self.session([{"tools": [fetch(1, ["localhost"]), fetch(2),
                                             fetch(3, ["localhost"]), fetch(4)]},
                                  {"text": "done"}])
        term.send("fetch\r")
        screen = ANSI.sub("", term.expect(r"\[h\] with those hosts  \[a\] with them always"))
        self.assertIn("asks for the network to localhost", screen)
        term.send("h")
        term.expect(r"1 hello")
        term.expect(r"\[w\] with the network")
        term.send("y")
        term.expect(r"2 failed")
        term.expect(r"\[a\] with them always")
        term.send("a")
        term.expect(r"3 hello")
        term.expect(r"network only to localhost")
        term.expect(r"\[w\] with the network")
        term.send("y")
        term.expect(r"4 hello")
        term.expect("review ❯ ")
        with open(os.path.join(box.dir, "config", "rio", "config.json")) as f:
            config = json.load(f)
        self.assertEqual(config["sandbox"]["hosts"], ["localhost"])
        self.assertEqual(config["default_mode"], "build", "the rest of the file is kept")

    def test_reject_with_a_reason_reaches_the_model_and_the_screen_shows_the_persons_words(self):
        box, term = self.session([plan_step(), {"text": "What should change?"}])
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("plan something\r")
        term.expect(r"\[r\] reject")
        term.send("r")
        term.expect("reason")
        term.send("use a flag instead\r")
        screen = ANSI.sub("", term.expect("What should change?"))
        result = box.calls()[1]["conversation"][-1]["results"][0]
        self.assertFalse(result["ok"])
        self.assertIn("use a flag instead", result["content"])
        # The screen shows the person's words; the model's wording stays in the tool result.
        self.assertIn("✗ You asked for changes: use a flag instead", screen)
        self.assertNotIn("The user rejected", screen)
        self.assertEqual(box.read("greet.py"), GREET)
        term.expect("plan ❯ ")

    def test_a_comment_on_a_line_range_then_request_changes_reaches_the_model(self):
        box, term = self.session([plan_step(), {"text": "I will revise it."}])
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("plan it\r")
        term.expect(r"\[c\] comment")
        term.send("c")
        term.expect(r"10 │ 2\. Run the tests")
        term.expect(r"\nc ")
        term.send("9-10 use pytest for the tests\r")
        term.expect(r"1\. lines 9-10 «1\. Edit it» use pytest for the tests")
        term.expect(r"\[r\] request changes")
        term.send("c")
        term.expect(r"\nc ")
        term.send("3 not this one\r")
        term.expect(r"2\. line 3 «`greet\.py` says \*\*Hello\*\*\.» not this one")
        term.expect(r"\[r\] request changes")
        term.send("c")
        term.expect(r"\nc ")
        term.send("-2\r")
        screen = term.expect(r"\[r\] request changes")
        listed = ANSI.sub("", screen)[ANSI.sub("", screen).rindex("Comments:"):]
        self.assertNotIn("not this one", listed, "comment 2 was removed")
        term.send("c")
        term.expect(r"\nc ")
        term.send("12 past the end\r")
        term.expect(r"the plan has 10 lines")
        term.send("r")
        term.expect("reason")
        term.send("\r")
        term.expect("I will revise it.")
        content = box.calls()[1]["conversation"][-1]["results"][0]["content"]
        self.assertIn("requested changes", content)
        self.assertIn("on lines 9-10 of the plan:\n> 1. Edit it\n> 2. Run the tests\n\n"
                      "use pytest for the tests", content)
        self.assertNotIn("not this one", content)
        plan_file = box.read(os.path.join(".rio", "plans", box.plans()[0]))
        self.assertIn("## Review", plan_file)

    def test_review_threads_are_answered_resolved_and_an_open_one_asks_before_approval(self):
        revision = {"tools": [tool(
            "present_plan", title="Friendlier greeting",
            plan="1. Edit it\n2. Run the tests with pytest\n",
            addresses=[{"id": "c1", "reply": "pytest \x1b[31mruns\x07 them"}])]}
        box, term = self.session([plan_step(), {"text": "I will revise it."}, revision,
                                  {"text": "Carrying it out."}])
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("plan it\r")
        term.expect(r"\[c\] comment")
        for line in ("9-10 use pytest for the tests", "3 shorter"):
            term.send("c")
            term.expect(r"\nc ")
            term.send(line + "\r")
            term.expect(r"\[r\] request changes")
        term.send("r")
        term.expect("reason")
        term.send("\r")
        term.expect("I will revise it.")
        term.expect("plan ❯ ")
        term.send("revise it\r")
        screen = ANSI.sub("", term.expect(r"\[t\] reply or resolve"))
        threads = screen[screen.rindex("Review comments:"):]
        self.assertIn("c1 answered · lines 9-10", threads)
        self.assertIn("model: pytest \\e[31mruns^G them", threads,
                      "the model's reply, its control characters shown, not obeyed")
        self.assertIn("c2 open, passage gone · line 3", threads)
        term.send("t")
        term.expect(r"\nt ")
        term.send("resolve c9\r")
        term.expect("the plan has no comment c9")
        term.expect(r"\[t\] reply or resolve")
        term.send("t")
        term.expect(r"\nt ")
        term.send("c1 thanks\r")
        term.expect(r"you: thanks")
        term.expect(r"\[t\] reply or resolve")
        term.send("t")
        term.expect(r"\nt ")
        term.send("resolve c1\r")
        term.expect(r"c1 resolved")
        term.expect(r"\[t\] reply or resolve")
        term.send("a")
        term.expect("1 comment is still open — approve anyway?")
        term.send("n")
        term.expect(r"\[t\] reply or resolve")
        self.assertEqual(len(box.calls()), 3, "nothing was sent: the plan still waits")
        term.send("a")
        term.expect("approve anyway?")
        term.send("y")
        term.expect("Carrying it out.")
        files = [box.read(os.path.join(".rio", "plans", name)) for name in box.plans()]
        revised = [text for text in files if "revises:" in text]
        self.assertEqual(len(revised), 1)
        self.assertIn("open_comments: 1\n", revised[0])

    def test_a_revised_plan_prints_a_compact_diff_of_what_changed(self):
        first = ("1. Edit greet.py\n2. Run the tests\n3. Keep the old name\n4. a\n5. b\n6. c\n"
                 "7. d\n")
        second = first.replace("2. Run the tests", "2. Run the tests with pytest").replace(
            "7. d\n", "7. d\n8. Update the README\n")
        box, term = self.session([plan_step(plan=first), plan_step(plan=second),
                                  {"text": "Revised."}])
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("plan it\r")
        term.expect(r"\[r\] reject")
        term.send("r")
        term.expect("reason")
        term.send("use pytest\r")
        screen = term.expect(r"Changes since the previous plan:")
        screen = term.expect(r"\[r\] reject")
        diff = ANSI.sub("", screen).replace("\r\n", "\n")
        diff = diff[diff.rindex("Changes since the previous plan:"):]
        self.assertIn("- 2. Run the tests\n", diff)
        self.assertIn("+ 2. Run the tests with pytest\n", diff)
        self.assertIn("+ 8. Update the README\n", diff)
        self.assertIn("  3. Keep the old name\n", diff, "a line of context")
        self.assertIn("  ⋯\n", diff, "unchanged lines between are left out")
        self.assertNotIn("5. b", diff)
        term.send("a")
        term.expect("Revised.")

    def test_editing_a_plan_hands_the_editor_the_body_and_keeps_the_front_matter(self):
        box = Sandbox([plan_step(), {"text": "Following your version."}])
        self.addCleanup(box.cleanup)
        editor = os.path.join(box.dir, "editor.sh")
        with open(editor, "w") as f:
            f.write('#!/bin/sh\nhead -c 3 "$1" > "$1.first"\nprintf "3. Extra step\\n" >> "$1"\n')
        os.chmod(editor, 0o755)
        term = Pty(box.args(), {**box.env, "VISUAL": editor, "TMPDIR": box.dir})
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("plan it\r")
        term.expect(r"\[e\] edit the plan")
        term.send("e")
        term.expect("Extra step")
        term.expect(r"\[e\] edit the plan")
        handed = [f for f in os.listdir(box.dir) if f.endswith(".first")]
        self.assertEqual(len(handed), 1)
        with open(os.path.join(box.dir, handed[0])) as f:
            self.assertEqual(f.read(), "# F", "the editor got the body, no front matter")
        plan_file = box.read(os.path.join(".rio", "plans", box.plans()[0]))
        self.assertTrue(plan_file.startswith("---\nstatus: presented\n"), plan_file)
        self.assertIn("3. Extra step", plan_file)
        term.send("a")
        # Streamed word by word: on a slow build a spinner frame can be drawn between words.
        term.expect(r"Following[\s\S]*?your version\.")
        content = box.calls()[1]["conversation"][-1]["results"][0]["content"]
        self.assertIn("The user edited the plan", content)
        self.assertIn("3. Extra step", content)

    def test_a_missing_editor_is_named_by_its_variable(self):
        box = Sandbox([plan_step(), {"text": "Approved as it was."}])
        self.addCleanup(box.cleanup)
        env = {**box.env, "EDITOR": "no-such-editor-7d1e"}
        env.pop("VISUAL", None)
        term = Pty(box.args(), env)
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("plan it\r")
        term.expect(r"\[e\] edit the plan")
        term.send("e")
        term.expect(r"\$EDITOR \(no-such-editor-7d1e\) cannot be run: it is not installed or not "
                    r"on PATH\. Set \$EDITOR to an editor you have\.")
        term.expect(r"\[e\] edit the plan")
        self.assertNotIn("not found", ANSI.sub("", term.seen), "no shell's words")
        term.send("a")
        term.expect("Approved as it was.")

    def test_a_commands_last_lines_show_under_it_and_output_shows_all(self):
        program = "for i in range(12): print('line', i)\nraise SystemExit(1)"
        box, term = self.session([{"tools": [tool("run_command", argv=["python3", "-c", program])]},
                                  {"text": "It failed."}])
        term.send("run it\r")
        term.expect(r"\[y\] run")
        term.send("y")
        screen = ANSI.sub("", term.expect("It failed.")).replace("\r\n", "\n")
        shown = screen[screen.rindex("✗ [exit code 1"):]
        self.assertIn("  ⋮ 4 earlier lines: /output 1\n", shown)
        self.assertIn("  │ line 4\n", shown)
        self.assertIn("  │ line 11\n", shown)
        self.assertNotIn("line 3\n", shown)
        term.expect("review ❯ ")
        term.send("/output 1\r")
        screen = ANSI.sub("", term.expect("  │ line 11")).replace("\r\n", "\n")
        every = screen[screen.rindex("/output 1"):]
        for i in range(12):
            self.assertIn(f"  │ line {i}\n", every)
        term.expect("review ❯ ")
        term.send("/output 2\r")
        term.expect(r"Usage: /output N, N from 1 to 1")

    def test_undo_puts_back_the_last_turn_or_the_one_named(self):
        box, term = self.session([
            {"tools": [tool("edit_file", path="greet.py", old_string="Hello", new_string="Hi")]},
            {"text": "First."},
            {"tools": [tool("create_file", path="new.py", content="x = 1\n")]},
            {"text": "Second."}])
        term.send("/auto\r")
        term.expect("auto ❯ ")
        term.send("one\r")
        term.expect("First.")
        term.expect("auto ❯ ")
        term.send("two\r")
        term.expect("Second.")
        term.expect("auto ❯ ")
        term.send("/undo\r")
        term.expect("Undone turn 2: deleted new.py")
        self.assertFalse(os.path.exists(os.path.join(box.project, "new.py")))
        # Changed since the agent wrote it: nothing undone, the file named as the desktop does.
        with open(os.path.join(box.project, "greet.py"), "a") as f:
            f.write("# mine\n")
        term.expect("auto ❯ ")
        term.send("/undo 1\r")
        term.expect(r"Nothing was undone: since the agent wrote them in turn 1, greet\.py changed")
        self.assertIn("# mine", box.read("greet.py"))
        term.expect("auto ❯ ")
        term.send("/undo 7\r")
        term.expect("turn 7")
        term.expect("auto ❯ ")
        term.send("/undo two\r")
        term.expect(r"Usage: /undo, or /undo TURN")

    def test_an_edit_shows_a_diff_and_asks(self):
        box, term = self.session([edit_step(), {"text": "ok"}])
        term.send("change it\r")
        screen = term.expect(r"\[y\] apply")
        self.assertIn('+    return f"Hi, {name}!"', ANSI.sub("", screen))
        term.send("y")
        term.expect("review ❯ ")
        self.assertIn("Hi, {name}", box.read("greet.py"))

    def test_ctrl_c_stops_a_turn_and_the_next_one_works(self):
        # The turn reads a file first, and its tool line on the screen is the barrier: the core
        # answers agent.send (which tells rio-cli the turn's number) before the events the turn
        # causes, so once the line shows, rio-cli knows which turn Ctrl+C stops, and the turn
        # is under way (running the read, or waiting on the slow step after it).
        box, term = self.session([{"tools": [tool("read_file", path="greet.py")]},
                                  {"text": "never shown", "delay_ms": 30000}, {"text": "second"}])
        term.send("slow task\r")
        term.expect("slow task")
        term.expect("• read_file greet.py")
        term.send("\x03")
        term.expect("stopping…")
        screen = term.expect("review ❯ ")
        turn = ANSI.sub("", screen[screen.index("slow task"):])
        self.assertEqual(turn.count("stopping…"), 1, turn)
        self.assertNotIn("^C", turn, "the terminal echoes no ^C into the output")
        self.assertNotIn("(stopped)", turn, "said once, not again when the core confirms")
        term.send("again\r")
        term.expect("second")

    def test_ctrl_c_twice_at_the_prompt_quits(self):
        _, term = self.session([])
        term.send("\x03")
        term.expect("Ctrl\\+C again to quit")
        term.send("\x03")
        self.assertEqual(term.wait_exit(), 0)

    def test_a_200_column_code_line_in_a_plan_wraps_marked_not_cut(self):
        code = "result = compute(" + ", ".join(f"argument_{i}" for i in range(18)) + ")  # END"
        self.assertGreaterEqual(len(code), 200)
        plan = "## Change\n\nThen:\n\n```python\n" + code + "\nshort()\n```\n"
        box, term = self.session([plan_step(plan=plan), {"text": "ok"}])
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("plan it\r")
        screen = term.expect(r"\[A\] approve, auto-accept edits")
        lines = screen_lines(screen[screen.index("Plan — "):])
        start = next(i for i, line in enumerate(lines) if "result = compute(" in line)
        end = next(i for i, line in enumerate(lines) if "short()" in line)
        shown = lines[start:end]
        self.assertGreater(len(shown), 2, "wrapped over several lines")
        for line in shown:
            self.assertLessEqual(len(line), 100, line)
            self.assertNotIn("…", line, "nothing is cut")
        self.assertTrue(shown[0].startswith("    result"))
        for line in shown[1:]:
            self.assertTrue(line.startswith("    ↪ "), "each continuation is marked: " + line)
        joined = shown[0][4:] + "".join(line[len("    ↪ "):] for line in shown[1:])
        self.assertEqual(joined, code, "the whole line, in order")

    def test_streamed_prose_never_splits_a_word_at_the_edge(self):
        prose = " ".join(WORDS * 3)
        box = Sandbox([{"thinking": pieces(prose, [3, 5, 2, 7]),
                        "text": pieces(prose + " END.", [4, 1, 6, 3])}])
        self.addCleanup(box.cleanup)
        term = Pty(box.args(), box.env, cols=37)
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("think aloud\r")
        screen = term.expect(r"END\.")
        term.expect("review ❯ ")
        lines = screen_lines(screen[screen.index("think aloud"):])[1:]
        prose_lines = [line for line in lines if line.strip() and line.split()[0] in WORDS]
        self.assertGreater(len(prose_lines), 6, "the prose wrapped: " + repr(lines))
        for line in prose_lines:
            self.assertLessEqual(len(line), 37, line)
            for word in line.split():
                self.assertIn(word.rstrip("."), WORDS + ["END"], "a split word: " + line)
        joined = " ".join(w for line in prose_lines for w in line.split())
        self.assertEqual(joined, prose + " " + prose + " END.", "thinking, then the answer")

    def test_the_answer_is_rendered_as_markdown(self):
        box, term = self.session([{"text": "# Summary\n\nIt says **Hi** now, see `greet.py`.\n\n"
                                           "- one\n- two\n"}])
        term.send("what changed\r")
        screen = term.expect("• two")
        term.expect("review ❯ ")
        answer = screen[screen.index("what changed"):]
        plain = ANSI.sub("", answer)
        for raw in ("# Summary", "**", "`greet.py`", "- one"):
            self.assertNotIn(raw, plain, "no Markdown syntax left")
        self.assertIn("\x1b[1mSummary", answer, "the heading is bold")
        self.assertIn("━━━━━━━", plain, "and underlined")
        self.assertRegex(answer, r"\x1b\[1mHi\x1b\[0m", "**Hi** is bold")
        self.assertIn("• one", plain)

    def test_history_is_kept_in_the_state_folder(self):
        box = Sandbox([{"text": "one"}])
        self.addCleanup(box.cleanup)
        term = Pty(box.args(), box.env)
        term.expect("review ❯ ")
        term.send("remember this line\r")
        term.expect("one")
        term.expect("review ❯ ")
        term.send("\x04")  # Ctrl+D, so that the typed line is the last one
        self.assertEqual(term.wait_exit(), 0)
        term.close()
        folder = os.path.join(box.dir, "state", "rio")
        history = os.path.join(folder, "history")
        with open(history) as f:
            self.assertIn("remember\\040this\\040line", f.read(), "libedit's own format")
        self.assertEqual(os.stat(folder).st_mode & 0o777, 0o700)
        self.assertEqual(os.stat(history).st_mode & 0o777, 0o600)
        again = Pty(box.args(), box.env)
        self.addCleanup(again.close)
        again.expect("review ❯ ")
        again.send("\x1b[A")  # Up: the line from the last session
        again.expect("remember this line")

    def test_a_ctrl_d_typed_during_a_turn_ends_the_session_after_it(self):
        # The turn runs an allowed command that waits for the test to create `go`, so the
        # Ctrl+D surely arrives while the turn runs. In the terminal's ordinary mode it
        # became an end-of-file mark that reached the next prompt as a NUL byte (lost).
        box = Sandbox([{"tools": [{"name": "run_command", "input": {
            "argv": ["sh", "-c", "while [ ! -e go ]; do sleep 0.01; done"]}}]},
                       {"text": "released"}])
        self.addCleanup(box.cleanup)
        os.makedirs(os.path.join(box.dir, "config", "rio"), exist_ok=True)
        with open(os.path.join(box.dir, "config", "rio", "allow"), "w") as f:
            f.write("sh\n")
        term = Pty(box.args(), box.env)
        self.addCleanup(term.close)
        # The user's allow-list applies only in a trusted project (issue 26): trust it.
        term.expect(r"even those your allow-list lets run \(`sh`\)")
        term.expect(r"Trust this project\? \[y/N\] ")
        term.send("y\r")
        term.expect("review ❯ ")
        term.send("wait for go\r")
        term.expect("running sh")
        term.send("\x04")
        open(os.path.join(box.project, "go"), "w").close()
        term.expect("released")
        self.assertEqual(term.wait_exit(), 0)

    def test_tab_completes_slash_commands(self):
        _, term = self.session([])
        # libedit redraws only what it adds ("ider "), so the command's effect is the proof:
        # "/prov" alone would be an unknown command.
        term.send("/prov\t")
        term.expect("ider ")
        term.send("\r")
        screen = term.expect("Switch with /provider NAME")
        term.expect("review ❯ ")
        term.send("/pl\t")  # /plan and /plans: completed as far as they agree
        term.expect("an")
        term.send("s\r")
        screen = term.expect("No plans filed yet")
        self.assertNotIn("Unknown command", ANSI.sub("", screen))

    def test_mcp_lists_the_servers_and_restart_names_an_unknown_one(self):
        box = Sandbox([])
        self.addCleanup(box.cleanup)
        os.makedirs(os.path.join(box.dir, "config", "rio"), exist_ok=True)
        with open(os.path.join(box.dir, "config", "rio", "mcp.json"), "w") as f:
            json.dump({"mcpServers": {"nowhere": {"command": "no-such-mcp-server"}}}, f)
        box.trust()
        term = Pty(box.args(), box.env)
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("/mcp\r")
        screen = ANSI.sub("", term.expect("Restart one with /mcp restart NAME"))
        self.assertIn("nowhere  failed  (user)", screen)
        self.assertIn("could not start: no such program: no-such-mcp-server", screen)
        term.expect("review ❯ ")
        term.send("/mcp restart nope\r")
        term.expect("no MCP server named 'nope' is configured")

    def test_an_untrusted_project_asks_for_its_language_servers_and_problems_says_they_wait(self):
        # Issue 39: no language server starts in a project nobody trusted; the trust
        # question names them, and /problems says why it knows of none.
        box = Sandbox([])
        self.addCleanup(box.cleanup)
        odd = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e",
                           "lsp_odd_server.py")
        servers = {name: {"disabled": True}
                   for name in ("clangd", "pylsp", "typescript", "rust-analyzer", "gopls")}
        servers["odd"] = {"command": sys.executable, "args": [odd, "ok"], "files": ["*.odd"]}
        box.write_lsp(servers)
        with open(os.path.join(box.project, "a.odd"), "w") as f:
            f.write("  ERROR here\n")
        term = Pty(box.args(), box.env)
        self.addCleanup(term.close)
        term.expect(r"Language servers \(odd\) start when you trust this project")
        term.expect(r"Trust this project\? \[y/N\] ")
        term.send("n\r")
        term.expect("no language or MCP server of yours starts here")
        term.expect("review ❯ ")
        term.send("/problems\r")
        term.expect("No problems known: language servers start when you trust this project.")

    def test_problems_lists_what_the_language_servers_report(self):
        box = Sandbox([])
        self.addCleanup(box.cleanup)
        odd = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e",
                           "lsp_odd_server.py")
        box.write_lsp({"odd": {"command": sys.executable, "args": [odd, "ok"],
                               "files": ["*.odd"]}})
        with open(os.path.join(box.project, "a.odd"), "w") as f:
            f.write("fine\n  ERROR here\n")
        box.trust()
        term = Pty(box.args(), box.env)
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("/problems\r")
        term.expect("No problems: the language servers report none")
        term.expect("review ❯ ")
        term.send("/problems a.odd\r")
        screen = ANSI.sub("", term.expect("1 error."))
        self.assertIn("a.odd:2:3: error: ERROR found [odd E1]", screen)
        term.expect("review ❯ ")
        term.send("/problems\r")
        screen = ANSI.sub("", term.expect("1 error."))
        self.assertIn("a.odd:2:3: error: ERROR found [odd E1]", screen)

    def test_diff_shows_the_changes_against_head_in_colour(self):
        box = Sandbox([])
        self.addCleanup(box.cleanup)
        git = ["git", "-C", box.project, "-c", "user.name=t", "-c", "user.email=t@example.com"]
        subprocess.run(git + ["init", "-q", "-b", "main"], check=True)
        with open(os.path.join(box.project, "notes.txt"), "w") as f:
            f.write("one\ntwo\nthree\n")
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-q", "-m", "first"], check=True)
        term = Pty(box.args(), box.env)
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("/diff\r")
        term.expect(r"No changes against main [0-9a-f]{12}\.")
        term.expect("review ❯ ")
        with open(os.path.join(box.project, "notes.txt"), "w") as f:
            f.write("one\nTWO\nthree\n")
        with open(os.path.join(box.project, "new.txt"), "w") as f:
            f.write("fresh\n")
        term.send("/diff\r")
        screen = term.expect(r"2 files changed against main [0-9a-f]{12}\.")
        self.assertIn("\x1b[31m-two", screen)
        self.assertIn("\x1b[32m+TWO", screen)
        plain = ANSI.sub("", screen)
        self.assertIn("--- /dev/null\r\n+++ b/new.txt", plain)
        self.assertIn("--- a/notes.txt\r\n+++ b/notes.txt\r\n@@ -1,3 +1,3 @@", plain)
        term.expect("review ❯ ")
        term.send("/diff notes.txt\r")
        screen = ANSI.sub("", term.expect(r"1 file changed against main"))
        self.assertNotIn("new.txt", screen.split("/diff notes.txt")[-1])
        term.expect("review ❯ ")
        term.send("/diff ../elsewhere\r")
        term.expect("path is outside the project: ../elsewhere")

    def test_plans_are_listed_with_numbers_to_pick(self):
        box, term = self.session([plan_step(), {"text": "What should change?"}])
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("plan something\r")
        term.expect(r"\[r\] reject")
        term.send("r")
        term.expect("reason")
        term.send("\r")
        term.expect("What should change?")
        term.expect("plan ❯ ")
        term.send("/plans\r")
        term.expect(r"1\. Friendlier greeting  rejected · \.rio/plans/")
        term.expect(r"Show which\? ")
        term.send("7\r")
        term.expect(r"there is no 7 \(1 to 1\)")
        term.send("1\r")
        screen = term.expect(r"\(rejected\)")
        shown = ANSI.sub("", screen[screen.rindex("Plan — "):])
        self.assertIn("Friendlier greeting · .rio/plans/", shown)
        self.assertIn("┌", shown, "rendered, as when it was presented")
        term.expect("plan ❯ ")

    def test_sessions_are_listed_with_numbers_and_one_continues(self):
        box = Sandbox([{"text": "Noted."}])
        self.addCleanup(box.cleanup)
        self.assertEqual(box.run("-p", "remember the word teapot").returncode, 0)
        box.rescript([{"text": "It was teapot."}])
        term = Pty(box.args(), box.env)
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("/sessions\r")
        term.expect(r"1\. remember the word teapot  \d{4}-\d\d-\d\dT\d\d:\d\d · 1 turn · \d{8}-")
        term.expect(r"Continue which\? ")
        term.send("1\r")
        term.expect("Resumed “remember the word teapot” · 2 messages")
        term.expect("review ❯ ")
        term.send("what was the word?\r")
        term.expect("It was teapot.")
        sent = box.calls()[-1]["conversation"]
        self.assertEqual([m["text"] for m in sent],
                         ["remember the word teapot", "Noted.", "what was the word?"])

    def test_continue_starts_with_the_latest_conversation(self):
        box = Sandbox([{"text": "Noted."}])
        self.addCleanup(box.cleanup)
        self.assertEqual(box.run("-p", "remember the word teapot").returncode, 0)
        box.rescript([{"text": "It was teapot."}])
        term = Pty(box.args("--continue"), box.env)
        self.addCleanup(term.close)
        term.expect(r"Type a task, or /help\.")
        term.expect("Resumed “remember the word teapot” · 2 messages · session ")
        term.expect("review ❯ ")
        term.send("what was the word?\r")
        term.expect("It was teapot.")
        self.assertEqual(len(box.calls()[-1]["conversation"]), 3)

    def test_continue_says_who_it_is_before_the_pending_plan_asks(self):
        box = Sandbox([plan_step()])
        self.addCleanup(box.cleanup)
        first = box.run("-p", "--mode", "plan", "make it friendlier")
        self.assertEqual(first.returncode, 2, first.stderr)
        box.rescript([{"text": "Carried out."}])
        term = Pty(box.args("--continue"), box.env)
        self.addCleanup(term.close)
        screen = ANSI.sub("", term.expect(r"\[r\] reject"))
        banner, resumed, plan = (screen.index("Type a task, or /help."),
                                 screen.index("Resumed “make it friendlier”"),
                                 screen.rindex("Plan — Friendlier greeting"))
        self.assertLess(banner, resumed)
        self.assertLess(resumed, plan, "the pending plan asks last, under the banner")

    def provider_session(self, provider, env=None):
        """rio-cli on a network provider (no script), in its own sandbox."""
        box = Sandbox([])
        self.addCleanup(box.cleanup)
        term = Pty([RIO_CLI, "--provider", provider, box.project], {**box.env, **(env or {})})
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        return box, term

    def test_key_is_asked_unseen_stored_and_cleared(self):
        box, term = self.provider_session("anthropic")
        secret = "sk-ant-cli-test-7d1e55c0"
        term.send("/key\r")
        term.expect("Paste the anthropic key")
        term.expect("key: ")
        term.send(secret[:10])
        term.send(secret[10:] + "x\x7f\r")  # a typo taken back with Backspace
        term.expect("Stored the anthropic key")
        term.expect("review ❯ ")
        self.assertNotIn(secret[:10], term.seen, "the key is never on the screen")
        path = os.path.join(box.dir, "data", "rio", "secrets", "anthropic")
        with open(path) as f:
            self.assertEqual(f.read().strip(), secret)
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o600)
        term.send("/key clear\r")
        term.expect("Removed the stored anthropic key.")
        self.assertFalse(os.path.exists(path))

    def test_switching_to_a_provider_without_a_key_says_to_add_one(self):
        _, term = self.provider_session("echo")
        term.send("/provider anthropic\r")
        term.expect(r"Provider: anthropic · model claude-")
        term.expect(r"anthropic has no key yet: store one with /key \(or set ANTHROPIC_API_KEY\)")
        # Issue 46: a switch to a provider that needs nothing more says where it landed too.
        term.send("/provider echo\r")
        term.expect(r"Provider: echo")

    def test_provider_openai_responses_speaks_the_responses_api(self):
        # Issue 49: /provider NAME WIRE switches and chooses the API; the turn then goes to
        # /v1/responses, and auto gives the choice back to the model.
        box = Sandbox([])
        self.addCleanup(box.cleanup)
        fake = FakeLlm(box.dir, responses=[{"text": "Answered on Responses."}])
        self.addCleanup(fake.stop)
        term = Pty([RIO_CLI, "--provider", "echo", box.project],
                   {**box.env, "OPENAI_BASE_URL": fake.url + "/v1", "OPENAI_API_KEY": "sk-t"})
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("/provider openai sideways\r")
        term.expect("The wire is chat, responses or auto, not sideways.")
        term.send("/provider anthropic responses\r")
        term.expect("Only openai has a wire to choose; /provider anthropic switches.")
        term.send("/provider openai responses\r")
        term.expect(r"Provider: openai · model gpt-5 · wire responses")
        term.expect("review ❯ ")
        term.send("hello\r")
        term.expect("Answered on Responses.")
        with open(fake.log) as f:
            paths = [json.loads(line)["path"] for line in f if '"request"' in line]
        self.assertEqual(paths, ["/v1/responses"])
        term.send("/provider openai auto\r")
        term.expect(r"Provider: openai · model gpt-5 · wire chat")

    def test_the_model_is_picked_from_the_providers_numbered_list(self):
        box = Sandbox([])
        self.addCleanup(box.cleanup)
        fake = FakeLlm(box.dir, models=["claude-fake-large", "claude-fake-small"])
        self.addCleanup(fake.stop)
        term = Pty([RIO_CLI, "--provider", "anthropic", box.project],
                   {**box.env, "ANTHROPIC_BASE_URL": fake.url})
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("/model\r")
        term.expect(r"1\. claude-fake-large")
        term.expect(r"2\. claude-fake-small")
        term.expect("Use which")
        term.send("2\r")
        term.expect("model: claude-fake-small")
        term.expect("review ❯ ")
        with open(os.path.join(box.dir, "config", "rio", "providers", "anthropic.json")) as f:
            self.assertEqual(json.load(f)["model"], "claude-fake-small")
        term.send("/model\r")
        term.expect(r"2\. claude-fake-small +in use")
        term.expect("Use which")
        term.send("\r")
        term.expect("review ❯ ")
        # DESIGN §20: another model plans; the one in use takes over at approval.
        term.send("/model plan anthropic claude-fake-large\r")
        term.expect("Plan mode answers with anthropic · claude-fake-large; anthropic · "
                    "claude-fake-small takes over at approval.")
        term.send("/status\r")
        term.expect("plans with: anthropic · claude-fake-large")
        term.send("/model plan echo\r")
        term.expect("plan_model needs a network provider")
        term.send("/model plan off\r")
        term.expect("The builder's model plans too.")
        with open(os.path.join(box.dir, "config", "rio", "config.json")) as f:
            self.assertNotIn("plan_model", json.load(f))

    def test_echo_says_how_to_connect_a_model(self):
        _, term = self.provider_session("echo")
        self.assertIn("echo only repeats what you type. To connect a model: /provider",
                      ANSI.sub("", term.seen))

    def test_slash_commands_switch_modes(self):
        _, term = self.session([])
        term.send("/auto\r")
        term.expect("auto ❯ ")
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("/help\r")
        term.expect("/provider")
        term.send("/quit\r")
        self.assertEqual(term.wait_exit(), 0)

    def test_shift_tab_cycles_the_modes_and_keeps_what_was_typed(self):
        # Issue 46, item 9: every peer cycles modes with Shift+Tab (ESC [ Z); it did nothing.
        box, term = self.session([{"text": "heard"}, {"text": "again"}])
        term.send("\x1b[Z")
        term.expect("auto ❯ ")
        term.send("\x1b[Z")
        term.expect("plan ❯ ")
        term.send("héllo th")
        term.send("\x1b[Z")
        term.expect("review ❯ héllo th")
        term.send("ere\r")
        term.expect("heard")
        term.expect("review ❯ ")
        # Typed UTF-8 reaches the model as typed (it went as "hÃ©llo": libedit takes its getc
        # hook's result as a whole character, and rio-cli handed it bytes).
        self.assertEqual(box.calls()[-1]["conversation"][-1]["text"], "héllo there")
        # An arrow (ESC [ D) still edits: libedit gets the bytes read ahead of it.
        term.send("ab\x1b[Dx\r")
        term.expect("again")
        term.expect("review ❯ ")
        self.assertEqual(box.calls()[-1]["conversation"][-1]["text"], "axb")
        term.send("/quit\r")
        self.assertEqual(term.wait_exit(), 0)

    def test_another_frontend_opening_a_folder_is_followed(self):
        # Issue 46, item 2: a project is a workspace. The desktop (here a plain client) opens
        # another folder on the shared core; rio-cli says so and shows which conversation is
        # now the one it talks in, and goes on in it.
        box = Sandbox([{"text": "in A"}, {"text": "in B"}])
        self.addCleanup(box.cleanup)
        core = box.listening_core()
        self.addCleanup(lambda: (core.terminate(), core.wait(timeout=10), core.stderr.close()))
        other = os.path.join(box.dir, "other")
        os.mkdir(other)
        term = Pty([RIO_CLI, "--connect", "unix:" + box.socket], box.env)
        self.addCleanup(term.close)
        term.expect("❯ ")
        term.send("work on A\r")
        term.expect("in A")
        term.expect("❯ ")
        a = unix_request(box.socket, "agent.status")["result"]["session"]
        self.assertTrue(unix_request(box.socket, "project.open", {"path": other})["ok"])
        term.expect(r"\(conversation cleared\)")  # left while A was still open
        term.expect(r"\(project: " + re.escape(other) + r"\)")
        term.send("work on B\r")
        term.expect("in B")
        term.expect("❯ ")
        self.assertEqual(box.calls()[-1]["conversation"][0]["text"], "work on B")
        self.assertTrue(unix_request(box.socket, "project.open", {"path": box.project})["ok"])
        term.expect(r"\(continuing session " + re.escape(a) + r"\)")
        term.send("/quit\r")
        self.assertEqual(term.wait_exit(), 0)


    def test_a_users_command_runs_and_help_lists_it_and_the_files_skipped(self):
        box, term = self.session([{"text": "Loud now."}])
        folder = os.path.join(box.dir, "config", "rio", "commands")
        os.makedirs(folder)
        with open(os.path.join(folder, "shout-it.md"), "w") as f:
            f.write("---\ndescription: make it loud\nargument-hint: FILE\n---\nShout $1.\n")
        with open(os.path.join(folder, "help.md"), "w") as f:
            f.write("Not rio's help.\n")
        with open(os.path.join(folder, "empty.md"), "w") as f:
            f.write("---\ndescription: nothing\n---\n")
        term.send("/help\r")
        screen = ANSI.sub("", term.expect("review ❯ "))
        self.assertIn("/shout-it FILE  make it loud", screen)
        self.assertIn("help.md: skipped, /help is rio's own command", screen)
        self.assertIn("empty.md: skipped, it has no text below its front matter", screen)
        term.send("/shout-it greet.py\r")
        term.expect("Loud now.")
        term.expect("review ❯ ")
        self.assertEqual(box.calls()[0]["conversation"][0]["text"], "Shout greet.py.")
        term.send("/shout-nope\r")
        term.expect("Unknown command /shout-nope; /help lists them.")

    def test_rewind_lists_my_messages_shows_what_changes_and_puts_the_message_back(self):
        box, term = self.session([{"text": "ok"}, edit_step(), {"text": "edited"}])
        term.send("/auto\r")
        term.expect("auto ❯ ")
        term.send("first\r")
        term.expect("ok")
        term.expect("auto ❯ ")
        term.send("make it friendlier\r")
        term.expect("edited")
        term.expect("auto ❯ ")
        self.assertIn("Hi, {name}", box.read("greet.py"))
        term.send("/rewind\r")
        term.expect("Rewind to before which")
        term.send("2\r")
        screen = ANSI.sub("", term.expect(r"\[y\] rewind  \[n\] no"))
        self.assertIn('Rewinding to before "make it friendlier" drops 4 entries', screen)
        self.assertIn("restore greet.py", screen)
        term.send("y")
        screen = ANSI.sub("", term.expect("auto ❯ make it friendlier"))
        self.assertIn("1 file put back", screen)
        self.assertEqual(box.read("greet.py"), GREET)

if __name__ == "__main__":
    unittest.main()
