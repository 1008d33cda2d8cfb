#!/usr/bin/env python3
"""Git changes on a 50,000-file repository (issue 47), whole process: a real rio-core answers
git.status (the Changes panel) and git.marks (the margin of a file with an unsaved edit) while
the repository has a few changed files; beside them the git command a person would run for
the same answer (`git status --porcelain`, `git diff -- FILE`). Median of RUNS each. The
repository is made once, under the temporary folder, and kept for the next run.

  git_marks_bench.py [BUILD_DIR] [RUNS] [--files N]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com"]


def repository(files):
    path = os.path.join(tempfile.gettempdir(), f"rio-git-bench-{files}")
    if os.path.isdir(os.path.join(path, ".git")):
        return path
    os.makedirs(path, exist_ok=True)
    for i in range(files):
        folder = os.path.join(path, f"src/d{i // 500:03d}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"f{i:05d}.c"), "w") as f:
            f.write("".join(f"int value_{i}_{n} = {n};\n" for n in range(40)))
    subprocess.run(GIT + ["init", "-q", "-b", "main"], cwd=path, check=True)
    subprocess.run(GIT + ["add", "-A"], cwd=path, check=True)
    subprocess.run(GIT + ["commit", "-q", "-m", "bench"], cwd=path, check=True)
    return path


def timed(runs, work):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


class Core:
    def __init__(self, core, project):
        self.p = subprocess.Popen([core, "--stdio", "--project", project],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.next_id = 1

    def request(self, op, params):
        ident = self.next_id
        self.next_id += 1
        self.p.stdin.write(json.dumps({"id": ident, "op": op, "params": params}) + "\n")
        self.p.stdin.flush()
        while True:
            m = json.loads(self.p.stdout.readline())
            if m.get("id") == ident:
                if not m["ok"]:
                    raise SystemExit(f"{op}: {m}")
                return m["result"]

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def main():
    args = sys.argv[1:]
    files = 50_000
    if "--files" in args:
        at = args.index("--files")
        files = int(args[at + 1])
        del args[at:at + 2]
    build = args[0] if args else os.path.join(ROOT, "build")
    runs = int(args[1]) if len(args) > 1 else 21
    path = repository(files)
    edited = "src/d010/f05000.c"
    # A few files changed on disk, one of them the file the margin shows.
    for name in (edited, f"src/d{files // 1000:03d}/f{files // 2:05d}.c",
                 f"src/d{(files - 1) // 500:03d}/f{files - 1:05d}.c"):
        if os.path.exists(os.path.join(path, name)):
            with open(os.path.join(path, name), "a") as f:
                f.write("int changed_on_disk = 1;\n")
    try:
        core = Core(os.path.join(build, "rio-core"), path)
        state = core.request("buffer.open", {"path": edited})
        text = state["text"].replace("value_5000_7 = 7", "value_5000_7 = 70")
        core.request("buffer.replace", {"path": edited, "text": text, "version": state["version"]})
        status = timed(runs, lambda: core.request("git.status", {}))
        marks = timed(runs, lambda: core.request("git.marks", {"path": edited}))
        listed = len(core.request("git.status", {})["files"])
        hunks = len(core.request("git.marks", {"path": edited})["hunks"])
        core.close()
        git_status = timed(runs, lambda: subprocess.run(
            ["git", "status", "--porcelain"], cwd=path, check=True, capture_output=True))
        git_diff = timed(runs, lambda: subprocess.run(
            ["git", "diff", "--", edited], cwd=path, check=True, capture_output=True))
    finally:
        subprocess.run(["git", "checkout", "-q", "--", "."], cwd=path, check=True)
    print(f"{files} files, {listed} changed; the margin's file has {hunks} hunks")
    print(f"status  rio-core git.status {status * 1e3:7.1f} ms   git status --porcelain "
          f"{git_status * 1e3:7.1f} ms")
    print(f"marks   rio-core git.marks  {marks * 1e3:7.2f} ms   git diff -- FILE       "
          f"{git_diff * 1e3:7.2f} ms")


if __name__ == "__main__":
    main()
