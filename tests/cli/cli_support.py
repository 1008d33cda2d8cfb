"""Shared by rio-cli's tests: a private home, a copy of the demo project, a script for the
script provider, and rio-cli run for real (in a pipe, or on a pseudo-terminal)."""
import json
import os
import pty
import re
import select
import shutil
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RIO_CLI = os.environ.get("RIO_CLI", os.path.join(ROOT, "build", "rio-cli"))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

GREET = 'def greeting(name):\n    return f"Hello, {name}!"\n'


# Text from outside that would drive a terminal (issue 39): retitle the window, clear the
# screen, put "plan approved" at the start of a line of its own, colour what follows.
HOSTILE = "\x1b]0;PWNED\x07\x1b[2J\rplan approved\n\x1b[31mRED"


def check_escaped(test, raw):
    """`raw` (what reached the terminal) shows HOSTILE's controls as text: no OSC, BEL,
    screen clear or bare carriage return of it, and no line that starts "plan approved"."""
    test.assertIn("\\e]0;PWNED", raw, "the escape is shown, visibly")
    for sequence in ("\x1b]", "\x07", "\x1b[2J", "\rplan approved", "\x1b[31mRED"):
        test.assertNotIn(sequence, raw)
    for line in ANSI.sub("", raw).split("\n"):
        test.assertFalse(line.strip().startswith("plan approved"), line)


def tool(name, **inp):
    return {"name": name, "input": inp}


def plan_step(title="Friendlier greeting", plan=None):
    plan = plan or ("## What I understood\n\n`greet.py` says **Hello**.\n\n"
                    "| file | change |\n| --- | --- |\n| `greet.py` | Hello → Hi |\n\n"
                    "1. Edit it\n2. Run the tests\n")
    return {"tools": [tool("present_plan", title=title, plan=plan)]}


def edit_step():
    return {"tools": [tool("edit_file", path="greet.py", old_string="Hello", new_string="Hi")]}


RIO_CORE = os.path.join(os.path.dirname(RIO_CLI), "rio-core")


def unix_request(path, op, params=None):
    """One request to a core listening on a unix socket; returns its response."""
    import socket
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(path)
        s.sendall((json.dumps({"id": 1, "op": op, "params": params or {}}) + "\n").encode())
        buffer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                raise AssertionError("the core closed the connection")
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                message = json.loads(line)
                if message.get("id") == 1:
                    return message


class Sandbox:
    """A home, a project (greet.py) and a script; removed by cleanup()."""

    def __init__(self, steps):
        self.dir = tempfile.mkdtemp(prefix="rio-cli-test-")
        self.project = os.path.join(self.dir, "project")
        os.makedirs(self.project)
        with open(os.path.join(self.project, "greet.py"), "w") as f:
            f.write(GREET)
        self.script = os.path.join(self.dir, "script.json")
        with open(self.script, "w") as f:
            json.dump({"log": "calls.jsonl", "steps": steps}, f)
        self.env = dict(os.environ)
        for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL",
                     "OPENAI_BASE_URL", "RIO_PROVIDER", "NO_COLOR"):
            self.env.pop(name, None)
        self.env.update({"XDG_CONFIG_HOME": os.path.join(self.dir, "config"),
                         "XDG_DATA_HOME": os.path.join(self.dir, "data"),
                         "XDG_STATE_HOME": os.path.join(self.dir, "state"),
                         "XDG_RUNTIME_DIR": os.path.join(self.dir, "runtime"),
                         "OLLAMA_HOST": "127.0.0.1:1", "TERM": "xterm-256color"})
        # The tests were written for a core in build mode; a new core starts in the user's
        # default_mode (plan unless configured), so the sandbox's user configures build.
        os.makedirs(os.path.join(self.dir, "config", "rio"))
        with open(os.path.join(self.dir, "config", "rio", "config.json"), "w") as f:
            json.dump({"default_mode": "build"}, f)
        # Language servers are programs of their own: an edit of greet.py would wait for
        # pylsp. A test about them writes its own lsp.json.
        self.write_lsp({name: {"disabled": True}
                        for name in ("clangd", "pylsp", "typescript", "rust-analyzer", "gopls")})

    def write_lsp(self, servers):
        with open(os.path.join(self.dir, "config", "rio", "lsp.json"), "w") as f:
            json.dump({"servers": servers}, f)

    def trust(self):
        """The user trusted the project (as trust.json keeps it, for a project with no
        power-granting files): its language servers and the user's MCP servers start."""
        with open(os.path.join(self.dir, "config", "rio", "trust.json"), "w") as f:
            json.dump({"version": 1, "projects": {os.path.realpath(self.project): {"files": {}}}},
                      f)

    def rescript(self, steps):
        """The next core started replays these steps (the log goes on)."""
        with open(self.script, "w") as f:
            json.dump({"log": "calls.jsonl", "steps": steps}, f)

    def args(self, *extra):
        return [RIO_CLI, "--provider", "script:" + self.script, *extra, self.project]

    def run(self, *extra, stdin=None, env=None):
        return subprocess.run(self.args(*extra), input=stdin, capture_output=True, text=True,
                              env={**self.env, **(env or {})}, timeout=60)

    def calls(self):
        path = os.path.join(self.dir, "calls.jsonl")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]

    def read(self, rel):
        with open(os.path.join(self.project, rel)) as f:
            return f.read()

    def plans(self):
        folder = os.path.join(self.project, ".rio", "plans")
        # The plans themselves; their review threads sit beside them as NAME.comments.json.
        return sorted(n for n in os.listdir(folder) if n.endswith(".md")) \
            if os.path.isdir(folder) else []

    def listening_core(self, address=None):
        """rio-core listening in the sandbox (a unix socket unless `address` says
        127.0.0.1:0), for --connect; .listening is what it printed. Stop it with
        .terminate()."""
        self.socket = os.path.join(self.dir, "core.sock")
        core = subprocess.Popen([RIO_CORE, "--provider", "script:" + self.script, "--project",
                                 self.project, "--listen", address or "unix:" + self.socket],
                                env=self.env, stderr=subprocess.PIPE, text=True)
        line = core.stderr.readline()
        assert "listening on" in line, line
        self.listening = line
        return core

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)


class FakeLlm:
    """tests/fake_llm/fake_llm_server.py on a free loopback port; .url is its base URL.
    Stop it with .stop()."""

    def __init__(self, directory, responses=(), models=None):
        script = os.path.join(directory, "fake-llm.json")
        with open(script, "w") as f:
            json.dump({"responses": list(responses), **({"models": models} if models else {})}, f)
        self.log = os.path.join(directory, "fake-llm.log")
        self.process = subprocess.Popen(
            ["python3", os.path.join(ROOT, "tests", "fake_llm", "fake_llm_server.py"),
             "--script", script, "--log", self.log, "--port", "0"],
            stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), line
        self.url = "http://" + line.split()[-1]

    def stop(self):
        self.process.terminate()
        self.process.wait(10)
        self.process.stdout.close()


class Pty:
    """rio-cli on a pseudo-terminal: type into it, wait for what it shows."""

    def __init__(self, argv, env, cols=100):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.clear()
            os.environ.update(env)
            os.environ["COLUMNS"] = str(cols)
            os.execv(argv[0], argv)
        self.seen = ""
        self.pos = 0  # in the ANSI-stripped screen text: what expect() has matched up to

    def send(self, text):
        os.write(self.fd, text.encode())

    def expect(self, pattern, timeout=15):
        """Waits until the screen text (ANSI stripped) after the previous match matches;
        returns the raw text seen so far."""
        deadline = time.time() + timeout
        regex = re.compile(pattern)
        while time.time() < deadline:
            match = regex.search(ANSI.sub("", self.seen), self.pos)
            if match:
                self.pos = match.end()
                return self.seen
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                self.seen += chunk.decode(errors="replace")
        raise AssertionError(f"never saw {pattern!r}; screen so far:\n{ANSI.sub('', self.seen)}")

    def close(self):
        try:
            os.kill(self.pid, 9)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        os.close(self.fd)

    def wait_exit(self, timeout=10):
        deadline = time.time() + timeout
        while time.time() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                return os.waitstatus_to_exitcode(status)
            try:
                # Read only what is there: a read with nothing to read blocks for as long as
                # any process holds the terminal open.
                ready, _, _ = select.select([self.fd], [], [], 0.05)
                if ready:
                    os.read(self.fd, 65536)
            except OSError:
                pass
        raise AssertionError("rio-cli did not exit")
