#!/usr/bin/env python3
"""An install as a packager makes it (issue 17, DESIGN §17): `cmake --install` into a
DESTDIR, then the installed programs started by name from PATH, with the source tree's
share/rio out of reach, must read everything they ship from the installed prefix, and
rio-core must refuse to start without its prompts.

  install_test.py CMAKE BUILD_DIR SOURCE_DIR PREFIX BINDIR DATADIR MANDIR

(the last four as the build configured them: CMAKE_INSTALL_PREFIX and GNUInstallDirs'.)

"Out of reach": the installed programs run under `unshare -rm` with an empty folder
mounted over the source tree's share/rio (and over the compiled install prefix's, should
rio be installed there for real). Where unshare is not allowed the checks still run: a
program reading the source tree shows as a layer whose source is outside the prefix.
"""
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading

CMAKE = sys.argv[1]
BUILD, SOURCE = (os.path.abspath(p) for p in sys.argv[2:4])
prefix_path, bindir, datadir, mandir = sys.argv[4:8]
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)
    return ok


def can_unshare():
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    return probe.returncode == 0


work = tempfile.mkdtemp(prefix="rio-install-test-")
destdir = os.path.join(work, "destdir")
root = destdir + prefix_path  # where the install really is
bin_dir = os.path.join(root, bindir)
share = os.path.join(root, datadir, "rio")
hidden = [os.path.join(SOURCE, "share", "rio")]
compiled_share = os.path.join(prefix_path, datadir, "rio")
if os.path.isdir(compiled_share):
    hidden.append(compiled_share)
empty = os.path.join(work, "empty")
os.makedirs(empty)
isolated = can_unshare()

env = {k: v for k, v in os.environ.items()
       if k not in ("RIO_SHARE_DIR", "RIO_PROVIDER", "ANTHROPIC_API_KEY", "OPENAI_API_KEY")}
env.update(PATH=bin_dir + os.pathsep + env.get("PATH", "/usr/bin:/bin"),
           XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_DATA_HOME=os.path.join(work, "data"),
           XDG_STATE_HOME=os.path.join(work, "state"), XDG_RUNTIME_DIR=os.path.join(work, "run"),
           OLLAMA_HOST="127.0.0.1:1")


def argv_of(args):
    """The command, run by name from PATH; under unshare with the source share hidden."""
    if not isolated:
        return args
    mounts = " && ".join(f'mount --bind "{empty}" "{h}"' for h in hidden)
    return ["unshare", "-rm", "sh", "-c", mounts + ' && exec "$@"', "sh"] + args


def run(args, stdin="", extra_env=None, cwd=None):
    return subprocess.run(argv_of(args), input=stdin, capture_output=True, text=True,
                          env=dict(env, **(extra_env or {})), cwd=cwd or work, timeout=60)


def under_root(path):
    return os.path.realpath(path).startswith(os.path.realpath(root) + os.sep)


def prompt_layers():
    r = run(["rio-core"], stdin='{"id":1,"op":"agent.prompt.list","params":{}}\n')
    lines = r.stdout.splitlines()
    if not check(r.returncode == 0 and lines, "installed rio-core answers agent.prompt.list "
                 f"(exit {r.returncode}; stderr: {r.stderr.strip()[:300]})"):
        return []
    return json.loads(lines[0])["result"]["layers"]


print(f"installing into DESTDIR={destdir} (prefix {prefix_path})")
install = subprocess.run([CMAKE, "--install", BUILD], env=dict(os.environ, DESTDIR=destdir),
                         capture_output=True, text=True)
if not check(install.returncode == 0, "cmake --install into a DESTDIR"):
    print(install.stdout, install.stderr)
    sys.exit(1)
print("the source tree's share/rio is " +
      ("mounted over with an empty folder" if isolated else
       "still reachable: unshare is not allowed here (the checks below still catch a "
       "program that reads it)"))

programs = ["rio-core", "rio-cli"] + [p for p in ("rio", "rio-acp")
                                      if os.path.exists(os.path.join(bin_dir, p))]
for program in programs:
    r = run([program, "--version"])
    check(r.returncode == 0 and re.fullmatch(rf"{program} \d+\.\d+\.\d+ \(git [^)\s]+\)\n",
                                             r.stdout),
          f"{program} --version names the version and the commit: {r.stdout.strip()!r}")
    man = os.path.join(root, mandir, "man1", program + ".1.gz")
    check(os.path.getsize(man) > 0 if os.path.exists(man) else False, f"man page {man}")

# Every shipped layer comes from the installed prefix, and has text.
layers = prompt_layers()
shipped = [layer for layer in layers if layer.get("origin") == "shipped"]
check(sorted(layer["name"] for layer in shipped) == ["base", "compact", "plan", "subagent"],
      f"the base, compact and plan layers are the shipped ones: {[(l['name'], l['origin']) for l in layers]}")
for layer in shipped:
    check(under_root(layer["source"]) and layer["chars"] > 0,
          f"layer {layer['name']} read from the install: {layer['source']} ({layer['chars']} chars)")

# A headless plan-mode turn through the installed rio-cli and the rio-core beside it.
project = os.path.join(work, "project")
shutil.copytree(os.path.join(SOURCE, "examples", "demo"), project)
script = os.path.join(work, "script.json")
with open(script, "w") as f:
    json.dump({"steps": [{"tools": [{"name": "present_plan",
                                      "input": {"title": "T", "plan": "1. x"}}]}]}, f)
r = run(["rio-cli", "-p", "task", "--mode", "plan", "--provider", "script:" + script, project])
plans = os.path.join(project, ".rio", "plans")
check(r.returncode == 2 and os.path.isdir(plans) and os.listdir(plans),
      f"rio-cli -p --mode plan exits 2 with the plan filed (exit {r.returncode}; "
      f"{r.stderr.strip()[:200]})")

# The first network request loads the installed HTTP module, not the build tree's.
core = subprocess.Popen(argv_of(["rio-core", "--provider", "openai"]), stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=work,
                        env=dict(env, OPENAI_API_KEY="sk-test",
                                 OPENAI_BASE_URL="http://127.0.0.1:1/v1"))
core.stdin.write('{"id":1,"op":"agent.send","params":{"text":"hi"}}\n')
core.stdin.flush()
lines = queue.Queue()  # read on a thread: a deadline for a hung core, none for a slow one
threading.Thread(target=lambda: [lines.put(l) for l in core.stdout] + [lines.put("")],
                 daemon=True).start()
errored = False
try:
    while not errored:
        line = lines.get(timeout=60)
        if not line:
            break
        errored = json.loads(line).get("event") == "agent.error"
except queue.Empty:
    pass
maps = open(f"/proc/{core.pid}/maps").read() if errored else ""
modules = {line.split()[-1] for line in maps.splitlines() if "rio-http-curl" in line}
core.stdin.close()
core.wait(timeout=30)
check(errored and modules and all(under_root(m) for m in modules),
      f"a network request loads the installed HTTP module: {sorted(modules)} "
      f"(agent.error seen: {errored}; stderr: {core.stderr.read().strip()[:300]})")

# Without its prompts the installed core refuses to start, and says where it looked.
for name, file in (("base prompt", "prompt.md"), ("plan prompt", "plan.md")):
    path = os.path.join(share, "agent", file)
    kept = path + ".kept"
    os.rename(path, kept)
    r = run(["rio-core"], stdin='{"id":1,"op":"agent.prompt.list","params":{}}\n')
    os.rename(kept, path)
    check(r.returncode == 1 and not r.stdout and name in r.stderr and path in r.stderr,
          f"without {file} rio-core exits 1 naming {path} (exit {r.returncode}): "
          f"{r.stderr.strip()[:400]}")

# The rest of the install.
data = os.path.join(root, datadir)
expected = ["doc/rio/LICENSE", "doc/rio/copyright", "bash-completion/completions/rio-cli",
            "fish/vendor_completions.d/rio-cli.fish"]
if "rio" in programs:
    expected += ["applications/rio.desktop", "icons/hicolor/scalable/apps/rio.svg"] + \
        [f"icons/hicolor/{s}x{s}/apps/rio.png" for s in (16, 24, 32, 48, 64, 128, 256, 512)]
for rel in expected:
    check(os.path.isfile(os.path.join(data, rel)), f"installed {rel}")
if "rio" in programs:
    desktop = os.path.join(data, "applications", "rio.desktop")
    r = subprocess.run(["desktop-file-validate", desktop], capture_output=True, text=True)
    check(r.returncode == 0 and not r.stdout.strip(), f"desktop-file-validate {r.stdout}")
    metainfo = [os.path.join(data, "metainfo", f)
                for f in os.listdir(os.path.join(data, "metainfo"))]
    r = subprocess.run(["appstreamcli", "validate", "--no-net"] + metainfo,
                       capture_output=True, text=True)
    check(len(metainfo) == 1 and r.returncode == 0, f"appstreamcli validate: {r.stdout.strip()}")

shutil.rmtree(work)
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
