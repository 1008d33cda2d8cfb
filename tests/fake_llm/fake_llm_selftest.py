#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Client-side checks of fake_llm_server.py: every response type and fault, seen on the wire.

Run: python3 tests/fake_llm/fake_llm_selftest.py   (stdlib only; takes a few seconds)
"""

import http.client
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "fake_llm_server.py")

ANTHROPIC_HEADERS = {"x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01",
                     "content-type": "application/json"}
OPENAI_HEADERS = {"authorization": "Bearer sk-test", "content-type": "application/json"}


class FakeServer:
    """Runs the server on a temporary script; stop() sends SIGTERM and expects exit 0."""

    def __init__(self, responses, **extra):
        self.dir = tempfile.TemporaryDirectory(prefix="fake_llm_")
        self.script = os.path.join(self.dir.name, "script.json")
        self.log = os.path.join(self.dir.name, "log.jsonl")
        with open(self.script, "w", encoding="utf-8") as f:
            json.dump(dict(responses=responses, **extra), f)
        self.proc = subprocess.Popen(
            [sys.executable, SERVER, "--script", self.script, "--log", self.log, "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        ready, _, _ = select.select([self.proc.stdout], [], [], 10)
        if not ready:
            self.proc.kill()
            raise RuntimeError("server did not start")
        line = self.proc.stdout.readline().decode()
        if not line.startswith("listening on 127.0.0.1:"):
            self.proc.kill()
            raise RuntimeError(f"unexpected first line {line!r}: {self.proc.stderr.read()!r}")
        self.port = int(line.strip().rsplit(":", 1)[1])

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=5)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            rest = self.proc.stdout.read()
            self.proc.stdout.close()
            self.proc.stderr.close()
            self.dir.cleanup()
        return code, rest

    def wait_for(self, what, check, timeout=10):
        """The log once `check` holds for it (read again as the server writes); the timeout
        only bounds a failure."""
        deadline = time.monotonic() + timeout
        while True:
            records = self.log_records()
            if check(records):
                return records
            if time.monotonic() > deadline:
                raise AssertionError(f"never: {what}: {records}")
            time.sleep(0.01)

    def log_records(self):
        try:
            with open(self.log, encoding="utf-8") as f:
                return [json.loads(line) for line in f if line.strip()]
        except FileNotFoundError:
            return []


class Raw:
    """One HTTP exchange read off a raw socket: every recv() kept with its arrival time."""

    def __init__(self, data, reads):
        self.data = data
        self.reads = reads  # [(monotonic time, end offset in data)]
        head, sep, self.body_raw = data.partition(b"\r\n\r\n")
        assert sep, f"no header end in {data[:200]!r}"
        self.head_len = len(head) + 4
        lines = head.decode("latin-1").split("\r\n")
        self.status = int(lines[0].split()[1])
        self.headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.chunks = []       # [(payload, end offset in data)]
        self.terminated = False
        if self.headers.get("transfer-encoding") == "chunked":
            pos = self.head_len
            while True:
                eol = data.find(b"\r\n", pos)
                if eol < 0:
                    break
                size = int(data[pos:eol], 16)
                if size == 0:
                    self.terminated = data[eol:eol + 4] == b"\r\n\r\n"
                    break
                end = eol + 2 + size
                if end + 2 > len(data):
                    break
                self.chunks.append((data[eol + 2:end], end + 2))
                pos = end + 2
            self.body = b"".join(c for c, _ in self.chunks)
        else:
            self.body = self.body_raw
            length = self.headers.get("content-length")
            self.terminated = length is not None and int(length) == len(self.body)

    def json(self):
        return json.loads(self.body)

    def arrival(self, offset):
        """When the byte at `offset` arrived."""
        for t, end in self.reads:
            if end > offset:
                return t
        raise AssertionError(f"byte {offset} never arrived")


def raw_request(port, path, body, headers, method="POST", timeout=10, close_after=None):
    """Sends one request with `Connection: close` and reads until EOF.
    close_after(data) -> True makes the client hang up early (like a Stop)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    payload = b"" if body is None else json.dumps(body).encode()
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close",
             f"Content-Length: {len(payload)}"] + [f"{k}: {v}" for k, v in headers.items()]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
    data = b""
    reads = []
    try:
        while True:
            piece = sock.recv(65536)
            if not piece:
                break
            data += piece
            reads.append((time.monotonic(), len(data)))
            if close_after and close_after(data):
                break
    finally:
        sock.close()
    return Raw(data, reads)


def sse(body):
    """Tiny SSE parser: [(event name or None, data text)] for each event (blank-line ended)."""
    events = []
    name, data = None, []
    for line in body.decode("utf-8").split("\n"):
        if line == "":
            if name is not None or data:
                events.append((name, "\n".join(data)))
            name, data = None, []
        elif line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip(" "))
    if name is not None or data:
        events.append((name, "\n".join(data)))
    return events


def anthropic_stream(port, body=None, **kw):
    return raw_request(port, "/v1/messages",
                       body or {"model": "claude-test", "max_tokens": 100, "stream": True,
                                "messages": [{"role": "user", "content": "hi"}]},
                       ANTHROPIC_HEADERS, **kw)


def openai_stream(port, include_usage=True, **kw):
    body = {"model": "gpt-test", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    if include_usage:
        body["stream_options"] = {"include_usage": True}
    return raw_request(port, "/v1/chat/completions", body, OPENAI_HEADERS, **kw)


def anthropic_events(raw):
    out = []
    for name, data in sse(raw.body):
        obj = json.loads(data)
        assert obj["type"] == name, (name, obj)
        out.append(obj)
    return out


def openai_chunks(raw):
    events = sse(raw.body)
    assert all(name is None for name, _ in events), "OpenAI streams have no event: lines"
    return [d for _, d in events]


def check_anthropic_order(test, events):
    """message_start, blocks (start, delta*, stop) with ascending indexes, message_delta, stop."""
    types = [e["type"] for e in events if e["type"] != "ping"]
    test.assertEqual(types[0], "message_start")
    test.assertEqual(types[-2:], ["message_delta", "message_stop"])
    open_index, next_index = None, 0
    for e in events[1:-2]:
        if e["type"] == "ping":
            continue
        if e["type"] == "content_block_start":
            test.assertIsNone(open_index)
            test.assertEqual(e["index"], next_index)
            open_index = e["index"]
        elif e["type"] == "content_block_delta":
            test.assertEqual(e["index"], open_index)
        elif e["type"] == "content_block_stop":
            test.assertEqual(e["index"], open_index)
            open_index, next_index = None, next_index + 1
        else:
            test.fail(f"unexpected event {e}")
    test.assertIsNone(open_index)


def anthropic_blocks(events):
    blocks = {}
    for e in events:
        if e["type"] == "content_block_start":
            blocks[e["index"]] = dict(e["content_block"], _json="", _deltas=0)
        elif e["type"] == "content_block_delta":
            b, d = blocks[e["index"]], e["delta"]
            b["_deltas"] += 1
            if d["type"] == "text_delta":
                b["text"] += d["text"]
            elif d["type"] == "thinking_delta":
                b["thinking"] += d["thinking"]
            elif d["type"] == "signature_delta":
                b["signature"] += d["signature"]
            elif d["type"] == "input_json_delta":
                b["_json"] += d["partial_json"]
    return [blocks[k] for k in sorted(blocks)]


def openai_reassemble(test, chunks):
    text, reasoning, calls, finish, usage = "", "", {}, None, None
    for data in chunks:
        if data == "[DONE]":
            continue
        c = json.loads(data)
        test.assertEqual(c["object"], "chat.completion.chunk")
        for key in ("id", "created", "model", "choices"):
            test.assertIn(key, c)
        if not c["choices"]:
            usage = c["usage"]
            continue
        choice = c["choices"][0]
        test.assertEqual(choice["index"], 0)
        delta = choice["delta"]
        text += delta.get("content") or ""
        reasoning += delta.get("reasoning_content") or ""
        for tc in delta.get("tool_calls", []):
            call = calls.setdefault(tc["index"], {"id": None, "name": None, "arguments": ""})
            if "id" in tc:
                test.assertIsNone(call["id"], "id sent twice")
                call["id"] = tc["id"]
                test.assertEqual(tc["type"], "function")
            fn = tc.get("function", {})
            if "name" in fn:
                call["name"] = fn["name"]
            call["arguments"] += fn.get("arguments", "")
        if choice["finish_reason"] is not None:
            finish = choice["finish_reason"]
    return text, reasoning, calls, finish, usage


class ServerTest(unittest.TestCase):
    def serve(self, responses, **extra):
        server = FakeServer(responses, **extra)

        def stop():
            code, rest = server.stop()
            self.assertEqual(code, 0, "SIGTERM must exit 0")
            self.assertEqual(rest, b"", "nothing after the listening line on stdout")
        self.addCleanup(stop)
        return server


class AnthropicStreams(ServerTest):
    def test_text_stream_event_order_and_framing(self):
        text = "The quick brown fox jumps over the lazy dog."
        srv = self.serve([{"text": text, "usage": {"input_tokens": 7, "output_tokens": 9}}])
        raw = anthropic_stream(srv.port)
        self.assertEqual(raw.status, 200)
        self.assertTrue(raw.headers["content-type"].startswith("text/event-stream"))
        self.assertEqual(raw.headers["transfer-encoding"], "chunked")
        self.assertTrue(raw.terminated)
        events = anthropic_events(raw)
        check_anthropic_order(self, events)
        self.assertEqual([e["type"] for e in events[:3]],
                         ["message_start", "content_block_start", "ping"])
        start = events[0]["message"]
        self.assertEqual((start["role"], start["model"], start["content"]),
                         ("assistant", "claude-test", []))
        self.assertIsNone(start["stop_reason"])
        self.assertEqual(start["usage"]["input_tokens"], 7)
        blocks = anthropic_blocks(events)
        self.assertEqual(len(blocks), 1)
        self.assertEqual(blocks[0]["type"], "text")
        self.assertEqual(blocks[0]["text"], text)
        self.assertGreaterEqual(blocks[0]["_deltas"], 3, "text arrives in several deltas")
        self.assertEqual(events[-2]["delta"], {"stop_reason": "end_turn", "stop_sequence": None})
        self.assertEqual(events[-2]["usage"]["output_tokens"], 9)

    def test_thinking_then_text_then_tools(self):
        tools = [{"name": "read_file", "input": {"path": "src/main.cpp", "lines": [1, 20]}},
                 {"name": "grep", "input": {"pattern": "naïve ✓"}, "id": "toolu_custom"}]
        srv = self.serve([{"thinking": "I should read the file first, then search.",
                           "text": "Let me look.", "tools": tools}])
        events = anthropic_events(anthropic_stream(srv.port))
        check_anthropic_order(self, events)
        blocks = anthropic_blocks(events)
        self.assertEqual([b["type"] for b in blocks], ["thinking", "text", "tool_use", "tool_use"])
        self.assertEqual(blocks[0]["thinking"], "I should read the file first, then search.")
        self.assertTrue(blocks[0]["signature"])
        sig_deltas = [e for e in events if e["type"] == "content_block_delta"
                      and e["delta"]["type"] == "signature_delta"]
        self.assertEqual(len(sig_deltas), 1)
        self.assertEqual(blocks[1]["text"], "Let me look.")
        for block, tool in zip(blocks[2:], tools):
            self.assertEqual(block["name"], tool["name"])
            self.assertEqual(block["input"], {})
            self.assertEqual(json.loads(block["_json"]), tool["input"])
            self.assertGreater(block["_deltas"], 2, "tool input arrives in pieces")
        self.assertTrue(blocks[2]["id"].startswith("toolu_"))
        self.assertEqual(blocks[3]["id"], "toolu_custom")
        self.assertEqual(events[-2]["delta"]["stop_reason"], "tool_use")

    def test_stop_reason_override_and_explicit_pieces(self):
        srv = self.serve([{"text": ["ab", "c", ""], "stop_reason": "max_tokens"}])
        events = anthropic_events(anthropic_stream(srv.port))
        deltas = [e["delta"]["text"] for e in events if e["type"] == "content_block_delta"]
        self.assertEqual(deltas, ["ab", "c", ""])
        self.assertEqual(events[-2]["delta"]["stop_reason"], "max_tokens")


class OpenAIStreams(ServerTest):
    def test_text_stream_with_usage(self):
        srv = self.serve([{"text": "One two three four five six seven.",
                           "thinking": "Hmm, let me think.",
                           "usage": {"input_tokens": 11, "output_tokens": 4,
                                     "cache_read_input_tokens": 3}}])
        raw = openai_stream(srv.port)
        self.assertEqual(raw.status, 200)
        self.assertTrue(raw.headers["content-type"].startswith("text/event-stream"))
        self.assertTrue(raw.terminated)
        chunks = openai_chunks(raw)
        self.assertEqual(chunks[-1], "[DONE]")
        objs = [json.loads(c) for c in chunks[:-1]]
        self.assertEqual(objs[0]["choices"][0]["delta"]["role"], "assistant")
        self.assertEqual(len({o["id"] for o in objs}), 1)
        self.assertEqual(objs[0]["model"], "gpt-test")
        for o in objs[:-1]:
            self.assertIn("usage", o)
            self.assertIsNone(o["usage"])
        self.assertEqual(objs[-1]["choices"], [])
        self.assertEqual(objs[-1]["usage"], {"prompt_tokens": 11, "completion_tokens": 4,
                                             "total_tokens": 15,
                                             "prompt_tokens_details": {"cached_tokens": 3}})
        self.assertEqual(objs[-2]["choices"][0]["delta"], {})
        text, reasoning, calls, finish, usage = openai_reassemble(self, chunks)
        self.assertEqual(text, "One two three four five six seven.")
        self.assertEqual(reasoning, "Hmm, let me think.")
        self.assertEqual((calls, finish), ({}, "stop"))
        content_chunks = [o for o in objs if o["choices"] and
                          o["choices"][0]["delta"].get("content")]
        self.assertGreaterEqual(len(content_chunks), 3)

    def test_no_usage_chunk_unless_asked(self):
        srv = self.serve([{"text": "hello"}])
        chunks = openai_chunks(openai_stream(srv.port, include_usage=False))
        self.assertEqual(chunks[-1], "[DONE]")
        for c in chunks[:-1]:
            obj = json.loads(c)
            self.assertNotIn("usage", obj)
            self.assertEqual(len(obj["choices"]), 1)

    def test_single_tool_call(self):
        srv = self.serve([{"tools": [{"name": "bash", "input": {"command": "ls -la /tmp"}}]}])
        chunks = openai_chunks(openai_stream(srv.port))
        _, _, calls, finish, _ = openai_reassemble(self, chunks)
        self.assertEqual(finish, "tool_calls")
        self.assertEqual(list(calls), [0])
        self.assertTrue(calls[0]["id"].startswith("call_"))
        self.assertEqual(calls[0]["name"], "bash")
        self.assertEqual(json.loads(calls[0]["arguments"]), {"command": "ls -la /tmp"})

    def test_parallel_tool_calls_are_interleaved(self):
        tools = [{"name": "read", "input": {"path": "a/very/long/path/to/a/file.txt"}},
                 {"name": "write", "input": {"path": "b.txt", "content": "héllo\nwörld"},
                  "id": "call_custom"},
                 {"name": "ls", "input": {}}]
        srv = self.serve([{"text": "Doing three things.", "tools": tools}])
        chunks = openai_chunks(openai_stream(srv.port))
        _, _, calls, finish, _ = openai_reassemble(self, chunks)
        self.assertEqual(finish, "tool_calls")
        self.assertEqual(sorted(calls), [0, 1, 2])
        for k, tool in enumerate(tools):
            self.assertEqual(calls[k]["name"], tool["name"])
            self.assertEqual(json.loads(calls[k]["arguments"]), tool["input"])
        self.assertEqual(calls[1]["id"], "call_custom")
        order, multi = [], 0
        for c in chunks[:-1]:
            obj = json.loads(c)
            if obj["choices"]:
                entries = obj["choices"][0]["delta"].get("tool_calls", [])
                multi += len(entries) > 1
                order += [e["index"] for e in entries if "id" not in e]
        self.assertNotEqual(order, sorted(order), "argument pieces interleave across indexes")
        self.assertGreater(multi, 0, "some chunk carries pieces of several calls")


class Errors(ServerTest):
    def test_anthropic_error_envelopes(self):
        srv = self.serve([{"status": 401, "error": "invalid x-api-key"},
                          {"status": 429, "error": "slow down", "retry_after": 2},
                          {"status": 529, "error": "Overloaded"},
                          {"status": 500}])
        expected = [(401, "authentication_error", "invalid x-api-key"),
                    (429, "rate_limit_error", "slow down"),
                    (529, "overloaded_error", "Overloaded"), (500, "api_error", None)]
        for status, etype, message in expected:
            raw = anthropic_stream(srv.port)
            self.assertEqual(raw.status, status)
            self.assertTrue(raw.terminated)
            self.assertEqual(raw.headers["content-type"], "application/json")
            body = raw.json()
            self.assertEqual(body["type"], "error")
            self.assertEqual(body["error"]["type"], etype)
            if message:
                self.assertEqual(body["error"]["message"], message)
            self.assertEqual(raw.headers.get("retry-after"), "2" if status == 429 else None)

    def test_openai_error_envelopes(self):
        srv = self.serve([{"status": 401, "error": "Incorrect API key provided"},
                          {"status": 429, "error": "Rate limit reached", "retry_after": 7},
                          {"status": 500, "error": "boom", "error_code": "x"}])
        expected = [(401, "invalid_request_error", "invalid_api_key"),
                    (429, "requests", "rate_limit_exceeded"), (500, "server_error", "x")]
        for status, etype, code in expected:
            raw = openai_stream(srv.port)
            self.assertEqual(raw.status, status)
            err = raw.json()["error"]
            self.assertEqual((err["type"], err["code"]), (etype, code))
            self.assertIn("message", err)
            self.assertIsNone(err["param"])
            self.assertEqual(raw.headers.get("retry-after"), "7" if status == 429 else None)

    def test_error_event_mid_stream(self):
        srv = self.serve([{"text": "one two three four five six seven eight nine",
                           "fault": "error_event"},
                          {"text": "one two three four five six seven eight nine",
                           "fault": "error_event"}])
        raw = anthropic_stream(srv.port)
        self.assertEqual(raw.status, 200)
        self.assertTrue(raw.terminated, "an error event still ends the body properly")
        events = anthropic_events(raw)
        self.assertEqual(events[0]["type"], "message_start")
        self.assertEqual(events[-1], {"type": "error", "error": {
            "type": "overloaded_error", "message": "Overloaded"}})
        self.assertNotIn("message_stop", [e["type"] for e in events])

        raw = openai_stream(srv.port)
        self.assertTrue(raw.terminated)
        chunks = openai_chunks(raw)
        self.assertNotIn("[DONE]", chunks)
        last = json.loads(chunks[-1])
        self.assertEqual(last["error"]["type"], "server_error")
        self.assertIn("message", last["error"])


class Windows(ServerTest):
    """The `limit`, `summary` and `usage_by_size` script keys (rio's context budget)."""

    def test_a_request_over_the_limit_is_refused_in_each_familys_words(self):
        words = {"anthropic": "prompt is too long", "openai": "context_length_exceeded",
                 "llamacpp": "exceed_context_size_error", "vllm": "maximum context length is",
                 "ollama": "the input length exceeds the context length"}
        for wording, phrase in words.items():
            srv = self.serve([{"text": "fits"}], limit={"over_first": 100, "wording": wording})
            small = anthropic_stream(srv.port)
            self.assertEqual(small.status, 200, wording)
            big = {"model": "m", "max_tokens": 100, "stream": True,
                   "messages": [{"role": "user", "content": "x" * 500}]}
            raw = anthropic_stream(srv.port, body=big)
            self.assertEqual(raw.status, 400, wording)
            self.assertIn(phrase, json.dumps(raw.json()), wording)
            refused = [r for r in srv.log_records() if r.get("refused")]
            self.assertEqual(len(refused), 1)
            self.assertGreater(refused[0]["refused"]["size"], refused[0]["refused"]["limit"])
            self.assertIsNone(refused[0]["response_index"], "a refusal uses up no response")

    def test_a_request_without_tools_gets_the_summary_response(self):
        srv = self.serve([{"text": "step"}], summary={"text": "the summary"})
        body = {"model": "m", "max_tokens": 100, "stream": True,
                "messages": [{"role": "user", "content": "summarize"}]}
        raw = anthropic_stream(srv.port, body=body)
        text = "".join(e["delta"].get("text", "") for e in anthropic_events(raw)
                       if e["type"] == "content_block_delta")
        self.assertEqual(text, "the summary")
        body["tools"] = [{"name": "t", "input_schema": {"type": "object"}}]
        raw = anthropic_stream(srv.port, body=body)
        text = "".join(e["delta"].get("text", "") for e in anthropic_events(raw)
                       if e["type"] == "content_block_delta")
        self.assertEqual(text, "step", "a request with tools takes the script's next")

    def test_usage_by_size_counts_four_bytes_a_token(self):
        srv = self.serve([{"text": "a"}], usage_by_size=True)
        raw = openai_stream(srv.port)
        chunks = [json.loads(d) for _, d in sse(raw.body) if d != "[DONE]"]
        usage = [c["usage"] for c in chunks if c.get("usage")][-1]
        size = len(json.dumps(srv.log_records()[0]["body"]).encode())
        self.assertAlmostEqual(usage["prompt_tokens"], size // 4, delta=size // 16)


class Faults(ServerTest):
    TEXT = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu"

    def test_close_mid_stream(self):
        srv = self.serve([{"text": self.TEXT, "fault": "close_mid_stream"},
                          {"text": self.TEXT, "fault": "close_mid_stream"},
                          {"text": "after"}])
        raw = anthropic_stream(srv.port)
        self.assertEqual(raw.status, 200)
        self.assertFalse(raw.terminated, "no final 0-size chunk")
        self.assertTrue(raw.data.endswith(b"\r\n"), "closes on a chunk boundary")
        types = [e["type"] for e in anthropic_events(raw)]
        self.assertIn("content_block_delta", types)
        self.assertNotIn("message_stop", types)
        self.assertNotIn("message_delta", types)

        raw = openai_stream(srv.port)
        self.assertFalse(raw.terminated)
        chunks = openai_chunks(raw)
        self.assertGreater(len(chunks), 1)
        self.assertNotIn("[DONE]", chunks)
        # The server is still fine afterwards.
        self.assertTrue(anthropic_stream(srv.port).terminated)

    def test_garbage_then_continue(self):
        srv = self.serve([{"text": self.TEXT, "fault": "garbage"},
                          {"text": self.TEXT, "fault": "garbage"}])
        raw = anthropic_stream(srv.port)
        self.assertTrue(raw.terminated)
        events = sse(raw.body)
        self.assertEqual(events[0][0], "message_start")
        self.assertEqual(events[1], ("content_block_delta", '{"type": ???'))
        with self.assertRaises(ValueError):
            json.loads(events[1][1])
        rest = [json.loads(d) for _, d in events[2:]]
        self.assertEqual(rest[-1]["type"], "message_stop")
        self.assertEqual("".join(e["delta"]["text"] for e in rest
                                 if e["type"] == "content_block_delta"), self.TEXT)

        raw = openai_stream(srv.port)
        chunks = openai_chunks(raw)
        self.assertEqual(chunks[1], '{"choices": ???')
        self.assertEqual(chunks[-1], "[DONE]")
        text, _, _, finish, _ = openai_reassemble(self, chunks[:1] + chunks[2:])
        self.assertEqual((text, finish), (self.TEXT, "stop"))

    def test_split_bytes(self):
        srv = self.serve([{"text": "split me into bytes, please — ünïcode too", "fault":
                           "split_bytes"},
                          {"text": "split me into bytes, please — ünïcode too"}])
        started = time.monotonic()
        raw = anthropic_stream(srv.port)
        elapsed = time.monotonic() - started
        whole = anthropic_stream(srv.port)
        self.assertLess(elapsed, 10)
        self.assertTrue(raw.terminated)
        self.assertGreater(len(raw.reads), len(raw.data) // 4,
                           f"{len(raw.data)} bytes came in only {len(raw.reads)} reads")
        self.assertLess(len(whole.reads), 20)
        self.assertEqual(anthropic_blocks(anthropic_events(raw)),
                         anthropic_blocks(anthropic_events(whole)))

    def test_stall_holds_then_continues(self):
        srv = self.serve([{"text": self.TEXT, "fault": "stall", "stall_s": 1.0}])
        raw = anthropic_stream(srv.port)
        self.assertTrue(raw.terminated)
        first_end = raw.chunks[0][1]
        self.assertTrue(raw.chunks[0][0].startswith(b"event: message_start"))
        gap = raw.arrival(first_end) - raw.arrival(first_end - 1)
        self.assertGreaterEqual(gap, 0.9)
        self.assertLess(gap, 3)
        self.assertEqual(anthropic_events(raw)[-1]["type"], "message_stop")

    def test_client_closing_during_stall_is_logged(self):
        srv = self.serve([{"text": self.TEXT, "fault": "stall", "stall_s": 20},
                          {"text": "next"}])
        started = time.monotonic()
        raw = openai_stream(srv.port, close_after=lambda d: b"\n\n" in d.partition(
            b"\r\n\r\n")[2])
        self.assertFalse(raw.terminated)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            closed = [r for r in srv.log_records() if r.get("event") == "client_closed"]
            if closed:
                break
            time.sleep(0.05)
        self.assertEqual([{k: v for k, v in r.items() if k != "t"} for r in closed],
                         [{"event": "client_closed", "response_index": 0}])
        self.assertIsInstance(closed[0]["t"], float)
        self.assertLess(time.monotonic() - started, 5)
        text, *_ = openai_reassemble(self, openai_chunks(openai_stream(srv.port)))
        self.assertEqual(text, "next")

    def test_client_closing_between_paced_events_is_logged(self):
        srv = self.serve([{"text": self.TEXT, "event_delay_s": 0.2}])
        raw = anthropic_stream(srv.port, close_after=lambda d: b"text_delta" in d)
        self.assertFalse(raw.terminated)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and len(srv.log_records()) < 2:
            time.sleep(0.05)
        self.assertEqual([{k: v for k, v in r.items() if k != "t"} for r in srv.log_records()[1:]],
                         [{"event": "client_closed", "response_index": 0}])

    def test_trace_logs_when_each_event_went_out(self):
        srv = self.serve([{"text": self.TEXT, "trace": True}])
        anthropic_stream(srv.port)
        sent = [r for r in srv.log_records() if r.get("event") == "sent"]
        self.assertGreater(len(sent), 3)
        self.assertEqual([r["frame"] for r in sent], list(range(len(sent))))
        times = [r["t"] for r in sent]
        self.assertEqual(times, sorted(times))

    def test_hanging_up_after_the_last_event_is_not_early(self):
        srv = self.serve([{"text": self.TEXT, "fault": "split_bytes", "trace": True},
                          {"text": self.TEXT, "fault": "split_bytes", "trace": True}])
        anthropic_stream(srv.port, close_after=lambda d: d.endswith(b'"message_stop"}\n\n'))
        openai_stream(srv.port, close_after=lambda d: d.endswith(b"data: [DONE]\n\n"))
        # The server says when it has written each reply's end; a hang-up it took for an early
        # one would have been logged before that.
        records = srv.wait_for("both replies finished",
                               lambda rs: sum(r["event"] == "finished" for r in rs) == 2)
        self.assertEqual([r["event"] for r in records if r["event"] not in ("sent", "finished")],
                         ["request", "request"])

    def test_delay_before_answer(self):
        srv = self.serve([{"text": "late", "delay_s": 0.6}])
        started = time.monotonic()
        raw = anthropic_stream(srv.port)
        self.assertGreaterEqual(raw.arrival(0) - started, 0.55)
        self.assertTrue(raw.terminated)

    def test_split_bytes_with_close_mid_stream(self):
        srv = self.serve([{"text": self.TEXT, "fault": ["split_bytes", "close_mid_stream"]}])
        raw = openai_stream(srv.port)
        self.assertFalse(raw.terminated)
        self.assertNotIn("[DONE]", openai_chunks(raw))
        self.assertGreater(len(raw.reads), len(raw.data) // 4)


class Plumbing(ServerTest):
    def test_request_log_and_script_end(self):
        srv = self.serve([{"text": "first"}])
        anthropic_stream(srv.port)
        raw = openai_stream(srv.port)
        text, *_ = openai_reassemble(self, openai_chunks(raw))
        self.assertEqual(text, "(fake script ended)")
        records = srv.log_records()
        self.assertEqual(len(records), 2)
        a, o = records
        self.assertEqual((a["method"], a["path"], a["response_index"]),
                         ("POST", "/v1/messages", 0))
        self.assertEqual(a["headers"]["x-api-key"], "sk-ant-test")
        self.assertEqual(a["headers"]["anthropic-version"], "2023-06-01")
        self.assertEqual(a["body"]["messages"], [{"role": "user", "content": "hi"}])
        self.assertNotIn("script_ended", a)
        self.assertEqual((o["path"], o["response_index"], o["script_ended"]),
                         ("/v1/chat/completions", 1, True))
        self.assertEqual(o["headers"]["authorization"], "Bearer sk-test")
        self.assertEqual(o["body"]["stream_options"], {"include_usage": True})

    def test_models_and_unknown_paths(self):
        srv = self.serve([], models=["m-one", "m-two"])
        raw = raw_request(srv.port, "/v1/models", None, ANTHROPIC_HEADERS, method="GET")
        body = raw.json()
        self.assertEqual([m["id"] for m in body["data"]], ["m-one", "m-two"])
        self.assertEqual(body["data"][0]["type"], "model")
        self.assertFalse(body["has_more"])
        raw = raw_request(srv.port, "/v1/models", None, OPENAI_HEADERS, method="GET")
        body = raw.json()
        self.assertEqual(body["object"], "list")
        self.assertEqual(body["data"][1], {"id": "m-two", "object": "model",
                                           "created": body["data"][1]["created"],
                                           "owned_by": "fake"})
        raw = raw_request(srv.port, "/v1/nothing", {}, ANTHROPIC_HEADERS)
        self.assertEqual(raw.status, 404)
        self.assertEqual(raw.json()["error"]["type"], "not_found_error")
        raw = raw_request(srv.port, "/v1/nothing", {}, OPENAI_HEADERS)
        self.assertEqual(raw.status, 404)
        self.assertEqual(raw.json()["error"]["type"], "invalid_request_error")
        self.assertEqual([r["response_index"] for r in srv.log_records()], [None] * 4)

    def test_a_web_site_path_answers_a_page(self):
        srv = self.serve([{"text": "not taken"}])
        raw = raw_request(srv.port, "/website/v1/messages", {"stream": True}, ANTHROPIC_HEADERS)
        self.assertEqual(raw.status, 200)
        self.assertTrue(raw.headers["content-type"].startswith("text/html"))
        self.assertIn(b"<html>", raw.body_raw)
        self.assertEqual(srv.log_records()[0]["response_index"], None, "no response taken")

    def test_non_streaming_replies(self):
        tools = [{"name": "t", "input": {"a": 1}}]
        srv = self.serve([{"text": "plain", "tools": tools}, {"text": "plain", "tools": tools}])
        msg = raw_request(srv.port, "/v1/messages", {"model": "c", "max_tokens": 5},
                          ANTHROPIC_HEADERS).json()
        self.assertEqual(msg["type"], "message")
        self.assertEqual([b["type"] for b in msg["content"]], ["text", "tool_use"])
        self.assertEqual(msg["content"][1]["input"], {"a": 1})
        self.assertEqual(msg["stop_reason"], "tool_use")
        done = raw_request(srv.port, "/v1/chat/completions", {"model": "g"},
                           OPENAI_HEADERS).json()
        self.assertEqual(done["object"], "chat.completion")
        choice = done["choices"][0]
        self.assertEqual(choice["finish_reason"], "tool_calls")
        self.assertEqual(choice["message"]["content"], "plain")
        self.assertEqual(json.loads(choice["message"]["tool_calls"][0]["function"]["arguments"]),
                         {"a": 1})

    def test_keep_alive_and_http_client(self):
        srv = self.serve([{"text": "one"}, {"text": "two"}])
        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
        texts = []
        for _ in range(2):
            conn.request("POST", "/v1/messages", body=json.dumps(
                {"model": "c", "stream": True, "messages": []}), headers=ANTHROPIC_HEADERS)
            resp = conn.getresponse()
            self.assertEqual(resp.status, 200)
            self.assertEqual(resp.getheader("connection"), "keep-alive")
            events = [json.loads(d) for _, d in sse(resp.read())]
            texts.append("".join(e["delta"]["text"] for e in events
                                 if e["type"] == "content_block_delta"))
        conn.close()
        self.assertEqual(texts, ["one", "two"])

    def test_bad_script_is_rejected(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.json")
            with open(path, "w") as f:
                json.dump({"responses": [{"text": "x", "fault": "explode"}]}, f)
            res = subprocess.run([sys.executable, SERVER, "--script", path, "--log",
                                  os.path.join(d, "log")], capture_output=True, timeout=10)
            self.assertEqual(res.returncode, 2)
            self.assertEqual(res.stdout, b"")
            self.assertIn(b"unknown fault", res.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
