#!/usr/bin/env python3
"""rio's desktop against the editors a user would otherwise pick, timed the same way from
outside (issue 46 deliver 4): each editor started by bench/x11_probe on a 100,000-line C file
under Xvfb with a window manager, with fresh settings every run.

  first paint   launch → the first painted window content
  shown         launch → the file on screen (the window's title names it)
  type          a letter typed → its pixels (median and p99 over every key of every run;
                lines of 20 letters)
  50 PgDn       50 Page Downs sent at once → the last pixels they changed, and in how many
                paints (a paint 100 ms after the others is a language server's, not counted)

rio runs twice: as a fresh user meets it (the project not yet trusted, so no language server)
and in a trusted project, where clangd parses the file while all this happens. Editors not
installed are left out (kate, gedit and geany are Debian packages).

usage: bench/desktop_x11_bench.py BUILD_DIR [RUNS] [--baseline OLD_BUILD_DIR]
       [--baseline-title WORD] [--size WxH]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

KEYS = 60
BURST = 50


def write_project(root):
    os.makedirs(os.path.join(root, "src"))
    lines = ["/* big.c: 100,000 lines */", "#include <stdio.h>", ""]
    i = 0
    while len(lines) < 100000:
        lines += [f"int f{i}(int x) {{", f"    return x * {i % 97} + {i};", "}", ""]
        i += 1
    with open(os.path.join(root, "big.c"), "w") as out:
        out.write("\n".join(lines[:100000]) + "\n")
    for n in range(40):
        with open(os.path.join(root, "src", f"m{n}.c"), "w") as out:
            out.write(f"int m{n}(void) {{ return {n}; }}\n")


def free_display():
    for n in range(90, 200):
        if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
            return f":{n}"
    sys.exit("no free X display number")


def start_x(size):
    display = free_display()
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(f"/tmp/.X11-unix/X{display[1:]}"):
            break
        time.sleep(0.05)
    wm = subprocess.Popen(["openbox"], env=dict(os.environ, DISPLAY=display),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)  # openbox takes the screen
    return display, [wm, xvfb]


def fresh_home(base):
    home = tempfile.mkdtemp(dir=base)
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=f"{home}/.config",
               XDG_DATA_HOME=f"{home}/.local/share", XDG_CACHE_HOME=f"{home}/.cache",
               XDG_STATE_HOME=f"{home}/.local/state", XDG_RUNTIME_DIR=f"{home}/run")
    for d in (".config/rio", ".local/share", ".cache", ".local/state", "run"):
        os.makedirs(f"{home}/{d}", mode=0o700, exist_ok=True)
    return home, env


def trust(home, project):
    with open(f"{home}/.config/rio/trust.json", "w") as out:
        json.dump({"projects": {os.path.realpath(project): {"files": {}}}}, out)


def editors(build, baseline, baseline_title, project):
    big = os.path.join(project, "big.c")
    found = []
    for label, rio_build in (("rio", build), ("rio (previous)", baseline)):
        if not rio_build:
            continue
        command = [f"{rio_build}/rio", project, "--open", "big.c", "--provider", "echo"]
        # Up to aa2e16d the title named only the project: a baseline's "shown" is then the
        # first paint once the project's name is there (the project folder is "project").
        title = "big.c" if rio_build == build else baseline_title
        found.append((label, command, False, title))
        found.append((label + " + clangd", command, True, title))
        if rio_build == build:  # the previous build has no terminal panel
            found.append((label + " terminal", command + ["--terminal"], False, title))
    others = {"kate": ["kate", "-n", big], "gedit": ["gedit", "--standalone", big],
              "geany": ["geany", "-i", "-c", "{home}/geany", big]}
    for name, command in others.items():
        if shutil.which(name):
            found.append((name, command, False, "big.c"))
    return found


def run_once(probe, command, with_server, title, project, env, home):
    if with_server:
        trust(home, project)
    # Kate asks in a dialog whether to start clangd, which would take the keys: like rio in a
    # project not trusted yet, it runs no language server.
    with open(f"{home}/.config/katerc", "w") as out:
        out.write("[Plugins]\nlspclientplugin=false\n")
    # "--terminal" is the probe's: the keys go to rio's terminal panel (Ctrl+` first), where
    # Page Down means nothing to the shell.
    terminal = command[-1] == "--terminal"
    program = command[:-1] if terminal else command
    argv = [probe, "--title", title, "--keys", str(KEYS), "--burst", "0" if terminal else str(BURST)]
    if terminal:
        argv.append("--terminal")
    argv += ["--"] + [part.replace("{home}", home) for part in program]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=180)
    if done.returncode != 0:
        print(f"  {command[0]}: {done.stdout.strip()} {done.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    return json.loads(done.stdout)


def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("runs", nargs="?", type=int, default=5)
    parser.add_argument("--baseline")
    parser.add_argument("--baseline-title", help="what the baseline's window title shows once "
                        "the file is open (default: the project's name)")
    parser.add_argument("--size", default="1366x768")
    args = parser.parse_args()
    probe = os.path.join(args.build, "bench", "x11_probe")
    if not os.access(probe, os.X_OK):
        sys.exit(f"{probe} is not built (it needs libx11-dev, libxdamage-dev, libxtst-dev)")
    base = tempfile.mkdtemp(prefix="rio-x11-bench-")
    project = os.path.join(base, "project")
    write_project(project)
    display, servers = start_x(args.size)
    os.environ["DISPLAY"] = display
    print(f"{args.size}, Xvfb + openbox, {args.runs} runs each, fresh settings every run; "
          f"{KEYS} keys typed, {BURST} Page Downs at once")
    print(f"{'':22} {'first paint':>11} {'shown':>9} {'type med':>9} {'type p99':>9} "
          f"{'50 PgDn':>9} {'paints':>6}")
    try:
        for label, command, with_server, title in editors(
                args.build, args.baseline, args.baseline_title or "project", project):
            results = []
            for _ in range(args.runs):
                home, env = fresh_home(base)
                result = run_once(probe, command, with_server, title, project, env, home)
                if result:
                    results.append(result)
            if not results:
                print(f"{label:22} (no run finished)")
                continue
            typed = [ms for r in results for ms in r["type_ms"]]
            med = lambda key: statistics.median(r[key] for r in results)
            paints = statistics.median(
                sum(1 for at in r["burst_paints_ms"] if at <= r["burst_ms"]) for r in results)
            unanswered = sum(r["type_unanswered"] for r in results)
            print(f"{label:22} {med('first_paint_ms'):9.0f}ms {med('shown_ms'):7.0f}ms "
                  f"{statistics.median(typed) if typed else -1:7.2f}ms "
                  f"{p99(typed) if typed else -1:7.2f}ms {med('burst_ms'):7.0f}ms "
                  f"{paints:6.0f}" + (f"  ({unanswered} keys changed nothing)" if unanswered
                                      else ""), flush=True)
    finally:
        for server in servers:
            server.terminate()
            server.wait()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
