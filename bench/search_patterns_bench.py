#!/usr/bin/env python3
"""Regex patterns on real trees, through the protocol, against ripgrep (issue 40 item 7).

Each tree is searched for each pattern by `fs.search` with `max_matches` raised past every
match, through a real rio-core over stdio (warm: the project open, the page cache holding
the tree), timed from the request's first byte to the reply's last, read whole; and by
`rg -n --hidden` as a whole process writing to a pipe this script reads whole (--hidden: rio
searches hidden files too, so both read the same files and must print the same number of
lines, but for a binary file whose NUL rg meets after a match, or the benchmark fails). Runs alternate; medians are quoted with the ratio rio / rg,
and the mean CPU time each spent per run (rio-core's from /proc, in clock ticks; rg's
from wait4).

  search_patterns_bench.py [--build BUILD_DIR] [--runs N] [--baseline OTHER_RIO_CORE]
                           [--regex PATTERN ...] [--generated] [TREE ...]

A TREE is a folder (a checkout, or `git archive` output: a `.git` folder is made in it when
missing so that rg honours .gitignore as rio does). --generated adds a generated tree of
code-like text. --regex (repeatable) searches those regexes instead of the default patterns.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (pattern, regex): the alternation and the class the issue measured, a lowercase
# alternation of common letters, and literals for reference (one rare, one common).
PATTERNS = [
    ("TODO|FIXME|XXX", True),
    ("[A-Z]{3,}_[0-9]+", True),
    ("malloc|calloc|realloc", True),
    ("FIXME", False),
    ("static", False),
]


def make_tree(root, files=3000, lines=200):
    """Code-like text: identifiers, calls, comments, some TODOs and CONSTANT_42s."""
    rng = random.Random(20261204)
    words = ["value", "count", "index", "buffer", "result", "token", "node", "size", "line",
             "offset", "parse", "emit", "static", "struct", "return", "malloc", "free"]
    notes = ["TODO: check", "FIXME later", "XXX hack", "see MAX_SIZE_16", "uses HTTP_2"]
    for f in range(files):
        folder = os.path.join(root, "src", f"mod{f % 30:02}")
        os.makedirs(folder, exist_ok=True)
        out = []
        for _ in range(lines):
            a, b = rng.choice(words), rng.choice(words)
            line = f"{' ' * 4 * rng.randrange(3)}{a}_{b}({rng.randrange(1000)});"
            if rng.randrange(40) == 0:
                line += " // " + rng.choice(notes)
            out.append(line)
        with open(os.path.join(folder, f"file{f:04}.c"), "w") as fh:
            fh.write("\n".join(out) + "\n")


def ensure_git_folder(tree):
    git = os.path.join(tree, ".git")
    if not os.path.exists(git):
        os.makedirs(git)
        with open(os.path.join(git, "HEAD"), "w") as fh:
            fh.write("ref: refs/heads/main\n")


class Core:
    def __init__(self, binary, root):
        self.proc = subprocess.Popen([binary, "--project", root], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.out = self.proc.stdout.fileno()
        self.buffer = b""
        self.next_id = 1

    def line(self):
        chunks = [self.buffer]
        while b"\n" not in chunks[-1]:
            chunk = os.read(self.out, 1 << 20)
            if not chunk:
                raise SystemExit("rio-core exited")
            chunks.append(chunk)
        line, _, self.buffer = b"".join(chunks).partition(b"\n")
        return line

    def cpu(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def search(self, pattern, regex):
        cpu = self.cpu()
        rid = self.next_id
        self.next_id += 1
        request = json.dumps({"id": rid, "op": "fs.search",
                              "params": {"pattern": pattern, "regex": regex,
                                         "max_matches": 10_000_000}})
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


def rg_lines(out):
    """Matching lines rg printed, less those of files it found binary after a match (it
    prints their lines before a NUL and a warning; rio skips a file with a NUL anywhere)."""
    lines = out.split(b"\n")
    binary = {l.split(b": WARNING: stopped searching binary file")[0] + b":"
              for l in lines if b": WARNING: stopped searching binary file" in l}
    return sum(1 for l in lines if l and not any(l.startswith(b) for b in binary))


def matches_in(reply):
    result = json.loads(reply)["result"]
    return sum(len(f["matches"]) for f in result["files"])


def rg_run(rg, root, pattern, regex):
    args = [rg, "-n", "--hidden"] + ([] if regex else ["-F"]) + ["-e", pattern]
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, cwd=root)
    out = proc.stdout.fileno()
    chunks = []
    while True:
        chunk = os.read(out, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    _, _, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, b"".join(chunks), usage.ru_utime + usage.ru_stime


def bench_tree(name, root, build, baseline, runs, rg, patterns):
    engines = {"rio": Core(os.path.join(build, "rio-core"), root)}
    if baseline:
        engines["baseline"] = Core(baseline, root)
    files = sum(len(fs) for _, _, fs in os.walk(root))
    print(f"{name}: {files} files")
    for pattern, regex in patterns:
        _, rg_out, _ = rg_run(rg, root, pattern, regex)  # warm the page cache
        expected = rg_lines(rg_out)
        for engine, core in engines.items():
            _, reply, _ = core.search(pattern, regex)
            if matches_in(reply) != expected:
                raise SystemExit(f"{name} {pattern}: {engine} found {matches_in(reply)} "
                                 f"matching lines, rg {expected}")
        walls = {e: [] for e in list(engines) + ["rg"]}
        cpus = {e: [] for e in walls}
        for _ in range(runs):
            for engine, core in engines.items():
                wall, _, cpu = core.search(pattern, regex)
                walls[engine].append(wall)
                cpus[engine].append(cpu)
            wall, _, cpu = rg_run(rg, root, pattern, regex)
            walls["rg"].append(wall)
            cpus["rg"].append(cpu)
        rg_wall = statistics.median(walls["rg"])
        rg_cpu = statistics.mean(cpus["rg"])
        row = [f"  {pattern!r:26} {'regex' if regex else 'literal':7} {expected:6} lines"]
        for engine in walls:
            wall, cpu = statistics.median(walls[engine]), statistics.mean(cpus[engine])
            ratio = "" if engine == "rg" else f" ({wall / rg_wall:4.2f}x rg, CPU {cpu / rg_cpu:4.2f}x)"
            row.append(f"{engine} {wall * 1000:7.1f} ms{ratio}")
        print(" | ".join(row))
    for core in engines.values():
        core.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--baseline")
    parser.add_argument("--generated", action="store_true")
    parser.add_argument("--regex", action="append", default=[])
    parser.add_argument("trees", nargs="*")
    args = parser.parse_args()
    rg = shutil.which("rg")
    if not rg:
        raise SystemExit("rg not found: install ripgrep (scripts/install-deps)")
    patterns = [(p, True) for p in args.regex] or PATTERNS
    print(f"{args.runs} runs each, medians; load average {os.getloadavg()[0]:.1f}")
    for tree in args.trees:
        tree = os.path.realpath(tree)
        ensure_git_folder(tree)
        bench_tree(os.path.basename(tree), tree, args.build, args.baseline, args.runs, rg,
                   patterns)
    if args.generated:
        with tempfile.TemporaryDirectory(prefix="rio-search-patterns-") as root:
            root = os.path.realpath(root)
            make_tree(root)
            ensure_git_folder(root)
            bench_tree("generated", root, args.build, args.baseline, args.runs, rg, patterns)


if __name__ == "__main__":
    main()
