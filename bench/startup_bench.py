#!/usr/bin/env python3
"""Start-up cost of the programs a frontend spawns: `rio-core --version` and
`rio-cli --version`, whole process. Prints CPU per run (user + system from wait4, summed
over every run and divided: the kernel samples CPU time in ticks, so one run's figure is
coarse but the mean of many is not) and the median wall time; with valgrind installed,
also the instructions one run executes, which do not depend on how busy the machine is.
Budget (issue 18): rio-core --version at most 3 ms of CPU. With --baseline OTHER_BUILD_DIR,
that build's programs run too, alternating run by run.

  startup_bench.py [BUILD_DIR] [RUNS] [--baseline OTHER_BUILD_DIR]
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one_run(argv):
    devnull = os.open(os.devnull, os.O_WRONLY)
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv} failed")
    return wall, usage.ru_utime + usage.ru_stime


def instructions(argv):
    if not shutil.which("valgrind"):
        return None
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv,
                       capture_output=True, text=True)
    m = re.search(r"refs:\s+([\d,]+)", r.stderr)
    return int(m.group(1).replace(",", "")) if m else None


def main():
    args = sys.argv[1:]
    builds = {}
    if "--baseline" in args:
        at = args.index("--baseline")
        builds["baseline"] = args[at + 1]
        del args[at:at + 2]
    build = args[0] if args else os.path.join(ROOT, "build")
    runs = int(args[1]) if len(args) > 1 else 200
    builds = {"this build": build, **builds}
    for program in ("rio-core", "rio-cli"):
        argvs = {name: [os.path.join(path, program), "--version"] for name, path in builds.items()}
        for argv in argvs.values():
            one_run(argv)  # warm the page cache
        results = {name: [] for name in builds}
        for _ in range(runs):
            for name, argv in argvs.items():
                results[name].append(one_run(argv))
        for name, rs in results.items():
            cpu = sum(r[1] for r in rs) / runs * 1000
            wall = statistics.median(r[0] for r in rs) * 1000
            count = instructions(argvs[name])
            label = program if len(builds) == 1 else f"{program} ({name})"
            print(f"{label} --version, {runs} runs: CPU {cpu:.2f} ms per run, "
                  f"wall median {wall:.2f} ms" +
                  (f", {count / 1e6:.2f} M instructions" if count else ""))


if __name__ == "__main__":
    main()
