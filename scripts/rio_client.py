"""A small rio-core client for rio's scripts (core-console, demo): starts a core on a pipe,
sends requests, and hands events to a callback as they arrive."""
import json
import subprocess
import threading

MAX_SHOWN = 400  # characters of a long string shown before eliding


def shorten(value):
    if isinstance(value, str) and len(value) > MAX_SHOWN:
        return value[:MAX_SHOWN] + f"... ({len(value)} chars)"
    if isinstance(value, list):
        return [shorten(v) for v in value]
    if isinstance(value, dict):
        return {k: shorten(v) for k, v in value.items()}
    return value


class Core:
    def __init__(self, args, on_event, on_stray=None):
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, encoding="utf-8")
        self.on_event = on_event
        self.on_stray = on_stray or (lambda message: None)
        self.next_id = 1
        self.waiting = {}
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self.read_loop, daemon=True)
        self.reader.start()

    def read_loop(self):
        for line in self.proc.stdout:
            message = json.loads(line)
            if "event" in message:
                self.on_event(message["event"], message.get("params", {}))
                continue
            with self.lock:
                done = self.waiting.pop(message.get("id"), None)
            if done:
                done[1] = message
                done[0].set()
            else:
                self.on_stray(message)

    def send_line(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def request(self, op, params=None):
        with self.lock:
            request_id = self.next_id
            self.next_id += 1
            done = [threading.Event(), None]
            self.waiting[request_id] = done
        self.send_line(json.dumps({"id": request_id, "op": op, "params": params or {}}))
        if not done[0].wait(10):
            raise RuntimeError(f"no answer to {op} within 10 s")
        return done[1]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(10)
        return self.proc.returncode
