#!/usr/bin/env python3
"""The core while another program writes 50,000 files into the project (issue 42 item 4).

A real rio-core follows a project (a `src/` folder and no .gitignore, so a new
`node_modules/` is watched like any folder). A separate process writes 1,000 packages of 50
files each under `node_modules/`, as `npm install` in a fresh clone does. Meanwhile this
script asks the core `fs.list src` every 5 ms and times each round trip: what a person
feels as the file tree and the editor answering. It reports the round trips' median, 99th
percentile and worst, the `fs.changed` events the burst produced (how many, the most paths
one named, the bytes a client had to read) and the core's CPU for the whole burst. After the
writer exits, one more file is written and the time until an `fs.changed` covers it says how
long the core took to catch up.

  watch_burst_bench.py [BUILD_DIR] [RUNS] [--baseline OTHER_BUILD_DIR]
"""
import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES, FILES_PER_PACKAGE = 1000, 50

WRITER = f"""
import os, sys
root = sys.argv[1]
for p in range({PACKAGES}):
    lib = os.path.join(root, "node_modules", f"pkg{{p:04}}", "lib")
    os.makedirs(lib)
    for f in range({FILES_PER_PACKAGE}):
        with open(os.path.join(lib, f"f{{f:02}}.js"), "w") as out:
            out.write("module.exports = 1;\\n")
"""


def covers(paths, rel):
    return any(p == "." or p == rel or rel.startswith(p + "/") for p in paths)


class Core:
    def __init__(self, binary, root, home):
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home + "/c",
                   XDG_DATA_HOME=home + "/d", XDG_STATE_HOME=home + "/s")
        self.proc = subprocess.Popen([binary, "--project", root, "--provider", "echo"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
        self.out = self.proc.stdout.fileno()
        self.buffer = b""
        self.next_id = 1
        self.changed = []  # each fs.changed's paths
        self.changed_bytes = 0

    def cpu(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def read_line(self, timeout=None):
        while b"\n" not in self.buffer:
            if timeout is not None and not select.select([self.out], [], [], timeout)[0]:
                return None
            chunk = os.read(self.out, 1 << 20)
            if not chunk:
                raise SystemExit("rio-core exited")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        if line.startswith(b'{"event":"fs.changed"'):
            self.changed.append(json.loads(line)["params"]["paths"])
            self.changed_bytes += len(line) + 1
        return line

    def ask(self, op, params):
        rid = self.next_id
        self.next_id += 1
        start = time.perf_counter()
        self.proc.stdin.write(json.dumps({"id": rid, "op": op, "params": params}).encode() + b"\n")
        self.proc.stdin.flush()
        while True:
            line = self.read_line()
            if line.startswith(b'{"id":' + str(rid).encode() + b","):
                return time.perf_counter() - start

    def wait_for_change(self, rel, timeout=60):
        deadline = time.perf_counter() + timeout
        while not any(covers(paths, rel) for paths in self.changed):
            if self.read_line(max(0.0, deadline - time.perf_counter())) is None:
                raise SystemExit(f"no fs.changed covered {rel}")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def one_run(build):
    work = tempfile.mkdtemp(prefix="rio-watch-burst-")
    root, home = os.path.join(work, "p"), os.path.join(work, "home")
    os.makedirs(os.path.join(root, "src"))
    os.makedirs(home)
    for i in range(20):
        with open(os.path.join(root, "src", f"m{i}.js"), "w") as f:
            f.write("export const x = 1;\n")
    core = Core(os.path.join(build, "rio-core"), root, home)
    core.ask("fs.list", {"path": "src"})  # started and answering
    cpu = core.cpu()
    writer = subprocess.Popen([sys.executable, "-c", WRITER, root])
    trips = []
    start = time.perf_counter()
    while writer.poll() is None:
        trips.append(core.ask("fs.list", {"path": "src"}))
        time.sleep(0.005)  # a person's pace, not a load of its own
    writing = time.perf_counter() - start
    with open(os.path.join(root, "after.txt"), "w") as f:
        f.write("x\n")
    written = time.perf_counter()
    core.wait_for_change("after.txt")
    caught_up = time.perf_counter() - written
    cpu = core.cpu() - cpu
    core.close()
    files = [f"node_modules/pkg{p:04}/lib/f{f:02}.js"
             for p in range(PACKAGES) for f in range(FILES_PER_PACKAGE)]
    named = [path for paths in core.changed for path in paths]
    missed = sum(1 for rel in files[::97] if not covers(named, rel))
    shutil.rmtree(work)
    trips.sort()
    return {
        "writing_s": writing,
        "trips": len(trips),
        "median_ms": statistics.median(trips) * 1000,
        "p99_ms": trips[int(len(trips) * 0.99)] * 1000 if trips else 0,
        "worst_ms": trips[-1] * 1000 if trips else 0,
        "events": len(core.changed),
        "most_paths": max((len(p) for p in core.changed), default=0),
        "paths": len(named),
        "event_kib": core.changed_bytes / 1024,
        "caught_up_ms": caught_up * 1000,
        "cpu_s": cpu,
        "missed": missed,
    }


def main():
    args = sys.argv[1:]
    builds = {}
    if "--baseline" in args:
        at = args.index("--baseline")
        builds["baseline"] = args[at + 1]
        del args[at:at + 2]
    build = args[0] if args else os.path.join(ROOT, "build")
    runs = int(args[1]) if len(args) > 1 else 3
    builds = {"this build": build, **builds}
    results = {name: [] for name in builds}
    for _ in range(runs):
        for name, path in builds.items():
            results[name].append(one_run(path))
    print(f"rio-core while another process writes {PACKAGES * FILES_PER_PACKAGE:,} files "
          f"({PACKAGES} folders) into the project, {runs} runs, medians:")
    for name, runs_of in results.items():
        m = {key: statistics.median(r[key] for r in runs_of) for key in runs_of[0]}
        print(f"  {name} ({builds[name]}):")
        print(f"    fs.list round trip during the burst: median {m['median_ms']:.2f} ms, "
              f"p99 {m['p99_ms']:.1f} ms, worst {m['worst_ms']:.1f} ms "
              f"({m['trips']:.0f} trips in {m['writing_s']:.1f} s of writing)")
        print(f"    fs.changed: {m['events']:.0f} events, at most {m['most_paths']:.0f} paths in "
              f"one, {m['paths']:.0f} paths, {m['event_kib']:.0f} KiB")
        print(f"    caught up {m['caught_up_ms']:.0f} ms after the writer exited; "
              f"core CPU {m['cpu_s']:.2f} s")
        if any(r["missed"] for r in runs_of):
            raise SystemExit(f"{name}: a written file was covered by no fs.changed")


if __name__ == "__main__":
    main()
