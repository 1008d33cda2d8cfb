#!/usr/bin/env python3
"""Keys as a real X server delivers them, not as Qt Test sends them (issue 32 item 3): the
desktop on Xvfb, attached to a rio-core on a unix socket, typed at with xdotool (XTEST, the
path a keyboard's keys take). Shift+Tab reaches Qt as Shift+ISO_Left_Tab there; in the
composer it must cycle Plan → Review → Auto → Plan. The core, asked over its socket, says
what happened.

Usage: x11_keys_test.py RIO RIO_CORE"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

RIO, RIO_CORE = sys.argv[1], sys.argv[2]


def ask(path, op, params=None):
    """One request to the core on its unix socket; its result."""
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
                    return message["result"]


def until(what, check, timeout=20):
    """Waits for the core to say `check` holds (asking again as events come and go)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError("never: " + what)


class X11Keys(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rio-x11-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        project = os.path.join(self.dir, "project")
        os.makedirs(project)
        with open(os.path.join(project, "a.txt"), "w") as f:
            f.write("x\n")
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
        for name in ("config", "data", "state", "runtime"):
            os.makedirs(os.path.join(self.dir, name), mode=0o700)
        self.env.update({"XDG_CONFIG_HOME": os.path.join(self.dir, "config"),
                         "XDG_DATA_HOME": os.path.join(self.dir, "data"),
                         "XDG_STATE_HOME": os.path.join(self.dir, "state"),
                         "XDG_RUNTIME_DIR": os.path.join(self.dir, "runtime")})
        self.socket = os.path.join(self.dir, "core.sock")
        core = subprocess.Popen([RIO_CORE, "--provider", "echo", "--mode", "plan", "--project",
                                 project, "--listen", "unix:" + self.socket], env=self.env,
                                stderr=subprocess.PIPE, text=True)
        self.addCleanup(self.stop, core)
        self.assertIn("listening on", core.stderr.readline())
        # -displayfd: Xvfb writes the display's number once it accepts clients.
        read, write = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1000x24",
                                 "-nolisten", "tcp"], pass_fds=(write,),
                                stderr=subprocess.DEVNULL)
        os.close(write)
        self.addCleanup(self.stop, xvfb)
        with os.fdopen(read) as f:
            self.env["DISPLAY"] = ":" + f.readline().strip()
        rio = subprocess.Popen([RIO, "--connect", "unix:" + self.socket], env=self.env,
                               stderr=subprocess.DEVNULL)
        self.addCleanup(self.stop, rio)

    @staticmethod
    def stop(process):
        process.terminate()
        process.wait(10)

    def xdotool(self, *args):
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True,
                              check=True, timeout=30).stdout

    def mode(self):
        status = ask(self.socket, "agent.status")
        return "plan" if status["mode"] == "plan" else \
            "auto" if status["auto_accept"] else "review"

    def test_shift_tab_in_the_composer_cycles_the_modes(self):
        window = self.xdotool("search", "--sync", "--onlyvisible", "--name", "rio").split()[0]
        geometry = dict(line.strip().split(": ", 1)
                        for line in self.xdotool("getwindowgeometry", window).splitlines()[1:])
        x, y = (int(n) for n in geometry["Position"].split(" ")[0].split(","))
        width, height = (int(n) for n in geometry["Geometry"].split("x"))
        # The composer: the chat's message box, above Send at the window's bottom right. A
        # message typed there and sent shows the click put the keyboard in it.
        self.xdotool("mousemove", str(x + width - 150), str(y + height - 75), "click", "1")
        self.xdotool("type", "hello")
        self.xdotool("key", "Return")
        until("the composer sent what was typed",
              lambda: any(m["text"] == "hello"
                          for m in ask(self.socket, "agent.history")["messages"]))
        self.assertEqual(self.mode(), "plan")
        for expected in ("review", "auto", "plan"):
            self.xdotool("key", "shift+Tab")
            until("Shift+Tab made it " + expected, lambda: self.mode() == expected)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
