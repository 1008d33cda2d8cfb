#!/usr/bin/env python3
"""What a far core costs the person at the keyboard (DESIGN §22, issue 34 item 5): a real
sshd on loopback, reached directly (about 0 ms) and through a proxy that holds every chunk
for 25 ms each way (a 50 ms round trip). For each, RUNS times:

- the desktop (rio_gui_remote_bench, offscreen): connect until settled; a keystroke until the
  editor shows it (the typing path: it must not grow with the round trip) and until the far
  core has answered it; a plan turn from Enter until the plan is shown;
- rio-cli -p --mode plan over ssh, the whole process (connect, one plan turn, exit 2).

The far provider is the script provider (one present_plan), so the numbers are rio's and
ssh's, not a model's. Prints medians.

  remote_latency_bench.py [BUILD_DIR] [RUNS]
"""
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "cli"))
from ssh_server import USER, SshServer, free_port  # noqa: E402

GREET = 'def greeting(name):\n    return f"Hello, {name}!"\n'
PLAN = {"tools": [{"name": "present_plan",
                   "input": {"title": "Friendlier greeting", "plan": "1. Say hi\n"}}]}


class DelayProxy:
    """127.0.0.1:port → 127.0.0.1:target, each chunk held `one_way` seconds in each direction
    (in order: every chunk waits the same time)."""

    def __init__(self, target, one_way):
        self.port = free_port()
        self.target, self.one_way = target, one_way
        self.loop = asyncio.new_event_loop()
        started = threading.Event()
        threading.Thread(target=self._run, args=(started,), daemon=True).start()
        started.wait()

    def _run(self, started):
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(
            asyncio.start_server(self._client, "127.0.0.1", self.port))
        started.set()
        self.loop.run_until_complete(server.serve_forever())

    async def _client(self, reader, writer):
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _pipe(self, reader, writer):
        loop = asyncio.get_running_loop()
        while True:
            data = await reader.read(65536)
            if not data:
                loop.call_later(self.one_way, writer.close)
                return
            loop.call_later(self.one_way, writer.write, data)


def far_side(work, rio_core):
    """A project, a script with one plan, and a far rio-core with its folders in `work`."""
    project = os.path.join(work, "project")
    os.makedirs(project)
    with open(os.path.join(project, "greet.py"), "w") as f:
        f.write(GREET)
    script = os.path.join(work, "script.json")
    with open(script, "w") as f:
        json.dump({"steps": [PLAN]}, f)
    core = os.path.join(work, "far-rio-core")
    homes = " ".join(f"{name}='{work}/{folder}'" for name, folder in (
        ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
        ("XDG_STATE_HOME", "state"), ("XDG_RUNTIME_DIR", "runtime")))
    with open(core, "w") as f:
        f.write(f"#!/bin/sh\nexport {homes}\nexec '{rio_core}' \"$@\"\n")
    os.chmod(core, 0o755)
    os.makedirs(os.path.join(work, "config", "rio"))
    with open(os.path.join(work, "config", "rio", "lsp.json"), "w") as f:
        json.dump({"servers": {n: {"disabled": True} for n in
                               ("clangd", "pylsp", "typescript", "rust-analyzer", "gopls")}}, f)
    return project, "script:" + script, core


def one_run(build, port, env):
    results = {}
    for frontend in ("desktop", "rio-cli"):
        work = tempfile.mkdtemp(prefix="rio-remote-bench-")
        try:
            project, provider, core = far_side(work, os.path.join(build, "rio-core"))
            run_env = dict(env, RIO_REMOTE_CORE=core, XDG_CONFIG_HOME=os.path.join(work, "local"))
            url = f"ssh://{USER}@127.0.0.1:{port}{project}"
            if frontend == "desktop":
                r = subprocess.run([os.path.join(build, "bench", "rio_gui_remote_bench"), url,
                                    provider, "greet.py"], capture_output=True, text=True,
                                   env=run_env, timeout=120)
                if r.returncode != 0:
                    raise SystemExit("rio_gui_remote_bench failed:\n" + r.stderr)
                results.update(json.loads(r.stdout.strip().splitlines()[-1]))
            else:
                start = time.perf_counter()
                r = subprocess.run([os.path.join(build, "rio-cli"), "-p", "make it friendlier",
                                    "--mode", "plan", "--provider", provider, "--connect", url],
                                   capture_output=True, text=True, env=run_env,
                                   stdin=subprocess.DEVNULL, timeout=120)
                if r.returncode != 2:
                    raise SystemExit(f"rio-cli exited {r.returncode}:\n{r.stderr}")
                results["cli_plan_turn_ms"] = (time.perf_counter() - start) * 1000
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return results


def main():
    args = sys.argv[1:]
    build = os.path.abspath(args[0]) if args else os.path.join(ROOT, "build")
    runs = int(args[1]) if len(args) > 1 else 7
    sshd_dir = tempfile.mkdtemp(prefix="rio-bench-sshd-")
    sshd = SshServer(sshd_dir)
    try:
        proxy = DelayProxy(sshd.port, 0.025)
        # The proxy's port is another "host" to ssh: the same key, known there too.
        with open(os.path.join(sshd_dir, "host_key.pub")) as f:
            key = f.read().strip()
        with open(os.path.join(sshd_dir, "known_hosts"), "a") as f:
            f.write(f"[127.0.0.1]:{proxy.port} {key}\n")
        env = dict(os.environ, RIO_SSH=sshd.ssh_command())
        for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "RIO_PROVIDER"):
            env.pop(name, None)
        rows = {}
        for label, port in (("direct (~0 ms)", sshd.port), ("50 ms round trip", proxy.port)):
            samples = [one_run(build, port, env) for _ in range(runs)]
            rows[label] = {k: statistics.median(s[k] for s in samples) for k in samples[0]}
        names = [("connect_ms", "desktop: connect until settled"),
                 ("key_shown_ms", "desktop: keystroke until shown"),
                 ("key_answered_ms", "desktop: keystroke until the far core answered"),
                 ("plan_turn_ms", "desktop: plan turn, Enter until the plan is shown"),
                 ("cli_plan_turn_ms", "rio-cli -p --mode plan over ssh, whole process")]
        labels = list(rows)
        print(f"medians of {runs} runs, ms | " + " | ".join(labels))
        for key, text in names:
            print(f"{text:52} " + " ".join(f"{rows[label][key]:12.2f}" for label in labels))
    finally:
        sshd.stop()
        shutil.rmtree(sshd_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
