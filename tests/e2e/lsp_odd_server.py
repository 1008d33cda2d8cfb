#!/usr/bin/env python3
"""A tiny language server over stdio that misbehaves on purpose, for rio's LSP fault tests.

Usage: lsp_odd_server.py MODE [MARKER_DIR]
Every mode but nostart and hang answers initialize (incremental sync, hover, definition).
On didOpen and didChange it publishes, for the document's version, one error per line that
holds "ERROR" (its range: the word, in UTF-16 code units); hover answers "hover L:C".
  ok        -> just that
  hang      -> never answers initialize
  slow      -> answers initialize, never answers hover
  garbage   -> after didOpen, a message whose body is not JSON
  oversized -> after didOpen, a header announcing a 100 MB message
  flood     -> after didOpen, 20000 notifications (logs, progress and diagnostics for
               other files), then the diagnostics as usual
  stray     -> before answering initialize: responses to ids rio never sent
  crash     -> exits with code 3 at didOpen, saying why on stderr
  outside   -> publishes one diagnostic far past the end of the text and one whose
               character falls inside a surrogate pair of the first line
  silent    -> never publishes diagnostics
  mirror    -> hover answers the document's whole text as the server has it; didSave
               publishes, besides the errors, one hint "saved: TEXT" with the text it has
  nostart   -> exits with code 2 before reading anything
  held      -> publishes nothing until a hover comes, then for every open document (a
               server whose debounce lasts as long as the test wants)
  passes    -> publishes in two passes without a version, as typescript-language-server
               does: an empty list, then the errors
  codepoints-> applies incremental changes counting code points, as pylsp 1.7 does (hover
               answers the text it has, as mirror's)
  many      -> after didOpen, the usual diagnostics, then one error for each of 3000 files of
               the project (gen/N.odd) and 100 outside it, then one "after many" for the document
With MARKER_DIR, writes its pid to MARKER_DIR/pid at start (replacing it atomically).
"""
import json
import os
import sys

mode = sys.argv[1]
marker = sys.argv[2] if len(sys.argv) > 2 else None

if marker:
    with open(os.path.join(marker, "pid.tmp"), "w") as f:
        f.write(str(os.getpid()))
    os.rename(os.path.join(marker, "pid.tmp"), os.path.join(marker, "pid"))

if mode == "nostart":
    sys.stderr.write("odd server: refusing to start\n")
    sys.exit(2)

inp = sys.stdin.buffer
out = sys.stdout.buffer
docs = {}


def send(obj):
    body = json.dumps(obj).encode()
    out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    out.flush()


def read():
    length = None
    while True:
        line = inp.readline()
        if not line:
            sys.exit(0)
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return json.loads(inp.read(length))


def units(text):
    return len(text.encode("utf-16-le")) // 2


def publish(uri, saved=False):
    if mode in ("silent", "held"):
        return
    text, version = docs[uri]
    diagnostics = []
    for n, line in enumerate(text.split("\n")):
        at = line.find("ERROR")
        if at >= 0:
            start = units(line[:at])
            diagnostics.append({
                "range": {"start": {"line": n, "character": start},
                          "end": {"line": n, "character": start + 5}},
                "severity": 1, "source": "odd", "code": "E1",
                "message": "ERROR found"})
    if mode == "outside":
        first = text.split("\n")[0]
        # the character just inside the first surrogate pair of line 0
        inside = next((units(first[:i]) + 1 for i, c in enumerate(first) if ord(c) > 0xFFFF), 0)
        diagnostics = [
            {"range": {"start": {"line": 1000, "character": 5},
                       "end": {"line": 1000, "character": 9}},
             "severity": 2, "message": "past the end"},
            {"range": {"start": {"line": 0, "character": inside},
                       "end": {"line": 0, "character": 9999}},
             "severity": 1, "message": "inside a pair"}]
    if saved:
        diagnostics.append({"range": {"start": {"line": 0, "character": 0},
                                      "end": {"line": 0, "character": 0}},
                            "severity": 4, "message": "saved: " + text})
    if mode == "passes":
        for listed in ([], diagnostics):
            send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                  "params": {"uri": uri, "diagnostics": listed}})
        return
    send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
          "params": {"uri": uri, "version": version, "diagnostics": diagnostics}})


def apply(text, change):
    if "range" not in change:
        return change["text"]
    lines = text.split("\n")

    def offset(pos):
        before = sum(len(l) + 1 for l in lines[:pos["line"]])
        line = lines[pos["line"]] if pos["line"] < len(lines) else ""
        n, u = 0, 0
        while n < len(line) and u < pos["character"]:
            u += 2 if ord(line[n]) > 0xFFFF and mode != "codepoints" else 1
            n += 1
        return before + n

    start, end = offset(change["range"]["start"]), offset(change["range"]["end"])
    return text[:start] + change["text"] + text[end:]


while True:
    msg = read()
    method = msg.get("method")
    if method == "initialize":
        if mode == "hang":
            continue
        if mode == "stray":
            send({"jsonrpc": "2.0", "id": 9999, "result": {}})
            send({"jsonrpc": "2.0", "id": "not-yours", "result": None})
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"capabilities": {
            "textDocumentSync": {"openClose": True, "change": 2, "save": True},
            "hoverProvider": True, "definitionProvider": True}}})
    elif method == "textDocument/didOpen":
        doc = msg["params"]["textDocument"]
        docs[doc["uri"]] = (doc["text"], doc["version"])
        if mode == "crash":
            sys.stderr.write("odd server: crashing on purpose\n")
            sys.stderr.flush()
            sys.exit(3)
        if mode == "garbage":
            body = b"{this is not json"
            out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            out.flush()
            continue
        if mode == "oversized":
            out.write(b"Content-Length: 100000000\r\n\r\n")
            out.flush()
            continue
        if mode == "flood":
            for i in range(20000):
                kind = i % 3
                if kind == 0:
                    send({"jsonrpc": "2.0", "method": "window/logMessage",
                          "params": {"type": 4, "message": "log %d" % i}})
                elif kind == 1:
                    send({"jsonrpc": "2.0", "method": "$/progress",
                          "params": {"token": "t", "value": {"kind": "report"}}})
                else:
                    send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                          "params": {"uri": "file:///nonexistent/flood/%d.txt" % (i % 50),
                                     "diagnostics": []}})
        if mode == "many":
            publish(doc["uri"])
            folder = doc["uri"].rsplit("/", 1)[0]
            error = [{"range": {"start": {"line": 0, "character": 0},
                                "end": {"line": 0, "character": 1}},
                      "severity": 1, "message": "generated"}]
            for uri in ["%s/gen/%d.odd" % (folder, i) for i in range(3000)] + \
                       ["file:///nonexistent/many/%d.odd" % i for i in range(100)]:
                send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                      "params": {"uri": uri, "diagnostics": error}})
            error[0]["message"] = "after many"
            send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                  "params": {"uri": doc["uri"], "diagnostics": error}})
            continue
        publish(doc["uri"])
    elif method == "textDocument/didChange":
        uri = msg["params"]["textDocument"]["uri"]
        text = docs[uri][0]
        for change in msg["params"]["contentChanges"]:
            text = apply(text, change)
        docs[uri] = (text, msg["params"]["textDocument"]["version"])
        publish(uri)
    elif method == "textDocument/didSave" and mode == "mirror":
        publish(msg["params"]["textDocument"]["uri"], saved=True)
    elif method == "textDocument/didClose":
        docs.pop(msg["params"]["textDocument"]["uri"], None)
    elif method == "textDocument/hover":
        if mode == "slow":
            continue
        if mode == "held":
            mode = "ok"
            for uri in docs:
                publish(uri)
            mode = "held"
        p = msg["params"]["position"]
        value = "hover %d:%d" % (p["line"], p["character"])
        if mode in ("mirror", "codepoints"):
            value = docs[msg["params"]["textDocument"]["uri"]][0]
        send({"jsonrpc": "2.0", "id": msg["id"],
              "result": {"contents": {"kind": "plaintext", "value": value}}})
    elif method == "textDocument/definition":
        send({"jsonrpc": "2.0", "id": msg["id"],
              "result": [{"uri": msg["params"]["textDocument"]["uri"],
                          "range": {"start": {"line": 0, "character": 0},
                                    "end": {"line": 0, "character": 1}}}]})
    elif "id" in msg and method is not None:
        send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
