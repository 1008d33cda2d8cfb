#!/usr/bin/env python3
"""A search with many matches, through the protocol, against ripgrep (issue 27 item 4).

A generated tree (2,000 files in 40 folders, 100 lines each, half of them holding the
word the search looks for: 100,000 matching lines, 12 MB) is searched by `fs.search` with
`max_matches` raised past every match, through a real rio-core over stdio: timed from the
request's first byte to the reply's last, the reply read whole (not parsed: a frontend
shows the first matches before it has parsed the last). `rg -n` runs on the same tree as a
whole process writing to a pipe this script reads whole (rg writing to /dev/null notices
and goes quiet). Runs alternate; medians are quoted, with the CPU time each engine spent per
run (rio-core's from /proc, rg's from wait4; both count every thread), which a busy machine
disturbs less than the wall time. Every engine must report the same number of lines, or the
benchmark fails.

  search_many_bench.py [BUILD_DIR] [RUNS] [--baseline OTHER_RIO_CORE]
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS, FILES_PER_FOLDER, LINES_PER_FILE = 40, 50, 100
PATTERN = "needle"


def make_tree(root):
    # A .git folder makes rg honour ignore files as it would in a checkout.
    os.makedirs(os.path.join(root, ".git"))
    words = ["alpha", "beta", "gamma", "delta", "result", "value", "index", "count"]
    n = 0
    for d in range(FOLDERS):
        folder = os.path.join(root, "src", f"mod{d:02}")
        os.makedirs(folder)
        for f in range(FILES_PER_FOLDER):
            lines = []
            for i in range(LINES_PER_FILE):
                w = words[(i + f + d) % len(words)]
                if i % 2 == 0:
                    lines.append(f"    let {w}_{i} = find_{PATTERN}(&{w}s, {i}); // step {n}")
                else:
                    lines.append(f"    total += {w}_{i - 1}.len() * {i}; // {w} again")
                n += 1
            with open(os.path.join(folder, f"file{f:03}.rs"), "w") as out:
                out.write("\n".join(lines) + "\n")


class Core:
    def __init__(self, binary, root):
        self.proc = subprocess.Popen([binary, "--project", root], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.out = self.proc.stdout.fileno()
        self.buffer = b""
        self.next_id = 1

    def line(self):
        """The next line, read in large chunks; only each new chunk is looked at for its end."""
        chunks = [self.buffer]
        while b"\n" not in chunks[-1]:
            chunk = os.read(self.out, 1 << 20)
            if not chunk:
                raise SystemExit("rio-core exited")
            chunks.append(chunk)
        line, _, self.buffer = b"".join(chunks).partition(b"\n")
        return line

    def cpu(self):
        """User + system seconds the core has used so far (every thread)."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def search(self):
        """Seconds from the request to the reply's last byte, the reply, and the CPU seconds."""
        cpu = self.cpu()
        rid = self.next_id
        self.next_id += 1
        request = json.dumps({"id": rid, "op": "fs.search",
                              "params": {"pattern": PATTERN, "max_matches": 1_000_000}})
        start = time.perf_counter()
        self.proc.stdin.write(request.encode() + b"\n")
        self.proc.stdin.flush()
        while True:
            line = self.line()
            if line.startswith(b'{"event"'):
                continue
            return time.perf_counter() - start, line, self.cpu() - cpu

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def matches_in(reply):
    result = json.loads(reply)["result"]
    if "files" in result:
        return sum(len(f["matches"]) for f in result["files"])
    return len(result["matches"])


def rg_run(rg, root):
    start = time.perf_counter()
    proc = subprocess.Popen([rg, "-n", PATTERN, root], stdout=subprocess.PIPE)
    out = proc.stdout.fileno()
    chunks = []
    while True:
        chunk = os.read(out, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    _, _, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, b"".join(chunks), usage.ru_utime + usage.ru_stime


def main():
    args = sys.argv[1:]
    baseline = None
    if "--baseline" in args:
        at = args.index("--baseline")
        baseline = args[at + 1]
        del args[at:at + 2]
    build = args[0] if args else os.path.join(ROOT, "build")
    runs = int(args[1]) if len(args) > 1 else 21
    rg = shutil.which("rg")
    if not rg:
        raise SystemExit("rg not found: install ripgrep (scripts/install-deps)")
    with tempfile.TemporaryDirectory(prefix="rio-search-many-") as root:
        root = os.path.realpath(root)
        make_tree(root)
        engines = {"rio-core": Core(os.path.join(build, "rio-core"), root)}
        if baseline:
            engines["baseline rio-core"] = Core(baseline, root)
        _, rg_out, _ = rg_run(rg, root)  # warm the page cache
        expected = rg_out.count(b"\n")
        times = {name: [] for name in list(engines) + ["rg -n | pipe"]}
        cpus = {name: [] for name in times}
        sizes = {}
        for name, core in engines.items():
            _, reply, _ = core.search()
            got = matches_in(reply)
            if got != expected:
                raise SystemExit(f"{name} found {got} matching lines, rg {expected}")
            sizes[name] = len(reply)
        sizes["rg -n | pipe"] = len(rg_out)
        for _ in range(runs):
            for name, core in engines.items():
                wall, _, cpu = core.search()
                times[name].append(wall)
                cpus[name].append(cpu)
            wall, _, cpu = rg_run(rg, root)
            times["rg -n | pipe"].append(wall)
            cpus["rg -n | pipe"].append(cpu)
        for core in engines.values():
            core.close()
    rg_median = statistics.median(times["rg -n | pipe"])
    rg_cpu = sum(cpus["rg -n | pipe"]) / runs
    print(f"{expected} matching lines in {FOLDERS * FILES_PER_FOLDER} files, {runs} runs each")
    for name, samples in times.items():
        median = statistics.median(samples)
        cpu = sum(cpus[name]) / runs
        print(f"  {name:20} wall median {median * 1000:7.1f} ms ({median / rg_median:4.2f}x rg)  "
              f"CPU {cpu * 1000:6.1f} ms ({cpu / rg_cpu:4.2f}x rg)  "
              f"output {sizes[name] / 1e6:5.1f} MB")


if __name__ == "__main__":
    main()
