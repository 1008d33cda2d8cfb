#!/usr/bin/env python3
"""rio-cli's interactive session on a pseudo-terminal, against a real rio-core with the
script provider: a plan is rendered (no raw Markdown), approve-auto continues the same
turn, a rejection's reason reaches the model, Ctrl+C stops a turn, slash commands."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_support import ANSI, GREET, Pty, Sandbox, edit_step, plan_step, tool  # noqa: E402


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

    def test_a_project_allow_list_applies_only_once_trusted_here(self):
        box = Sandbox([{"tools": [tool("run_command", argv=["sh", "-c", "touch ran"])]},
                       {"text": "ran it"}])
        self.addCleanup(box.cleanup)
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
        self.assertTrue(os.path.exists(os.path.join(box.project, "ran")), "ran without asking")

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

    def test_reject_with_a_reason_reaches_the_model(self):
        box, term = self.session([plan_step(), {"text": "What should change?"}])
        term.send("/plan\r")
        term.expect("plan ❯ ")
        term.send("plan something\r")
        term.expect(r"\[r\] reject")
        term.send("r")
        term.expect("reason")
        term.send("use a flag instead\r")
        term.expect("What should change?")
        result = box.calls()[1]["conversation"][-1]["results"][0]
        self.assertFalse(result["ok"])
        self.assertIn("use a flag instead", result["content"])
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
        term.expect("Following your version.")
        content = box.calls()[1]["conversation"][-1]["results"][0]["content"]
        self.assertIn("The user edited the plan", content)
        self.assertIn("3. Extra step", content)

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
        term.expect(r"\(stopped\)")
        term.expect("review ❯ ")
        term.send("again\r")
        term.expect("second")

    def test_ctrl_c_twice_at_the_prompt_quits(self):
        _, term = self.session([])
        term.send("\x03")
        term.expect("Ctrl\\+C again to quit")
        term.send("\x03")
        self.assertEqual(term.wait_exit(), 0)

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


if __name__ == "__main__":
    unittest.main()
