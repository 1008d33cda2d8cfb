#!/usr/bin/env python3
"""A tiny MCP server over stdio that misbehaves on purpose, for rio's MCP fault tests.

Usage: mcp_odd_server.py MODE [MARKER_DIR]
Every mode answers initialize and tools/list (one read-only tool, "probe"); then tools/call:
  ok       -> a text block, an image block and a resource link
  hang     -> never answers (rio's timeout must end the call)
  garbage  -> a line that is not JSON
  crash    -> exits with code 3, saying why on stderr
  iserror  -> a result with isError: true
  grow     -> answers, then announces tools/list_changed; the next list adds "grown"
  nostart  -> exits with code 2 before reading anything
  client   -> asks rio for sampling, elicitation and roots/list, sends two
              notifications/progress for the call's progressToken, and answers what came
              back as JSON text: {capabilities, roots, roots_changed, sampling, elicitation,
              progress_token} (roots_changed counts notifications/roots/list_changed so far)
  slow     -> as ok, but takes a second to answer initialize (a server that starts slowly)
With MARKER_DIR, writes its pid to MARKER_DIR/pid at start and touches MARKER_DIR/called
when a tools/call arrives, so a test can wait for either without a clock.
"""
import json
import os
import sys
import time

mode = sys.argv[1]
marker = sys.argv[2] if len(sys.argv) > 2 else None


def mark(name, text=""):
    if marker:
        with open(os.path.join(marker, name + ".tmp"), "w") as f:
            f.write(text)
        os.rename(os.path.join(marker, name + ".tmp"), os.path.join(marker, name))


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def tool(name):
    return {"name": name, "description": "a tool of the odd server",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
            "annotations": {"readOnlyHint": True}}


if mode == "nostart":
    sys.stderr.write("odd server: refusing to start\n")
    sys.exit(2)
mark("pid", str(os.getpid()))
grown = False
capabilities = None
roots_changed = 0
asked = 0


def ask(method, params=None):
    """A request to rio; what it answered (result or error), read in order with whatever
    else comes meanwhile (only notifications can: rio waits for this call's answer)."""
    global asked, roots_changed
    asked += 1
    rid = "odd-" + str(asked)
    send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params or {}})
    for reply in sys.stdin:
        reply = json.loads(reply)
        if reply.get("id") == rid and "method" not in reply:
            return reply.get("result", reply.get("error"))
        if reply.get("method") == "notifications/roots/list_changed":
            roots_changed += 1


for line in sys.stdin:
    message = json.loads(line)
    method, mid = message.get("method"), message.get("id")
    if method == "notifications/roots/list_changed":
        roots_changed += 1
        continue
    if method == "initialize":
        capabilities = message["params"].get("capabilities")
        if mode == "slow":
            time.sleep(1)
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "protocolVersion": "2025-11-25", "capabilities": {"tools": {"listChanged": True}},
            "serverInfo": {"name": "odd", "version": "0"}}})
    elif method == "tools/list":
        tools = [tool("probe")] + ([tool("grown")] if grown else [])
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": tools}})
    elif method == "tools/call":
        mark("called")
        if mode == "hang":
            continue
        if mode == "garbage":
            sys.stdout.write("this is not JSON-RPC\n")
            sys.stdout.flush()
            continue
        if mode == "crash":
            sys.stderr.write("boom: crashed on purpose\n")
            sys.exit(3)
        if mode == "client":
            token = message["params"].get("_meta", {}).get("progressToken")
            answers = {"capabilities": capabilities, "progress_token": token,
                       "sampling": ask("sampling/createMessage",
                                       {"messages": [], "maxTokens": 1}),
                       "elicitation": ask("elicitation/create",
                                          {"message": "?", "requestedSchema": {"type": "object"}}),
                       "roots": ask("roots/list")}
            for step in (1, 2):
                send({"jsonrpc": "2.0", "method": "notifications/progress",
                      "params": {"progressToken": token, "progress": step, "total": 2,
                                 "message": "step " + str(step)}})
            answers["roots_changed"] = roots_changed
            send({"jsonrpc": "2.0", "id": mid, "result": {
                "content": [{"type": "text", "text": json.dumps(answers)}]}})
            continue
        if mode == "iserror":
            send({"jsonrpc": "2.0", "id": mid, "result": {
                "content": [{"type": "text", "text": "the probe broke"}], "isError": True}})
            continue
        send({"jsonrpc": "2.0", "id": mid, "result": {"content": [
            {"type": "text", "text": "probed: " + json.dumps(message["params"].get("arguments"))},
            {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo" * 100},
            {"type": "resource_link", "uri": "file:///x.txt", "name": "x.txt"}]}})
        if mode == "grow" and not grown:
            grown = True
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    elif mid is not None:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "no " + str(method)}})
