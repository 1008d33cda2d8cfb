#!/usr/bin/env python3
"""Whole-process benchmark of what a long task costs on Anthropic's wire (DESIGN §18,
issue 29): rio-cli runs a 25-request task against the tests' fake server — read 8 files,
present a plan, approve it, 10 edits, 5 re-reads, a final answer — and the bill is computed
from the request bodies the server logged, the way Anthropic bills prompt caching:

  cache reads 0.1x, cache writes 1.25x, uncached input 1x; tokens ~= bytes / 4.

A request's cached prefix ends at a cache_control breakpoint; a breakpoint reads the longest
prefix an earlier request wrote (looking back up to 20 blocks, as the API does) and writes
its own; prefixes under 1,024 tokens are not cached. Also prints the bill of the same
requests without any breakpoint (what rio paid before caching), and one plan approval's
cost: the tokens of the request right after the approval that were not read from the cache.

The same task then runs on OpenAI's two wires (issue 49), Chat Completions and the Responses
API, billed as OpenAI bills its automatic prompt caching: a request reads from the cache the
longest prefix of its prompt (tools, instructions, then the conversation, in the order the
server assembles them) that an earlier request had, counted in steps of 128 tokens once it
reaches 1,024; cached input 0.1x (the GPT-5 family's rate), the rest 1x, no write premium.
Prefixes are compared a block at a time (a tool, the instructions, one message or item), so a
partly shared block counts as uncached.

  cache_bill_bench.py [BUILD_DIR]      (exit 1 when the bill is over the issue's goal)
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAKE = os.path.join(ROOT, "tests", "fake_llm", "fake_llm_server.py")
GOAL = 40_000
MIN_CACHED_BYTES = 1024 * 4
LOOKBACK = 20


def source_file(n):
    """A Python module of about 3 KB whose `VALUE_k = k` lines the edits change."""
    lines = [f'"""Module {n} of the benchmark project."""', "", "import os", ""]
    for k in range(34):
        lines.append(f"VALUE_{k} = {k}  # setting {k} of module {n}, read by the service")
    lines.append("")
    lines.append(f"def describe_{n}():")
    lines.append(f'    return "module {n}: " + ", ".join(str(v) for v in (VALUE_0, VALUE_1))')
    return "\n".join(lines) + "\n"


def tool(call_id, name, inputs):
    return {"tools": [{"id": call_id, "name": name, "input": inputs}]}


def script():
    steps = [tool(f"r{n}", "read_file", {"path": f"mod{n}.py"}) for n in range(8)]
    plan = "\n".join(f"{k + 1}. In mod{k % 8}.py set VALUE_{k} to {k * 10}." for k in range(10))
    steps.append(tool("p1", "present_plan", {"title": "Retune ten values", "plan": plan}))
    for k in range(10):
        steps.append(tool(f"e{k}", "edit_file",
                          {"path": f"mod{k % 8}.py", "old_string": f"VALUE_{k} = {k}  #",
                           "new_string": f"VALUE_{k} = {k * 10}  #"}))
    steps += [tool(f"v{n}", "read_file", {"path": f"mod{n}.py"}) for n in range(5)]
    steps.append({"text": "Done: ten values retuned and checked."})
    return {"responses": steps}


def blocks(body):
    """The request as Anthropic's prefix sees it: tools, system, then each message's blocks,
    each with its size, whether a breakpoint sits on it, and its content without the mark."""
    out = []
    for t in body.get("tools", []):
        out.append(("tool", t))
    system = body.get("system")
    if isinstance(system, str):
        system = [{"type": "text", "text": system}]
    for b in system or []:
        out.append(("system", b))
    for m in body.get("messages", []):
        content = m["content"]
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        for i, b in enumerate(content):
            out.append((m["role"] + (":start" if i == 0 else ""), b))
    result = []
    for kind, b in out:
        mark = "cache_control" in b
        plain = {k: v for k, v in b.items() if k != "cache_control"}
        text = json.dumps([kind, plain], separators=(",", ":"), ensure_ascii=False)
        result.append((len(text.encode()), mark, text))
    return result


def openai_blocks(body):
    """An OpenAI request's prompt as the server assembles it, one block at a time: the tools,
    then the instructions (Responses) or the messages (Chat Completions, system first), then
    the conversation's items."""
    out = [json.dumps(["tool", t], separators=(",", ":"), ensure_ascii=False)
           for t in body.get("tools", [])]
    if "instructions" in body:
        out.append(json.dumps(["instructions", body["instructions"]], separators=(",", ":"),
                              ensure_ascii=False))
    for item in body.get("input", body.get("messages", [])):
        out.append(json.dumps(["item", item], separators=(",", ":"), ensure_ascii=False))
    return out


def openai_bill(bodies):
    """OpenAI's automatic caching: the longest earlier prefix, in 128-token steps from 1,024."""
    seen = set()
    totals = {"read": 0, "uncached": 0}
    for body in bodies:
        total = len(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())
        digest, at, read = hashlib.sha256(), 0, 0
        prefixes = []
        for text in openai_blocks(body):
            digest.update(text.encode())
            at += len(text.encode())
            prefixes.append((digest.copy().hexdigest(), at))
        for h, size in prefixes:
            if h in seen:
                read = size
        seen.update(h for h, _ in prefixes)
        read = read // 512 * 512 if read >= MIN_CACHED_BYTES else 0
        totals["read"] += read
        totals["uncached"] += total - read
    tokens = {k: v / 4 for k, v in totals.items()}
    return tokens["read"] * 0.1 + tokens["uncached"], tokens


def bill(bodies, honour_breakpoints=True):
    cache = set()
    totals = {"read": 0, "write": 0, "uncached": 0}
    per_request = []
    for body in bodies:
        total = len(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())
        bl = blocks(body)
        digest, hashes, sizes, at = hashlib.sha256(), [], [], 0
        for size, _, text in bl:
            digest.update(text.encode())
            hashes.append(digest.copy().hexdigest())
            at += size
            sizes.append(at)
        marks = [i for i, (_, mark, _) in enumerate(bl) if mark] if honour_breakpoints else []
        hit = -1
        for b in marks:
            for j in range(b, max(-1, b - LOOKBACK - 1), -1):
                if hashes[j] in cache:
                    hit = max(hit, j)
                    break
        read = sizes[hit] if hit >= 0 else 0
        last = marks[-1] if marks else -1
        write = 0
        if last >= 0 and sizes[last] > read:
            write = sizes[last] - read
        for b in marks:
            if sizes[b] >= MIN_CACHED_BYTES:
                cache.add(hashes[b])
        if last >= 0 and sizes[last] < MIN_CACHED_BYTES:
            write = 0
        uncached = total - read - write
        totals["read"] += read
        totals["write"] += write
        totals["uncached"] += uncached
        per_request.append((read, write, uncached))
    tokens = {k: v / 4 for k, v in totals.items()}
    cost = tokens["read"] * 0.1 + tokens["write"] * 1.25 + tokens["uncached"]
    return cost, tokens, per_request


def run(rio_cli, servers=True, wire="anthropic"):
    """The task's request bodies; run.wall is its wall time. Without `servers` the user's
    lsp.json disables every built-in language server (as if none were on PATH). `wire` is
    anthropic, or chat / responses: the openai provider with that wire option."""
    work = tempfile.mkdtemp(prefix="rio-bill-")
    try:
        os.makedirs(os.path.join(work, "config", "rio", "providers"))
        if wire != "anthropic":
            with open(os.path.join(work, "config", "rio", "providers", "openai.json"), "w") as f:
                json.dump({"wire": wire}, f)
        if not servers:
            with open(os.path.join(work, "config", "rio", "lsp.json"), "w") as f:
                json.dump({"servers": {name: {"disabled": True} for name in
                                       ("clangd", "pylsp", "typescript", "rust-analyzer",
                                        "gopls")}}, f)
        project = os.path.join(work, "project")
        os.makedirs(project)
        for n in range(8):
            with open(os.path.join(project, f"mod{n}.py"), "w") as f:
                f.write(source_file(n))
        with open(os.path.join(work, "script.json"), "w") as f:
            # OpenAI's wires report their cache themselves (cached_tokens), as OpenAI would.
            json.dump(dict(script(), usage_by_prefix=wire != "anthropic"), f)
        log = os.path.join(work, "log.jsonl")
        server = subprocess.Popen([sys.executable, FAKE, "--script", os.path.join(work, "script.json"),
                                   "--log", log], stdout=subprocess.PIPE, text=True)
        try:
            port = server.stdout.readline().strip().rsplit(":", 1)[1]
            env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"),
                       XDG_DATA_HOME=os.path.join(work, "data"),
                       XDG_STATE_HOME=os.path.join(work, "state"), OLLAMA_HOST="127.0.0.1:1",
                       ANTHROPIC_BASE_URL="http://127.0.0.1:" + port,
                       ANTHROPIC_API_KEY="sk-bench",
                       OPENAI_BASE_URL="http://127.0.0.1:" + port + "/v1",
                       OPENAI_API_KEY="sk-bench")
            env.pop("RIO_PROVIDER", None)
            # The project trusted, as a user who works in it would have: the built-in
            # language servers (pylsp here) start only then (decision 0071). No edit waits
            # for them; the turn waits once before it ends (decision 0076).
            started = time.perf_counter()
            done = subprocess.run([rio_cli, "-p", "Retune the ten values the service reads",
                                   "--output-format", "json",
                                   "--mode", "plan",
                                   "--provider", "anthropic" if wire == "anthropic" else "openai",
                                   "--approve-plans", "auto", "--trust-project", project],
                                  env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, timeout=120)
            run.wall = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait()
        if done.returncode != 0:
            raise SystemExit(f"rio-cli exited {done.returncode}:\n{done.stderr}")
        # The token counts rio summed from what the wire reported (its result's usage).
        run.usage = json.loads(done.stdout.strip().splitlines()[-1]).get("usage", {})
        with open(log) as f:
            requests = [json.loads(line) for line in f if line.strip()]
        return [r["body"] for r in requests if r.get("event") == "request" and r.get("body")]
    finally:
        shutil.rmtree(work)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    bodies = run(os.path.join(build, "rio-cli"))
    cost, tokens, per = bill(bodies)
    plain, _, _ = bill(bodies, honour_breakpoints=False)
    sizes = [len(json.dumps(b, separators=(",", ":")).encode()) for b in bodies]
    print(f"25-request task on Anthropic's wire (fake server), {len(bodies)} requests, "
          f"{sum(sizes) / 1024:.0f} KB sent, first request {sizes[0] / 1024:.1f} KB")
    print(f"  bill: {cost / 1000:.1f}k token-equivalents (cache reads {tokens['read'] / 1000:.1f}k "
          f"x0.1, writes {tokens['write'] / 1000:.1f}k x1.25, uncached "
          f"{tokens['uncached'] / 1000:.1f}k x1)")
    print(f"  the same requests without breakpoints: {plain / 1000:.1f}k")
    with_servers = run.wall
    run(os.path.join(build, "rio-cli"), servers=False)
    print(f"  wall time of the whole task: {with_servers:.2f} s with the language servers on "
          f"PATH (pylsp), {run.wall:.2f} s with them disabled "
          f"(+{with_servers - run.wall:.2f} s; pylsp's debounce is 0.5 s)")
    approval = next((i for i, b in enumerate(bodies)
                     if any(c.get("type") == "tool_result" and c.get("tool_use_id") == "p1"
                            for m in b.get("messages", []) if isinstance(m["content"], list)
                            for c in m["content"])), None)
    if approval is not None:
        read, write, uncached = per[approval]
        before = per[approval - 1]
        print(f"  one plan approval (request {approval + 1}): {read / 4 / 1000:.1f}k read, "
              f"{write / 4 / 1000:.1f}k written, {uncached / 4 / 1000:.1f}k uncached "
              f"(the request before it: {before[0] / 4 / 1000:.1f}k read, "
              f"{before[1] / 4 / 1000:.1f}k written)")
    for wire, name in (("chat", "OpenAI Chat Completions"), ("responses", "OpenAI Responses API")):
        other = run(os.path.join(build, "rio-cli"), servers=False, wire=wire)
        other_cost, other_tokens = openai_bill(other)
        other_sizes = [len(json.dumps(b, separators=(",", ":")).encode()) for b in other]
        reported = run.usage
        cached, uncached = (reported.get("cache_read_input_tokens", 0),
                            reported.get("input_tokens", 0))
        print(f"  on {name}: {len(other)} requests, {sum(other_sizes) / 1024:.0f} KB sent, "
              f"bill {other_cost / 1000:.1f}k (cached {other_tokens['read'] / 1000:.1f}k x0.1, "
              f"uncached {other_tokens['uncached'] / 1000:.1f}k x1), wall {run.wall:.2f} s "
              f"(servers disabled)")
        print(f"    as the wire reported it to rio: {(cached * 0.1 + uncached) / 1000:.1f}k "
              f"(cached_tokens {cached / 1000:.1f}k x0.1, the rest {uncached / 1000:.1f}k x1)")
    if cost > GOAL:
        print(f"  over the goal of {GOAL / 1000:.0f}k")
        sys.exit(1)


if __name__ == "__main__":
    main()
