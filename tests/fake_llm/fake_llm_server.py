#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A fake LLM server for rio's provider tests.

Speaks the Anthropic Messages API (POST /v1/messages), the OpenAI Chat Completions API
(POST /v1/chat/completions) and the OpenAI Responses API (POST /v1/responses) on 127.0.0.1, answers from a JSON script, injects faults at the
byte level, and appends every request it receives to a JSON-lines log.

    fake_llm_server.py --script FILE --log FILE [--port 0] [--verbose]

It prints exactly one line, `listening on 127.0.0.1:PORT`, then serves until SIGTERM/SIGINT
(exit 0). See README.md next to this file for the script format and the faults.

Standard library only (Debian 12's python3).
"""

import argparse
import hashlib
import json
import os
import re
import select
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

ANTHROPIC = "anthropic"
OPENAI = "openai"
RESPONSES = "responses"  # OpenAI's Responses API; its errors and model list are OpenAI's

FAULTS = ("close_mid_stream", "garbage", "split_bytes", "stall", "error_event", "endless",
          "drop", "close_after_tools", "close_in_arguments", "unknown_event")
RESPONSE_KEYS = {
    "text", "thinking", "signature", "tools", "stop_reason", "usage", "status", "error",
    "error_type", "error_code", "retry_after", "headers", "fault", "stall_s", "delay_s",
    "event_delay_s", "split_every", "split_sleep_s", "trace", "json_piece_chars", "barrier",
    "encrypted",
}
TOOL_KEYS = {"name", "input", "id"}
SCRIPT_KEYS = {"responses", "models", "limit", "summary", "usage_by_size", "usage_by_prefix"}
# How each server family refuses a request that does not fit the model's window (the
# wordings rio's providers/context_overflow.cpp recognises): status, body(tokens, limit).
OVERFLOW_WORDINGS = {
    "anthropic": lambda t, n: {
        "type": "error", "error": {"type": "invalid_request_error",
                                   "message": f"prompt is too long: {t} tokens > {n} maximum"}},
    "openai": lambda t, n: {"error": {
        "message": f"This model's maximum context length is {n} tokens. However, your messages "
                   f"resulted in {t} tokens. Please reduce the length of the messages.",
        "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}},
    "llamacpp": lambda t, n: {"error": {
        "code": 400, "message": f"request ({t} tokens) exceeds the available context size "
                                f"({n} tokens), try increasing it",
        "type": "exceed_context_size_error", "n_prompt_tokens": t, "n_ctx": n}},
    "vllm": lambda t, n: {
        "object": "error", "message": f"This model's maximum context length is {n} tokens. "
                                      f"However, you requested {t} tokens in the messages, "
                                      "Please reduce the length of the messages.",
        "type": "BadRequestError", "param": None, "code": 400},
    "responses": lambda t, n: {"error": {
        "message": "Your input exceeds the context window of this model. Please adjust your "
                   "input and try again.",
        "type": "invalid_request_error", "param": "input", "code": "context_length_exceeded"}},
    "ollama": lambda t, n: {"error": {"message": "the input length exceeds the context length",
                                      "type": "invalid_request_error", "param": None,
                                      "code": None}},
}

END_OF_SCRIPT = {"text": "(fake script ended)"}
WEB_PAGE = (b"<!doctype html>\n<html><head><title>Welcome</title></head>"
            b"<body><h1>Welcome to our site</h1></body></html>\n")
DEFAULT_USAGE = {"input_tokens": 25, "output_tokens": 10}
DEFAULT_MODELS = {
    ANTHROPIC: ["claude-fake-large", "claude-fake-small"],
    OPENAI: ["gpt-fake-large", "gpt-fake-small"],
}
TEXT_PIECE_WORDS = 3     # words per text/thinking delta
JSON_PIECE_CHARS = 7     # characters per tool-argument delta
DEFAULT_STALL_S = 5.0
DEFAULT_SPLIT_EVERY = 1  # split_bytes: sleep after this many single-byte sends ...
DEFAULT_SPLIT_SLEEP_S = 0.0002  # ... for this long, so each byte arrives in its own read

ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
    404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error",
    500: "api_error", 529: "overloaded_error",
}
# status -> (type, code)
OPENAI_ERROR_TYPES = {
    400: ("invalid_request_error", None), 401: ("invalid_request_error", "invalid_api_key"),
    403: ("invalid_request_error", "unsupported_country_region_territory"),
    404: ("invalid_request_error", None), 429: ("requests", "rate_limit_exceeded"),
    500: ("server_error", None), 503: ("server_error", None),
}
REASONS = {
    200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
    408: "Request Timeout", 413: "Payload Too Large", 429: "Too Many Requests",
    500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
    504: "Gateway Timeout", 529: "Overloaded",
}


class ScriptError(Exception):
    pass


class ClientGone(Exception):
    """The client closed its end before the response was complete."""


# ---------------------------------------------------------------------------------------------
# Script loading and validation: fail at start-up, not in the middle of a test.

def load_script(path):
    try:
        with open(path, "r", encoding="utf-8") as f:
            script = json.load(f)
    except (OSError, ValueError) as e:
        raise ScriptError(f"cannot read script {path}: {e}") from e
    if not isinstance(script, dict) or not isinstance(script.get("responses"), list):
        raise ScriptError('script must be an object with a "responses" list')
    extra = set(script) - SCRIPT_KEYS
    if extra:
        raise ScriptError(f"unknown script keys: {sorted(extra)}")
    models = script.get("models")
    if models is not None and not (isinstance(models, list)
                                   and all(isinstance(m, str) for m in models)):
        raise ScriptError('"models" must be a list of strings')
    for i, r in enumerate(script["responses"]):
        validate_response(i, r)
    limit = script.get("limit")
    if limit is not None:
        if not isinstance(limit, dict) or set(limit) - {"bytes", "over_first", "wording"}:
            raise ScriptError('"limit" must be {"bytes" or "over_first", "wording"?}')
        if ("bytes" in limit) == ("over_first" in limit):
            raise ScriptError('"limit" needs exactly one of "bytes" and "over_first"')
        if limit.get("wording", "anthropic") not in OVERFLOW_WORDINGS:
            raise ScriptError(f'"limit.wording" must be one of {sorted(OVERFLOW_WORDINGS)}')
    if "summary" in script:
        validate_response("summary", script["summary"])
    return script


def validate_response(i, r):
    where = f"responses[{i}]"
    if not isinstance(r, dict):
        raise ScriptError(f"{where} must be an object")
    extra = set(r) - RESPONSE_KEYS
    if extra:
        raise ScriptError(f"{where}: unknown keys {sorted(extra)}")
    for key in ("text", "thinking"):
        v = r.get(key)
        if v is not None and not isinstance(v, str) and not (
                isinstance(v, list) and all(isinstance(p, str) for p in v)):
            raise ScriptError(f"{where}.{key} must be a string or a list of strings")
    tools = r.get("tools", [])
    if not isinstance(tools, list):
        raise ScriptError(f"{where}.tools must be a list")
    for k, t in enumerate(tools):
        if not isinstance(t, dict) or not isinstance(t.get("name"), str):
            raise ScriptError(f"{where}.tools[{k}] needs a string name")
        extra = set(t) - TOOL_KEYS
        if extra:
            raise ScriptError(f"{where}.tools[{k}]: unknown keys {sorted(extra)}")
    status = r.get("status", 200)
    if not isinstance(status, int) or not 100 <= status <= 599:
        raise ScriptError(f"{where}.status must be an HTTP status code")
    for f in fault_list(r):
        if f not in FAULTS:
            raise ScriptError(f"{where}: unknown fault {f!r} (known: {', '.join(FAULTS)})")
    for key in ("stall_s", "delay_s", "event_delay_s", "split_sleep_s"):
        if key in r and (not isinstance(r[key], (int, float)) or r[key] < 0):
            raise ScriptError(f"{where}.{key} must be a non-negative number")
    if "split_every" in r and (not isinstance(r["split_every"], int) or r["split_every"] < 1):
        raise ScriptError(f"{where}.split_every must be a positive integer")
    b = r.get("barrier")
    if b is not None and not (isinstance(b, dict) and isinstance(b.get("name"), str) and
                              isinstance(b.get("count"), int) and b["count"] >= 1 and
                              isinstance(b.get("timeout_s", 20), (int, float))):
        raise ScriptError(f"{where}.barrier must be {{name, count >= 1, timeout_s?}}")
    if "usage" in r and not isinstance(r["usage"], dict):
        raise ScriptError(f"{where}.usage must be an object")
    if "headers" in r and not isinstance(r["headers"], dict):
        raise ScriptError(f"{where}.headers must be an object")


def fault_list(r):
    f = r.get("fault")
    if f is None:
        return []
    if isinstance(f, str):
        return [f]
    if isinstance(f, list) and all(isinstance(x, str) for x in f):
        return list(f)
    raise ScriptError("fault must be a string or a list of strings")


# ---------------------------------------------------------------------------------------------
# Splitting content into deltas.

def text_pieces(value):
    """A string becomes ~3-word pieces that join back to it exactly; a list is used as is."""
    if value is None:
        return []
    if isinstance(value, list):
        return list(value)
    words = [w for w in re.findall(r"\S*\s*", value) if w]
    return ["".join(words[k:k + TEXT_PIECE_WORDS]) for k in range(0, len(words), TEXT_PIECE_WORDS)]


def json_pieces(s, size=JSON_PIECE_CHARS):
    return [s[k:k + size] for k in range(0, len(s), size)]


def tool_arguments(tool):
    """The tool input as JSON text. A string input is sent verbatim (lets a test send bad JSON)."""
    value = tool.get("input", {})
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def dumps(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def usage_numbers(r):
    u = dict(DEFAULT_USAGE)
    u.update(r.get("usage") or {})
    return u


def pick(u, *names, default=0):
    for n in names:
        if n in u:
            return u[n]
    return default


# ---------------------------------------------------------------------------------------------
# Anthropic Messages API.

def anthropic_usage(r):
    u = usage_numbers(r)
    return {
        "input_tokens": pick(u, "input_tokens", "prompt_tokens"),
        "cache_creation_input_tokens": pick(u, "cache_creation_input_tokens"),
        "cache_read_input_tokens": pick(u, "cache_read_input_tokens", "cached_tokens"),
        "output_tokens": pick(u, "output_tokens", "completion_tokens"),
    }


def anthropic_stop_reason(r):
    if "stop_reason" in r:
        return r["stop_reason"]
    return "tool_use" if r.get("tools") else "end_turn"


def anthropic_signature(r, n):
    return r.get("signature", f"fakesig-{n:06d}-RXJvcyBmYWtlIHNpZ25hdHVyZQ==")


def anthropic_tool_id(tool, n, k):
    return tool.get("id", f"toolu_fake{n:04d}{k:02d}")


def anthropic_blocks(r):
    """(kind, payload) per content block in order: thinking, text, tool_use..."""
    blocks = []
    if r.get("thinking") is not None:
        blocks.append(("thinking", r["thinking"]))
    if r.get("text") is not None or not r.get("tools"):
        blocks.append(("text", r.get("text", "")))
    for tool in r.get("tools", []):
        blocks.append(("tool_use", tool))
    return blocks


def anthropic_events(r, n, model):
    """The list of (event name, data) for a streamed Messages response."""
    usage = anthropic_usage(r)
    start_usage = dict(usage)
    start_usage["output_tokens"] = min(1, usage["output_tokens"])
    events = [("message_start", {
        "type": "message_start",
        "message": {
            "id": f"msg_fake{n:06d}", "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": None, "stop_sequence": None, "usage": start_usage,
        },
    })]
    tool_k = 0
    for index, (kind, payload) in enumerate(anthropic_blocks(r)):
        def delta(d, index=index):
            events.append(("content_block_delta",
                           {"type": "content_block_delta", "index": index, "delta": d}))
        if kind == "thinking":
            block = {"type": "thinking", "thinking": "", "signature": ""}
        elif kind == "text":
            block = {"type": "text", "text": ""}
        else:
            block = {"type": "tool_use", "id": anthropic_tool_id(payload, n, tool_k),
                     "name": payload["name"], "input": {}}
        events.append(("content_block_start",
                       {"type": "content_block_start", "index": index, "content_block": block}))
        if index == 0:
            events.append(("ping", {"type": "ping"}))
        if kind == "thinking":
            for piece in text_pieces(payload):
                delta({"type": "thinking_delta", "thinking": piece})
            delta({"type": "signature_delta", "signature": anthropic_signature(r, n)})
        elif kind == "text":
            for piece in text_pieces(payload):
                delta({"type": "text_delta", "text": piece})
        else:
            delta({"type": "input_json_delta", "partial_json": ""})
            for piece in json_pieces(tool_arguments(payload),
                                     r.get("json_piece_chars", JSON_PIECE_CHARS)):
                delta({"type": "input_json_delta", "partial_json": piece})
            tool_k += 1
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(("message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": anthropic_stop_reason(r), "stop_sequence": None},
        "usage": {"output_tokens": usage["output_tokens"]},
    }))
    events.append(("message_stop", {"type": "message_stop"}))
    return events


def anthropic_frame(name, data):
    return f"event: {name}\ndata: {dumps(data)}\n\n".encode("utf-8")


def anthropic_message(r, n, model):
    """A non-streamed Messages response."""
    content = []
    tool_k = 0
    for kind, payload in anthropic_blocks(r):
        if kind == "thinking":
            content.append({"type": "thinking", "thinking": "".join(text_pieces(payload)),
                            "signature": anthropic_signature(r, n)})
        elif kind == "text":
            content.append({"type": "text", "text": "".join(text_pieces(payload))})
        else:
            args = tool_arguments(payload)
            try:
                value = json.loads(args)
            except ValueError:
                value = args
            content.append({"type": "tool_use", "id": anthropic_tool_id(payload, n, tool_k),
                            "name": payload["name"], "input": value})
            tool_k += 1
    return {
        "id": f"msg_fake{n:06d}", "type": "message", "role": "assistant", "model": model,
        "content": content, "stop_reason": anthropic_stop_reason(r), "stop_sequence": None,
        "usage": anthropic_usage(r),
    }


def anthropic_error_body(status, message, error_type=None):
    etype = error_type or ANTHROPIC_ERROR_TYPES.get(
        status, "api_error" if status >= 500 else "invalid_request_error")
    return {"type": "error", "error": {"type": etype, "message": message},
            "request_id": "req_fake_error"}


def anthropic_models(ids):
    data = [{"type": "model", "id": m, "display_name": m.replace("-", " ").title(),
             "created_at": "2025-01-01T00:00:00Z"} for m in ids]
    return {"data": data, "has_more": False, "first_id": ids[0] if ids else None,
            "last_id": ids[-1] if ids else None}


# ---------------------------------------------------------------------------------------------
# OpenAI Chat Completions API.

def openai_usage(r):
    u = usage_numbers(r)
    prompt = pick(u, "prompt_tokens", "input_tokens")
    completion = pick(u, "completion_tokens", "output_tokens")
    out = {"prompt_tokens": prompt, "completion_tokens": completion,
           "total_tokens": pick(u, "total_tokens", default=prompt + completion)}
    cached = pick(u, "cached_tokens", "cache_read_input_tokens", default=None)
    if cached is not None:
        out["prompt_tokens_details"] = {"cached_tokens": cached}
    reasoning = pick(u, "reasoning_tokens", default=None)
    if reasoning is not None:
        out["completion_tokens_details"] = {"reasoning_tokens": reasoning}
    return out


def openai_finish_reason(r):
    if "stop_reason" in r:
        return r["stop_reason"]
    return "tool_calls" if r.get("tools") else "stop"


def openai_tool_id(tool, n, k):
    return tool.get("id", f"call_fake{n:04d}{k:02d}")


def openai_chunks(r, n, model, include_usage):
    """The list of chunk objects for a streamed chat completion (without [DONE])."""
    created = int(time.time())
    chunks = []

    def chunk(delta=None, finish=None, choices=True, usage=None):
        c = {"id": f"chatcmpl-fake{n:06d}", "object": "chat.completion.chunk",
             "created": created, "model": model, "system_fingerprint": "fp_fake"}
        c["choices"] = [{"index": 0, "delta": delta if delta is not None else {},
                         "logprobs": None, "finish_reason": finish}] if choices else []
        if include_usage:
            c["usage"] = usage
        chunks.append(c)

    chunk({"role": "assistant", "content": "", "refusal": None})
    for piece in text_pieces(r.get("thinking")):
        chunk({"reasoning_content": piece})
    for piece in text_pieces(r.get("text")):
        chunk({"content": piece})

    tools = r.get("tools", [])
    pieces = [json_pieces(tool_arguments(t), r.get("json_piece_chars", JSON_PIECE_CHARS))
              for t in tools]
    if len(tools) == 1:
        t = tools[0]
        chunk({"tool_calls": [{"index": 0, "id": openai_tool_id(t, n, 0), "type": "function",
                               "function": {"name": t["name"], "arguments": ""}}]})
        for p in pieces[0]:
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]})
    elif tools:
        # Two or more calls: every header first, then argument pieces round-robin by index.
        # Even rounds give each piece its own chunk; odd rounds put the whole round into one
        # chunk (a tool_calls array with several entries), so reassembly must go by index.
        for k, t in enumerate(tools):
            chunk({"tool_calls": [{"index": k, "id": openai_tool_id(t, n, k), "type": "function",
                                   "function": {"name": t["name"], "arguments": ""}}]})
        rounds = max(len(p) for p in pieces)
        for rnd in range(rounds):
            entries = [{"index": k, "function": {"arguments": p[rnd]}}
                       for k, p in enumerate(pieces) if rnd < len(p)]
            if rnd % 2 == 1:
                chunk({"tool_calls": entries})
            else:
                for e in entries:
                    chunk({"tool_calls": [e]})
    chunk({}, finish=openai_finish_reason(r))
    if include_usage:
        chunk(choices=False, usage=openai_usage(r))
    return chunks


def openai_frame(obj):
    return f"data: {dumps(obj)}\n\n".encode("utf-8")


OPENAI_DONE = b"data: [DONE]\n\n"


def openai_completion(r, n, model):
    """A non-streamed chat completion."""
    message = {"role": "assistant", "content": None, "refusal": None}
    if r.get("text") is not None or not r.get("tools"):
        message["content"] = "".join(text_pieces(r.get("text", "")))
    if r.get("thinking") is not None:
        message["reasoning_content"] = "".join(text_pieces(r["thinking"]))
    if r.get("tools"):
        message["tool_calls"] = [
            {"id": openai_tool_id(t, n, k), "type": "function",
             "function": {"name": t["name"], "arguments": tool_arguments(t)}}
            for k, t in enumerate(r["tools"])]
    return {
        "id": f"chatcmpl-fake{n:06d}", "object": "chat.completion", "created": int(time.time()),
        "model": model, "system_fingerprint": "fp_fake",
        "choices": [{"index": 0, "message": message, "logprobs": None,
                     "finish_reason": openai_finish_reason(r)}],
        "usage": openai_usage(r),
    }


def openai_error_body(status, message, error_type=None, code=None):
    etype, ecode = OPENAI_ERROR_TYPES.get(
        status, ("server_error" if status >= 500 else "invalid_request_error", None))
    return {"error": {"message": message, "type": error_type or etype, "param": None,
                      "code": code if code is not None else ecode}}


def openai_models(ids):
    return {"object": "list", "data": [{"id": m, "object": "model", "created": 1735689600,
                                        "owned_by": "fake"} for m in ids]}


# ---------------------------------------------------------------------------------------------
# OpenAI Responses API (streamed as typed events, each with its `event:` line).

def responses_usage(r):
    u = usage_numbers(r)
    given = pick(u, "input_tokens", "prompt_tokens")
    out = pick(u, "output_tokens", "completion_tokens")
    cached = pick(u, "cached_tokens", "cache_read_input_tokens", default=0)
    return {"input_tokens": given, "input_tokens_details": {"cached_tokens": cached},
            "output_tokens": out,
            "output_tokens_details": {"reasoning_tokens": pick(u, "reasoning_tokens")},
            "total_tokens": given + out}


def responses_items(r, n):
    """The output items as they are once done: (item, pieces of its streamed text)."""
    items = []
    if r.get("thinking") is not None:
        pieces = text_pieces(r["thinking"])
        item = {"type": "reasoning", "id": f"rs_fake{n:06d}",
                "summary": [{"type": "summary_text", "text": "".join(pieces)}]}
        if r.get("encrypted", True):
            item["encrypted_content"] = f"gAAAAfake-{n}-" + "".join(pieces)[:16]
        items.append((item, pieces))
    if r.get("text") is not None or not r.get("tools"):
        pieces = text_pieces(r.get("text", ""))
        items.append(({"type": "message", "id": f"msg_fake{n:06d}", "status": "completed",
                       "role": "assistant",
                       "content": [{"type": "output_text", "text": "".join(pieces),
                                    "annotations": []}]}, pieces))
    for k, t in enumerate(r.get("tools", [])):
        arguments = tool_arguments(t)
        items.append(({"type": "function_call", "id": f"fc_fake{n:04d}{k:02d}",
                       "call_id": t.get("id", f"call_fake{n:04d}{k:02d}"), "name": t["name"],
                       "arguments": arguments, "status": "completed"},
                      json_pieces(arguments, r.get("json_piece_chars", JSON_PIECE_CHARS))))
    return items


def responses_object(r, n, model, status, output, usage=None):
    o = {"id": f"resp_fake{n:06d}", "object": "response", "created_at": int(time.time()),
         "status": status, "model": model, "output": output, "error": None,
         "incomplete_details": None, "store": False, "usage": usage}
    if status == "incomplete":
        o["incomplete_details"] = {"reason": "max_output_tokens"}
    return o


def responses_events(r, n, model):
    """(type, data) pairs of a streamed response, in the order the API sends them."""
    events = []

    def emit(kind, **data):
        events.append((kind, dict({"type": kind, "sequence_number": len(events)}, **data)))

    emit("response.created", response=responses_object(r, n, model, "in_progress", []))
    emit("response.in_progress", response=responses_object(r, n, model, "in_progress", []))
    done = []
    for i, (item, pieces) in enumerate(responses_items(r, n)):
        kind = item["type"]
        opened = dict(item, status="in_progress")
        if kind == "reasoning":
            opened = {"type": "reasoning", "id": item["id"], "summary": []}
        elif kind == "message":
            opened["content"] = []
        elif kind == "function_call":
            opened["arguments"] = ""
        emit("response.output_item.added", output_index=i, item=opened)
        if kind == "reasoning":
            part = {"type": "summary_text", "text": ""}
            emit("response.reasoning_summary_part.added", item_id=item["id"], output_index=i,
                 summary_index=0, part=part)
            for p in pieces:
                emit("response.reasoning_summary_text.delta", item_id=item["id"], output_index=i,
                     summary_index=0, delta=p)
            text = item["summary"][0]["text"]
            emit("response.reasoning_summary_text.done", item_id=item["id"], output_index=i,
                 summary_index=0, text=text)
            emit("response.reasoning_summary_part.done", item_id=item["id"], output_index=i,
                 summary_index=0, part=dict(part, text=text))
        elif kind == "message":
            part = {"type": "output_text", "text": "", "annotations": []}
            emit("response.content_part.added", item_id=item["id"], output_index=i,
                 content_index=0, part=part)
            for p in pieces:
                emit("response.output_text.delta", item_id=item["id"], output_index=i,
                     content_index=0, delta=p, logprobs=[])
            text = item["content"][0]["text"]
            emit("response.output_text.done", item_id=item["id"], output_index=i,
                 content_index=0, text=text, logprobs=[])
            emit("response.content_part.done", item_id=item["id"], output_index=i,
                 content_index=0, part=dict(part, text=text))
        else:
            for p in pieces:
                emit("response.function_call_arguments.delta", item_id=item["id"],
                     output_index=i, delta=p)
            emit("response.function_call_arguments.done", item_id=item["id"], output_index=i,
                 arguments=item["arguments"])
        emit("response.output_item.done", output_index=i, item=item)
        done.append(item)
    if r.get("stop_reason") in ("max_output_tokens", "length", "max_tokens"):
        emit("response.incomplete",
             response=responses_object(r, n, model, "incomplete", done, responses_usage(r)))
    else:
        emit("response.completed",
             response=responses_object(r, n, model, "completed", done, responses_usage(r)))
    return events


def prompt_blocks(body):
    """An OpenAI request's prompt as its server assembles it, a block at a time (each as JSON
    bytes): the tools, the instructions, then each message or input item."""
    blocks = [dumps(["tool", t]) for t in body.get("tools") or []]
    if "instructions" in body:
        blocks.append(dumps(["instructions", body["instructions"]]))
    blocks += [dumps(["item", m]) for m in body.get("input", body.get("messages")) or []]
    return [b.encode("utf-8") for b in blocks]


def responses_frame(kind, data):
    return f"event: {kind}\ndata: {dumps(data)}\n\n".encode("utf-8")


def responses_single(r, n, model):
    return responses_object(r, n, model, "completed", [i for i, _ in responses_items(r, n)],
                            responses_usage(r))


# ---------------------------------------------------------------------------------------------
# Shared state: the script cursor and the request log.

class State:
    def __init__(self, script, log_path, verbose):
        self.responses = script["responses"]
        self.models = script.get("models")
        self.verbose = verbose
        self.lock = threading.Lock()
        self.next_index = 0
        self.limit = script.get("limit")
        self.summary = script.get("summary")
        self.usage_by_size = bool(script.get("usage_by_size"))
        self.usage_by_prefix = bool(script.get("usage_by_prefix"))
        self.prefixes = set()  # usage_by_prefix: every prompt prefix seen so far
        self.first_size = None
        self.log_file = open(log_path, "a", encoding="utf-8")
        self.barriers = {}  # name -> requests arrived
        self.barrier_changed = threading.Condition(self.lock)

    def meet(self, name, count, timeout_s):
        """Holds a request until `count` requests with barrier `name` have arrived; how many
        had when it gave up after `timeout_s` (then fewer than `count`)."""
        deadline = time.monotonic() + timeout_s
        with self.barrier_changed:
            self.barriers[name] = self.barriers.get(name, 0) + 1
            self.barrier_changed.notify_all()
            while self.barriers[name] < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.barrier_changed.wait(left)
            return self.barriers[name]

    def cached_bytes(self, body):
        """usage_by_prefix: the longest prefix of this prompt an earlier request had, in bytes,
        as OpenAI's automatic caching counts it (128-token steps from 1,024 tokens)."""
        digest, at, read, seen = hashlib.sha256(), 0, 0, []
        for block in prompt_blocks(body):
            digest.update(block)
            at += len(block)
            seen.append(digest.hexdigest())
            with self.lock:
                if seen[-1] in self.prefixes:
                    read = at
        with self.lock:
            self.prefixes.update(seen)
        return read // 512 * 512 if read >= 4096 else 0

    def refuses(self, size):
        """The window a `limit` sets, in bytes, when a request of `size` bytes is over it."""
        if self.limit is None:
            return None
        with self.lock:
            if self.first_size is None:
                self.first_size = size
            most = self.limit.get("bytes") or self.first_size + self.limit["over_first"]
        return most if size > most else None

    def take(self):
        with self.lock:
            i = self.next_index
            self.next_index += 1
        if i < len(self.responses):
            return i, self.responses[i], False
        return i, END_OF_SCRIPT, True

    def log(self, record):
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self.lock:
            self.log_file.write(line)
            self.log_file.flush()


# ---------------------------------------------------------------------------------------------
# Byte-level output.

class Out:
    """Writes to the client socket, either normally or one byte per send()."""

    def __init__(self, sock, split=False, split_every=DEFAULT_SPLIT_EVERY,
                 split_sleep_s=DEFAULT_SPLIT_SLEEP_S):
        self.sock = sock
        self.split = split
        self.split_every = split_every
        self.split_sleep_s = split_sleep_s
        self.sent = 0

    def write(self, data):
        """Sends data; self.sent counts the bytes of this call that went out."""
        self.sent = 0
        try:
            if not self.split:
                self.sock.sendall(data)
                self.sent = len(data)
                return
            for k in range(len(data)):
                self.sock.sendall(data[k:k + 1])
                self.sent = k + 1
                if self.split_sleep_s and (k + 1) % self.split_every == 0:
                    time.sleep(self.split_sleep_s)
        except OSError as e:  # EPIPE, ECONNRESET, ...
            raise ClientGone() from e

    def peer_closed(self):
        """True if the client has closed its end (EOF or reset) — checked without blocking."""
        try:
            readable, _, _ = select.select([self.sock], [], [], 0)
            if not readable:
                return False
            return self.sock.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def check(self):
        if self.peer_closed():
            raise ClientGone()

    def sleep(self, seconds):
        """Sleeps, but notices the client going away meanwhile."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                readable, _, _ = select.select([self.sock], [], [], min(left, 0.05))
            except OSError as e:
                raise ClientGone() from e
            if readable:
                try:
                    data = self.sock.recv(1, socket.MSG_PEEK)
                except OSError as e:
                    raise ClientGone() from e
                if data == b"":
                    raise ClientGone()
                # The client sent more bytes (pipelining): nothing to watch any more.
                time.sleep(max(0.0, deadline - time.monotonic()))
                return

    def abort(self):
        """Ends the TCP connection now (FIN), whatever state the HTTP response is in."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def http_chunk(data):
    return b"%x\r\n" % len(data) + data + b"\r\n"


HTTP_LAST_CHUNK = b"0\r\n\r\n"


# ---------------------------------------------------------------------------------------------
# The HTTP handler.

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-llm/1"
    sys_version = ""

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, fmt, *args):
        if self.server.state.verbose:
            sys.stderr.write("fake_llm: " + (fmt % args) + "\n")

    def do_GET(self):
        self.dispatch()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = do_GET

    # -- request side --------------------------------------------------------------------------

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            parts = []
            while True:
                size_line = self.rfile.readline(65537)
                size = int(size_line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(parts)
                parts.append(self.rfile.read(size))
                self.rfile.readline(65537)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def header_dict(self):
        out = {}
        for name, value in self.headers.items():
            key = name.lower()
            out[key] = value if key not in out else out[key] + ", " + value
        return out

    def flavor(self, path, headers):
        if path == "/v1/messages":
            return ANTHROPIC
        if path == "/v1/chat/completions":
            return OPENAI
        if path == "/v1/responses":
            return RESPONSES
        # Same path for both (GET /v1/models) or unknown: the request's headers decide.
        if "anthropic-version" in headers or "x-api-key" in headers:
            return ANTHROPIC
        return OPENAI

    def dispatch(self):
        state = self.server.state
        path = urlsplit(self.path).path
        try:
            raw = self.read_body()
        except (ValueError, OSError):
            self.close_connection = True
            return
        headers = self.header_dict()
        body = None
        record = {"event": "request", "method": self.command, "path": self.path,
                  "headers": headers, "body": None, "response_index": None}
        if raw:
            try:
                body = json.loads(raw.decode("utf-8"))
                record["body"] = body
            except (UnicodeDecodeError, ValueError):
                record["body_text"] = raw.decode("utf-8", "replace")
        flavor = self.flavor(path, headers)

        if self.command == "POST" and path in ("/v1/messages", "/v1/chat/completions",
                                               "/v1/responses"):
            most = state.refuses(len(raw))
            if most is not None:
                # Refused like a server whose window is `most` bytes; no response is used up.
                record["refused"] = {"size": len(raw), "limit": most}
                state.log(record)
                wording = state.limit.get("wording", "anthropic")
                payload = OVERFLOW_WORDINGS[wording](len(raw) // 4, most // 4)
                try:
                    self.send_json(Out(self.connection), 400, payload)
                except ClientGone:
                    self.close_connection = True
                return
            if state.summary is not None and isinstance(body, dict) and not body.get("tools"):
                # A request without tools: rio's compaction asks for a summary so.
                record["summary"] = True
                state.log(record)
                try:
                    self.respond_scripted(flavor, -1, state.summary, body)
                except ClientGone:
                    self.close_connection = True
                return
            index, r, ended = state.take()
            if state.usage_by_prefix and "usage" not in r and isinstance(body, dict):
                # Reports the cache as OpenAI's automatic prompt caching would.
                r = dict(r, usage={"input_tokens": len(raw) // 4, "output_tokens": 10,
                                   "cached_tokens": state.cached_bytes(body) // 4})
            if state.usage_by_size and "usage" not in r:
                # Counts like a tokenizer of four bytes a token, so a client's budget is real.
                r = dict(r, usage={"input_tokens": len(raw) // 4, "output_tokens": 10})
            record["response_index"] = index
            if ended:
                record["script_ended"] = True
            state.log(record)
            try:
                self.respond_scripted(flavor, index, r, body if isinstance(body, dict) else {})
            except ClientGone:
                self.close_connection = True
                state.log({"event": "client_closed", "response_index": index,
                           "t": time.monotonic()})
            return

        state.log(record)
        out = Out(self.connection)
        try:
            if self.command == "GET" and path == "/v1/models":
                ids = state.models or DEFAULT_MODELS[flavor]
                payload = anthropic_models(ids) if flavor == ANTHROPIC else openai_models(ids)
                self.send_json(out, 200, payload)
            elif path == "/website" or path.startswith("/website/"):
                # What a base URL pointing at a web site reaches: a page, not an API.
                out.write(self.head(200, "text/html; charset=utf-8", (), False, len(WEB_PAGE)) +
                          (b"" if self.command == "HEAD" else WEB_PAGE))
            else:
                message = f"Invalid URL ({self.command} {path})"
                payload = (anthropic_error_body(404, "Not found: " + path)
                           if flavor == ANTHROPIC else openai_error_body(404, message))
                self.send_json(out, 404, payload)
        except ClientGone:
            self.close_connection = True

    # -- response side -------------------------------------------------------------------------

    def head(self, status, content_type, extra, chunked, length=None):
        lines = [f"HTTP/1.1 {status} {REASONS.get(status, 'Status')}",
                 f"Date: {self.date_time_string()}",
                 f"Server: {self.server_version}",
                 f"Content-Type: {content_type}"]
        if chunked:
            lines.append("Transfer-Encoding: chunked")
        elif length is not None:
            lines.append(f"Content-Length: {length}")
        if self.request_version != "HTTP/1.1":
            self.close_connection = True
        lines.append("Connection: " + ("close" if self.close_connection else "keep-alive"))
        for name, value in extra:
            lines.append(f"{name}: {value}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    def send_json(self, out, status, payload, extra=()):
        data = (dumps(payload)).encode("utf-8")
        out.write(self.head(status, "application/json", extra, False, len(data)) +
                  (b"" if self.command == "HEAD" else data))

    def respond_scripted(self, flavor, n, r, body):
        faults = set(fault_list(r))
        out = Out(self.connection, split="split_bytes" in faults,
                  split_every=r.get("split_every", DEFAULT_SPLIT_EVERY),
                  split_sleep_s=r.get("split_sleep_s", DEFAULT_SPLIT_SLEEP_S))
        out.sleep(r.get("delay_s", 0))
        if "barrier" in r:
            b = r["barrier"]
            met = self.server.state.meet(b["name"], b["count"], b.get("timeout_s", 20))
            self.server.state.log({"event": "barrier", "name": b["name"], "met": met,
                                   "response_index": n})
            if met < b["count"]:
                r = {"status": 500, "error": f"barrier {b['name']!r}: {met} of {b['count']} "
                                            f"requests arrived together"}

        request_id = f"req_fake{n:06d}"
        extra = [("request-id", request_id) if flavor == ANTHROPIC else
                 ("x-request-id", request_id)]
        if "retry_after" in r:
            extra.append(("retry-after", str(r["retry_after"])))
        extra.extend((str(k), str(v)) for k, v in (r.get("headers") or {}).items())

        status = r.get("status", 200)
        if status != 200:
            message = r.get("error") or f"fake error {status}"
            if flavor == ANTHROPIC:
                payload = anthropic_error_body(status, message, r.get("error_type"))
                payload["request_id"] = request_id
            else:
                payload = openai_error_body(status, message, r.get("error_type"),
                                            r.get("error_code"))
            self.send_json(out, status, payload, extra)
            return

        model = body.get("model") if isinstance(body.get("model"), str) else (
            "claude-fake" if flavor == ANTHROPIC else "gpt-fake")
        if body.get("stream") is True:
            self.stream(out, flavor, n, r, body, model, faults, extra)
        else:
            self.single(out, flavor, n, r, model, faults, extra)

    def stream(self, out, flavor, n, r, body, model, faults, extra):
        include_usage = False
        if flavor == RESPONSES:
            events = responses_events(r, n, model)
            frames = [responses_frame(kind, data) for kind, data in events]
            garbage = b'event: response.output_text.delta\ndata: {"type": ???\n\n'
            error = responses_frame("error", {
                "type": "error", "code": r.get("error_code") or "server_error",
                "message": r.get("error") or "The server had an error while processing your "
                                             "request. Sorry about that!",
                "param": None, "sequence_number": len(frames)})
            if "close_in_arguments" in faults:
                # Up to the first piece of the first call's arguments, then a FIN.
                first = next((k for k, (kind, _) in enumerate(events)
                              if kind == "response.function_call_arguments.delta"), len(events))
                frames = frames[:first + 1]
                faults = set(faults) | {"close_after_tools"}
            if "unknown_event" in faults:
                frames.insert(2, responses_frame("response.future_feature.delta", {
                    "type": "response.future_feature.delta", "sequence_number": 2,
                    "delta": {"shape": "not known yet"}}))
        elif flavor == ANTHROPIC:
            frames = [anthropic_frame(name, data) for name, data in anthropic_events(r, n, model)]
            garbage = b'event: content_block_delta\ndata: {"type": ???\n\n'
            error = anthropic_frame("error", {"type": "error", "error": {
                "type": r.get("error_type") or "overloaded_error",
                "message": r.get("error") or "Overloaded"}})
        else:
            options = body.get("stream_options")
            include_usage = isinstance(options, dict) and options.get("include_usage") is True
            frames = [openai_frame(c) for c in openai_chunks(r, n, model, include_usage)]
            frames.append(OPENAI_DONE)
            garbage = b'data: {"choices": ???\n\n'
            error = openai_frame({"error": {
                "message": r.get("error") or "The server had an error while processing your "
                                             "request. Sorry about that!",
                "type": r.get("error_type") or "server_error", "param": None,
                "code": r.get("error_code")}})

        if "drop" in faults:
            self.close_connection = True
            out.abort()
            return
        if "endless" in faults:
            self.stream_endlessly(out, flavor, frames, r.get("text") or "x", extra)
            return
        if "close_after_tools" in faults:
            # Everything up to the end of the last tool call, none of what ends the reply.
            if "close_in_arguments" not in faults:
                ending = {ANTHROPIC: 2, RESPONSES: 1}.get(flavor, 1 + (2 if include_usage else 1))
                frames = frames[:-ending]
            faults = set(faults) | {"close_mid_stream"}
        if "garbage" in faults:
            frames.insert(1, garbage)
        cut = max(1, len(frames) // 2)
        if "error_event" in faults:
            frames = frames[:cut] + [error]
        abrupt = "close_mid_stream" in faults
        if abrupt:
            if "close_after_tools" not in faults:
                frames = frames[:cut]
            self.close_connection = True

        chunked = self.request_version == "HTTP/1.1"
        if not chunked:
            self.close_connection = True
        head_extra = [("Cache-Control", "no-cache")] + list(extra)
        out.write(self.head(200, "text/event-stream; charset=utf-8", head_extra, chunked))
        event_delay = r.get("event_delay_s", 0)
        for k, frame in enumerate(frames):
            last = k + 1 == len(frames)
            data = http_chunk(frame) if chunked else frame
            out.check()
            if not last or abrupt:
                out.write(data)
                if r.get("trace"):
                    # CLOCK_MONOTONIC, the clock std::chrono::steady_clock reads: benchmarks
                    # compare it with when the matching agent.delta reached their client.
                    self.server.state.log({"event": "sent", "response_index": n, "frame": k,
                                           "t": time.monotonic()})
            else:
                # The last event and the end of the body go out in one write; a client that
                # hangs up once it has the last event has not closed early.
                try:
                    out.write(data + (HTTP_LAST_CHUNK if chunked else b""))
                except ClientGone:
                    self.close_connection = True
                    if out.sent < len(data) - (2 if chunked else 0):  # the event itself
                        raise
                if r.get("trace"):
                    self.server.state.log({"event": "finished", "response_index": n,
                                           "t": time.monotonic()})
                return
            if k == 0 and "stall" in faults:
                out.sleep(r.get("stall_s", DEFAULT_STALL_S))
            elif event_delay and not last:
                out.sleep(event_delay)
        out.abort()  # close_mid_stream: FIN right after the last frame, no terminating chunk

    def stream_endlessly(self, out, flavor, frames, text, extra):
        """The opening frames, then the same text delta as fast as the client takes it, until
        it hangs up: a server that never ends its reply."""
        self.close_connection = True
        if flavor == RESPONSES:
            opening = frames[:4]  # created, in_progress, the message's item and part
            repeat = responses_frame("response.output_text.delta", {
                "type": "response.output_text.delta", "output_index": 0, "content_index": 0,
                "delta": text})
        elif flavor == ANTHROPIC:
            opening = frames[:3]  # message_start, content_block_start, ping
            repeat = anthropic_frame("content_block_delta", {
                "type": "content_block_delta", "index": 0,
                "delta": {"type": "text_delta", "text": text}})
        else:
            opening = frames[:1]  # the role chunk
            repeat = openai_frame({"id": "chatcmpl-endless", "object": "chat.completion.chunk",
                                   "created": 0, "model": "gpt-fake", "choices": [{
                                       "index": 0, "delta": {"content": text},
                                       "finish_reason": None}]})
        out.write(self.head(200, "text/event-stream; charset=utf-8", list(extra), False))
        for frame in opening:
            out.write(frame)
        burst = repeat * max(1, 65536 // len(repeat))
        while True:
            out.write(burst)

    def single(self, out, flavor, n, r, model, faults, extra):
        payload = anthropic_message(r, n, model) if flavor == ANTHROPIC else \
            responses_single(r, n, model) if flavor == RESPONSES else \
            openai_completion(r, n, model)
        data = dumps(payload).encode("utf-8")
        if "garbage" in faults:
            data = b'{"type": ???'
        head = self.head(200, "application/json", list(extra), False, len(data))
        half = len(data) // 2
        if "close_mid_stream" in faults:
            self.close_connection = True
            out.write(head + data[:half])
            out.abort()
            return
        if "stall" in faults:
            out.write(head + data[:half])
            out.sleep(r.get("stall_s", DEFAULT_STALL_S))
            out.check()
            out.write(data[half:])
            return
        out.write(head + data)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def handle_error(self, request, client_address):
        if self.state.verbose:
            super().handle_error(request, client_address)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Fake Anthropic/OpenAI server for rio tests.")
    parser.add_argument("--script", required=True, help="JSON script of responses")
    parser.add_argument("--log", required=True, help="JSON-lines request log (appended)")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: ephemeral)")
    parser.add_argument("--verbose", action="store_true", help="log HTTP traffic to stderr")
    args = parser.parse_args(argv)

    try:
        script = load_script(args.script)
    except ScriptError as e:
        sys.stderr.write(f"fake_llm_server: {e}\n")
        return 2

    def stop(_signum, _frame):
        sys.stdout.flush()
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    server = Server(("127.0.0.1", args.port), Handler)
    server.state = State(script, args.log, args.verbose)
    port = server.server_address[1]
    sys.stdout.write(f"listening on 127.0.0.1:{port}\n")
    sys.stdout.flush()
    server.serve_forever(poll_interval=0.2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
