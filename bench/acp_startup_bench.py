#!/usr/bin/env python3
"""rio-acp as an editor meets it: from spawning it to its answer to `initialize`, and then
a session opened (its private rio-core started) — median of 20 runs, wall time; peak RSS
of rio-acp itself (wait4). Budget: none yet; the figures are in docs/BENCHMARKS.md.

  acp_startup_bench.py [BUILD_DIR] [RUNS]
"""
import json
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one_run(rio_acp, project, env):
    to_acp_r, to_acp_w = os.pipe()
    from_acp_r, from_acp_w = os.pipe()
    start = time.perf_counter()
    pid = os.posix_spawn(rio_acp, [rio_acp, "--provider", "echo"], env,
                         file_actions=[(os.POSIX_SPAWN_DUP2, to_acp_r, 0),
                                       (os.POSIX_SPAWN_DUP2, from_acp_w, 1)])
    os.close(to_acp_r)
    os.close(from_acp_w)
    reader = os.fdopen(from_acp_r, "r")

    def ask(message):
        os.write(to_acp_w, (json.dumps(message) + "\n").encode())
        while True:
            reply = json.loads(reader.readline())
            if reply.get("id") == message["id"]:
                return reply

    ask({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 1}})
    initialized = time.perf_counter() - start
    ask({"jsonrpc": "2.0", "id": 1, "method": "session/new",
         "params": {"cwd": project, "mcpServers": []}})
    session = time.perf_counter() - start
    os.close(to_acp_w)
    _, status, usage = os.wait4(pid, 0)
    reader.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("rio-acp failed")
    return initialized, session, usage.ru_maxrss / 1024


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    rio_acp = os.path.join(build, "rio-acp")
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_CONFIG_HOME=home + "/config", XDG_STATE_HOME=home + "/state",
                   XDG_DATA_HOME=home + "/data")
        project = os.path.join(ROOT, "examples", "demo")
        one_run(rio_acp, project, env)  # warm the page cache
        results = [one_run(rio_acp, project, env) for _ in range(runs)]
    ms = lambda xs: statistics.median(xs) * 1000
    print(f"rio-acp, {runs} runs:")
    print(f"  spawn -> initialize answered: median {ms([r[0] for r in results]):.2f} ms")
    print(f"  spawn -> session/new answered (its rio-core started): "
          f"median {ms([r[1] for r in results]):.2f} ms")
    print(f"  peak RSS of rio-acp: median {statistics.median(r[2] for r in results):.1f} MiB")


if __name__ == "__main__":
    main()
