#!/usr/bin/env python3
"""Start-up cost of the programs a frontend spawns: `rio-core --version` and
`rio-cli --version`, whole process. Prints CPU per run (user + system from wait4, summed
over every run and divided: the kernel samples CPU time in ticks, so one run's figure is
coarse but the mean of many is not) and the median wall time; with valgrind installed,
also the instructions one run executes, which do not depend on how busy the machine is.
Budget (issue 18): rio-core --version at most 3 ms of CPU.

  startup_bench.py [BUILD_DIR] [RUNS]
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
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    for program in ("rio-core", "rio-cli"):
        argv = [os.path.join(build, program), "--version"]
        one_run(argv)  # warm the page cache
        results = [one_run(argv) for _ in range(runs)]
        cpu = sum(r[1] for r in results) / runs * 1000
        wall = statistics.median(r[0] for r in results) * 1000
        count = instructions(argv)
        print(f"{program} --version, {runs} runs: CPU {cpu:.2f} ms per run, "
              f"wall median {wall:.2f} ms" +
              (f", {count / 1e6:.2f} M instructions" if count else ""))


if __name__ == "__main__":
    main()
