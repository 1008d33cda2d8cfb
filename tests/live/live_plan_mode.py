#!/usr/bin/env python3
"""A live smoke test: one real plan-mode turn against Anthropic and/or OpenAI.

Runs when ANTHROPIC_API_KEY or OPENAI_API_KEY is set (OPENAI_BASE_URL is honoured, so a
local Ollama or vLLM works too) and skips, saying so, when neither is. Not part of
`make test` (CI has no keys and no network); run it with `make live`.

For each provider: a copy of examples/demo/ in plan mode, a task that needs reading, and
the checks that matter — the model used the read tools, presented a plan through
present_plan, nothing in the project changed before approval; then the plan is rejected
and the turn must end cleanly.
"""
import os
import shutil
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from rio_client import Core  # noqa: E402

TASK = ("Add a --shout flag to greet.py that upper-cases the greeting. Investigate first, "
        "then present your plan.")


def run(provider, core_binary):
    work = tempfile.mkdtemp(prefix=f"rio-live-{provider}-")
    project = os.path.join(work, "demo")
    shutil.copytree(os.path.join(ROOT, "examples", "demo"), project)
    before = {name: open(os.path.join(project, name), "rb").read() for name in os.listdir(project)}
    os.environ["XDG_CONFIG_HOME"] = os.path.join(work, "config")
    seen = {"tools": [], "plan": None, "error": None}
    done = threading.Event()
    proposed = threading.Event()

    def on_event(name, p):
        if name == "agent.tool":
            seen["tools"].append(p["name"])
        elif name == "agent.propose" and p["kind"] == "plan":
            seen["plan"] = p
            proposed.set()
        elif name == "agent.error":
            seen["error"] = f"{p['code']}: {p['message']}"
            done.set()
        elif name == "agent.done":
            done.set()

    core = Core([core_binary, "--project", project, "--provider", provider], on_event)
    try:
        core.request("agent.mode.set", {"mode": "plan"})
        turn = core.request("agent.send", {"text": TASK})["result"]["turn"]
        if not proposed.wait(240) and not seen["error"]:
            return f"no plan within 240 s (tools used: {seen['tools']})"
        if seen["error"]:
            return seen["error"]
        changed = [n for n, b in before.items() if open(os.path.join(project, n), "rb").read() != b]
        if changed:
            return f"files changed before approval: {changed}"
        if not any(t in ("read_file", "search", "list_dir") for t in seen["tools"]):
            return "the model presented a plan without reading anything"
        print(f"  plan: {seen['plan']['title']} ({len(seen['plan']['plan'])} chars, "
              f"filed at {seen['plan']['path']}); tools used: {seen['tools']}")
        core.request("agent.approve", {"turn": turn, "decision": "reject",
                                       "feedback": "Thanks, that is all for this test."})
        if not done.wait(240):
            return "the turn did not end after the rejection"
        return seen["error"]
    finally:
        core.close()
        shutil.rmtree(work)


def main():
    core_binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "rio-core")
    providers = [p for p, key in (("anthropic", "ANTHROPIC_API_KEY"), ("openai", "OPENAI_API_KEY"))
                 if os.environ.get(key)]
    if not providers:
        print("live test skipped: set ANTHROPIC_API_KEY or OPENAI_API_KEY to run it")
        return 0
    failures = 0
    for provider in providers:
        print(f"{provider}: a real plan-mode turn ...")
        problem = run(provider, core_binary)
        print(f"  {'FAILED: ' + problem if problem else 'ok'}")
        failures += bool(problem)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
