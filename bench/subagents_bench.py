#!/usr/bin/env python3
"""Whole-process benchmark of subagents (issue 48, DESIGN §23): rio-cli -p asks three
questions in one step (three `task` calls) against the tests' fake Anthropic server, each
subagent reading two files and answering; every subagent response waits `DELAY` seconds
before its first byte, as a model's first token does. Runs with subagents.at_once 3 (the
default) and 1, and prints the wall time of each, the peak RSS of the core, and the bill of
all the requests as cache_bill_bench.py computes it (the subagents' requests share the
parent's tools and system prompt, the cached prefix).

  subagents_bench.py [BUILD_DIR] [RUNS]
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cache_bill_bench import FAKE, bill, source_file  # noqa: E402

DELAY = 0.3


def script():
    tasks = [{"id": f"t{n}", "name": "task",
              "input": {"description": f"module {n}", "prompt": f"What does mod{n}.py set?"}}
             for n in range(3)]
    # Responses go in arrival order: the subagents' requests come in rounds (each waits for
    # its answer), so the first two rounds read and the third answers, whichever asks.
    steps = [{"tools": tasks}]
    for n in range(6):
        steps.append({"tools": [{"name": "read_file", "input": {"path": f"mod{n}.py"}}],
                      "delay_s": DELAY})
    for n in range(3):
        steps.append({"text": f"mod{n}.py sets VALUE_0 to VALUE_33.", "delay_s": DELAY})
    steps.append({"text": "All three modules set 34 values each."})
    return {"responses": steps}


def run(rio_cli, at_once):
    work = tempfile.mkdtemp(prefix="rio-subagents-")
    try:
        project = os.path.join(work, "project")
        os.makedirs(project)
        os.makedirs(os.path.join(work, "config", "rio"))
        with open(os.path.join(work, "config", "rio", "config.json"), "w") as f:
            json.dump({"subagents": {"at_once": at_once}}, f)
        with open(os.path.join(work, "config", "rio", "lsp.json"), "w") as f:
            json.dump({"servers": {name: {"disabled": True} for name in
                                   ("clangd", "pylsp", "typescript", "rust-analyzer", "gopls")}},
                      f)
        for n in range(6):
            with open(os.path.join(project, f"mod{n}.py"), "w") as f:
                f.write(source_file(n))
        with open(os.path.join(work, "script.json"), "w") as f:
            json.dump(script(), f)
        log = os.path.join(work, "log.jsonl")
        server = subprocess.Popen([sys.executable, FAKE, "--script",
                                   os.path.join(work, "script.json"), "--log", log],
                                  stdout=subprocess.PIPE, text=True)
        try:
            port = server.stdout.readline().strip().rsplit(":", 1)[1]
            env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"),
                       XDG_DATA_HOME=os.path.join(work, "data"),
                       XDG_STATE_HOME=os.path.join(work, "state"), OLLAMA_HOST="127.0.0.1:1",
                       ANTHROPIC_BASE_URL="http://127.0.0.1:" + port,
                       ANTHROPIC_API_KEY="sk-bench")
            env.pop("RIO_PROVIDER", None)
            started = time.perf_counter()
            done = subprocess.run(["/usr/bin/time", "-f", "%M", rio_cli, "-p",
                                   "What do the first three modules set?", "--mode", "plan",
                                   "--provider", "anthropic", project],
                                  env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, timeout=120)
            wall = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait()
        if done.returncode != 0:
            raise SystemExit(f"rio-cli exited {done.returncode}:\n{done.stderr}")
        with open(log) as f:
            requests = [json.loads(line) for line in f if line.strip()]
        bodies = [r["body"] for r in requests if r.get("event") == "request" and r.get("body")]
        peak_kib = int(done.stderr.strip().splitlines()[-1])
        return wall, peak_kib, bodies
    finally:
        shutil.rmtree(work)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rio_cli = os.path.join(build, "rio-cli")
    for at_once in (3, 1):
        walls, peaks = [], []
        for _ in range(runs):
            wall, peak, bodies = run(rio_cli, at_once)
            walls.append(wall)
            peaks.append(peak)
        cost, _, _ = bill(bodies)
        print(f"3 subagents, at_once {at_once}: {len(bodies)} requests, wall median "
              f"{statistics.median(walls):.2f} s (each subagent response waits {DELAY} s), "
              f"peak RSS {statistics.median(peaks) / 1024:.1f} MiB (rio-cli or its core), bill "
              f"{cost / 1000:.1f}k token-equivalents")


if __name__ == "__main__":
    main()
