#!/usr/bin/env python3
"""The terminal panel's core half, whole process (issue 47): a real rio-core runs /bin/sh on
a pty and this client acknowledges output as the desktop does. Prints the median of RUNS:

- key → echo: terminal.input of one character until its echo arrives as terminal.output;
- flood: `seq 1 100000` (588,895 bytes) from the command's Return until its last line.

Beside them, the same measured on a bare pty running /bin/sh in this process (what a plain
terminal emulator gets from the kernel), so the core's share is plain.

  terminal_bench.py [BUILD_DIR] [RUNS]
"""
import json
import os
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHELL_ENV = {"SHELL": "/bin/sh", "PS1": "$ ", "ENV": "", "PATH": "/usr/bin:/bin",
             "HOME": tempfile.gettempdir()}
LAST = b"100000"


class Terminal:
    """Output read until a needle, what came after it kept for the next wait."""
    pending = b""

    def output_until(self, needle):
        seen = self.pending
        while needle not in seen:
            if len(seen) > 1 << 20:
                seen = seen[-len(needle):]  # a needle not in it can only have begun at its end
            seen += self.read_output()
        self.pending = seen[seen.index(needle) + len(needle):]


class Core(Terminal):
    def __init__(self, core, project):
        env = {**os.environ, **SHELL_ENV}
        self.p = subprocess.Popen([core, "--stdio", "--project", project], env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1
        self.buffer = b""
        self.id = self.request("terminal.open", {"cols": 80, "rows": 24})["result"]["id"]

    def send(self, op, params):
        ident = self.next_id
        self.next_id += 1
        self.p.stdin.write(json.dumps({"id": ident, "op": op, "params": params}).encode() + b"\n")
        self.p.stdin.flush()
        return ident

    def message(self):
        while b"\n" not in self.buffer:
            chunk = os.read(self.p.stdout.fileno(), 1 << 20)
            if not chunk:
                raise SystemExit("rio-core went away")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def request(self, op, params):
        ident = self.send(op, params)
        while True:
            m = self.message()
            if m.get("id") == ident:
                return m

    def read_output(self):
        """The next output, acknowledged as the desktop does once it fed it in."""
        while True:
            m = self.message()
            if m.get("event") == "terminal.output":
                data = m["params"]["data"].encode()
                self.send("terminal.ack", {"id": self.id, "bytes": len(data)})
                return data

    def type(self, text):
        self.send("terminal.input", {"id": self.id, "data": text})

    def close(self):
        self.p.stdin.close()
        self.p.wait()


class BarePty(Terminal):
    def __init__(self, project):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(project)
            os.execve("/bin/sh", ["/bin/sh"], {**SHELL_ENV, "TERM": "xterm-256color"})

    def read_output(self):
        select.select([self.fd], [], [])
        return os.read(self.fd, 65536)

    def type(self, text):
        os.write(self.fd, text.encode())

    def close(self):
        os.close(self.fd)
        os.waitpid(self.pid, 0)


def measure(terminal, runs):
    terminal.output_until(b"$ ")
    echoes, floods = [], []
    for i in range(runs):
        letter = "abcdefghijklmnopqrstuvwxyz"[i % 26]
        start = time.perf_counter()
        terminal.type(letter)
        terminal.output_until(letter.encode())
        echoes.append(time.perf_counter() - start)
        terminal.type("\x15")  # Ctrl+U: the line is empty again
    for _ in range(max(3, runs // 10)):
        terminal.type("seq 1 100000\n")
        terminal.output_until(b"seq 1 100000\r\n")
        start = time.perf_counter()
        terminal.output_until(LAST + b"\r\n")
        floods.append(time.perf_counter() - start)
        terminal.output_until(b"$ ")
    terminal.close()
    return statistics.median(echoes), statistics.median(floods)


def main():
    args = sys.argv[1:]
    build = args[0] if args else os.path.join(ROOT, "build")
    runs = int(args[1]) if len(args) > 1 else 101
    with tempfile.TemporaryDirectory() as project:
        core_echo, core_flood = measure(Core(os.path.join(build, "rio-core"), project), runs)
        pty_echo, pty_flood = measure(BarePty(project), runs)
    print(f"key -> echo         rio-core {core_echo * 1e3:7.3f} ms   "
          f"bare pty {pty_echo * 1e3:7.3f} ms")
    print(f"seq 1 100000 flood  rio-core {core_flood * 1e3:7.1f} ms   "
          f"bare pty {pty_flood * 1e3:7.1f} ms")


if __name__ == "__main__":
    main()
