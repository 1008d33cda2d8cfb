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
