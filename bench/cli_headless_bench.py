#!/usr/bin/env python3
"""Whole-process benchmark of a headless plan-mode turn: `rio-cli -p --mode plan` with the
script provider on a copy of examples/demo/ (read three files, present a plan, exit 2).
Prints the median wall time and the median peak RSS (the larger of rio-cli and its
rio-core: wait4 reports the maximum over a child and the children it reaped). With
--baseline OTHER_BUILD_DIR, that build's rio-cli runs too, alternating run by run, so that
both see the same machine.

  cli_headless_bench.py [BUILD_DIR] [RUNS] [--baseline OTHER_BUILD_DIR]
"""
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one_run(rio_cli, script):
    work = tempfile.mkdtemp(prefix="rio-bench-")
    project = os.path.join(work, "demo")
    shutil.copytree(os.path.join(ROOT, "examples", "demo"), project)
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"),
               XDG_DATA_HOME=os.path.join(work, "data"),
               XDG_STATE_HOME=os.path.join(work, "state"), OLLAMA_HOST="127.0.0.1:1")
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "RIO_PROVIDER"):
        env.pop(name, None)
    argv = [rio_cli, "-p", "Add a --shout flag to greet.py", "--mode", "plan",
            "--provider", "script:" + script, project]
    devnull = os.open(os.devnull, os.O_WRONLY)
    start = time.perf_counter()
    pid = os.posix_spawn(rio_cli, argv, env,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1),
                                       (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - start
    os.close(devnull)
    shutil.rmtree(work)
    code = os.waitstatus_to_exitcode(status)
    if code != 2:
        raise SystemExit(f"expected exit 2 (plan filed), got {code}")
    return elapsed, usage.ru_maxrss  # KiB


def main():
    args = sys.argv[1:]
    builds = {}
    if "--baseline" in args:
        at = args.index("--baseline")
        builds["baseline"] = args[at + 1]
        del args[at:at + 2]
    build = args[0] if args else os.path.join(ROOT, "build")
    runs = int(args[1]) if len(args) > 1 else 9
    builds = {"this build": build, **builds}
    script = os.path.join(ROOT, "examples", "demo.script.json")
    results = {name: [] for name in builds}
    for name, path in builds.items():
        one_run(os.path.join(path, "rio-cli"), script)  # warm the page cache
    for _ in range(runs):
        for name, path in builds.items():
            results[name].append(one_run(os.path.join(path, "rio-cli"), script))
    print(f"rio-cli -p --mode plan (script provider, examples/demo), {runs} runs:")
    for name, rs in results.items():
        wall = statistics.median(r[0] for r in rs) * 1000
        rss = statistics.median(r[1] for r in rs) / 1024
        print(f"  {name} ({builds[name]}):")
        print(f"    wall time median {wall:.1f} ms (min {min(r[0] for r in rs) * 1000:.1f}, "
              f"max {max(r[0] for r in rs) * 1000:.1f})")
        print(f"    peak RSS median {rss:.1f} MiB")


if __name__ == "__main__":
    main()
