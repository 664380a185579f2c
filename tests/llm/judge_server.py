"""A scriptable OpenAI-compatible HTTP server on 127.0.0.1 for the judge runtime tests and benchmarks.

It speaks ``POST .../chat/completions`` (``n``, ``response_format``, ``max_tokens``, ``usage``) and
``POST .../embeddings`` (float or base64 encoding) on any path prefix, so both the OpenAI layout
(``/v1/chat/completions``) and the Azure one (``/openai/deployments/<name>/chat/completions``) work. It also
speaks the Batch API: ``/files`` (upload, content, delete) and ``/batches`` (create, retrieve, list, cancel);
a batch ends ``batch_delay`` seconds after it was created, its lines answered as online requests are (the
script sees each line, with the batch's id in the ``x-batch-id`` header).

Each test scripts it: ``answer(body, choice_index) -> str`` gives the content of every choice (a rule
the test can recompute on its own), ``script(request) -> Reply | None`` overrides any request (status
codes, Retry-After, latency, hangs, malformed bodies, truncated or wrong output). Every request is
recorded with its arrival time, path, headers and JSON body so tests assert what reached the wire.

Run as a script (``python tests/llm/judge_server.py --latency 0.02``) it serves in its own process until its
stdin closes, prints its base URL on the first line of stdout, and answers ``GET /stats`` with the
request count and arrival times (used by benches/bench_llm.py).
"""

from __future__ import annotations

import argparse
import base64
import email.parser
import hashlib
import json
import re
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["JudgeServer", "Recorded", "Reply", "default_answer", "default_embedding", "prompt_text"]


@dataclass
class Reply:
    """How to answer one request; fields left at None fall back to the server's default behaviour."""

    status: int = 200
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    contents: list[str] | None = None
    """The content of each choice (its length is the number of choices)."""
    finish_reason: str = "stop"
    raw_body: bytes | None = None
    """Sent verbatim (for malformed JSON bodies)."""
    error: str = "scripted error"


@dataclass
class Recorded:
    index: int
    t: float
    """time.monotonic() at arrival."""
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def prompt_text(body: dict[str, Any]) -> str:
    """The content of the last user message of a chat request."""
    for message in reversed(body.get("messages", [])):
        if message.get("role") == "user":
            return str(message.get("content", ""))
    return ""


def default_answer(body: dict[str, Any], choice: int) -> str:
    """A rule tests recompute: score = 1 + (number of words in the last user message) mod 5."""
    return json.dumps({"score": 1 + len(prompt_text(body).split()) % 5})


def schema_answer(body: dict[str, Any], choice: int) -> str:
    """A valid reply for the request's JSON schema (the judged metrics' verdicts), built recursively: the
    last allowed value of each enum, a sentence for strings, ``minItems`` items for arrays (2 without a
    bound; strings among them distinct), false for booleans, 3 for other numbers."""
    schema = body["response_format"]["json_schema"]["schema"]
    defs = schema.get("$defs", {})

    def build(spec: dict[str, Any], index: int = 0) -> Any:
        if "$ref" in spec:
            return build(defs[spec["$ref"].rsplit("/", 1)[-1]], index)
        if "enum" in spec:
            return spec["enum"][-1]
        if "const" in spec:
            return spec["const"]
        kind = spec.get("type")
        if kind == "object":
            return {key: build(sub) for key, sub in spec.get("properties", {}).items()}
        if kind == "array":
            return [build(spec.get("items", {}), k) for k in range(spec.get("minItems", 2))]
        if kind == "string":
            return f"Statement {index + 1} of the text." if index else "Because it says so."
        if kind == "boolean":
            return False
        return 3

    return json.dumps(build(schema))


def sentences_answer(body, choice: int) -> str:
    """:func:`schema_answer`, except that the statements of a text are its sentences (so that statements,
    and the requests built on them, differ from row to row as a real judge's do)."""
    if "break a text into statements" in json.dumps(body):
        # The text is in the first user message (a repair re-ask adds messages after it).
        first = next(str(m.get("content", "")) for m in body["messages"] if m.get("role") == "user")
        text = re.search(r"<text>\n(.*)\n</text>", first, re.S).group(1)  # type: ignore[union-attr]
        return json.dumps({"statements": [s.strip() + "." for s in text.split(". ") if s.strip(" .")]})
    return schema_answer(body, choice)


def default_embedding(text: str, dim: int = 8) -> list[float]:
    """Deterministic floats from the text's sha256 (exactly representable in float32)."""
    digest = hashlib.sha256(text.encode()).digest()
    return [(b - 128) / 64.0 for b in digest[:dim]]


def _tokens(text: str) -> int:
    return max(1, len(text) // 4)


class JudgeServer:
    """Serves in a daemon thread; use as a context manager. ``url`` is the base URL for the openai client."""

    def __init__(
        self,
        *,
        answer: Callable[[dict[str, Any], int], str] = default_answer,
        script: Callable[[Recorded], Reply | None] | None = None,
        latency: float = 0.0,
        honour_n: bool = True,
        reject_formats: tuple[str, ...] = (),
        embedding: Callable[[str], list[float]] = default_embedding,
        record: bool = True,
        model: str | None = None,
        one_choice_usage: bool = False,
        rpm: float | None = None,
        state_limits: bool = True,
        batch_delay: float = 0.0,
        batch_api: bool = True,
        create_delay: float = 0.0,
    ) -> None:
        self.answer = answer
        self.script = script
        self.latency = latency
        self.honour_n = honour_n
        self.reject_formats = reject_formats
        self.embedding = embedding
        self.record = record
        self.model = model
        """The model name reported in every response (default: the requested one, as OpenAI does)."""
        self.one_choice_usage = one_choice_usage
        """Report usage as llama.cpp does for n > 1: the completion tokens of the first choice only, with
        its ``timings``."""
        self.limit = _RequestBucket(rpm, state_limits) if rpm else None
        """Enforces ``rpm`` as OpenAI does (a bucket of one second's requests, refilled continuously): a
        request over it is answered 429. With ``state_limits`` every answer carries the ``x-ratelimit-*``
        headers (limit, remaining, reset)."""
        self.batch_delay = batch_delay
        self.batch_api = batch_api
        """False: the files and batches endpoints answer 404, as a server without the Batch API does."""
        self.create_delay = create_delay
        """Seconds between creating a batch and answering that request (a client killed meanwhile never
        learns the batch's id)."""
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.requests: list[Recorded] = []
        self.count = 0
        self.totals = {"chat": 0, "embeddings": 0, "prompt_tokens": 0, "completion_tokens": 0, "rate_limited": 0,
                       "files": 0, "batches": 0, "batch_lines": 0}  # fmt: skip
        """Answered chat and embedding requests and the chat tokens (characters / 4) served, in constant memory."""
        self._lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", 0), _handler_class(self))
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> JudgeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    def _record(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> Recorded:
        with self._lock:
            rec = Recorded(self.count, time.monotonic(), path, headers, body)
            self.count += 1
            if self.record:
                self.requests.append(rec)
        return rec

    def chat_bodies(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r.body for r in self.requests if r.path.endswith("/chat/completions")]

    # Responses -------------------------------------------------------------------------------------

    def respond(self, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, dict[str, str], bytes, float]:
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return 400, {}, _error_body("request body is not JSON", "invalid_request_error"), 0.0
        rec = self._record(path, headers, body)
        limit_headers: dict[str, str] = {}
        if self.limit is not None:
            allowed, limit_headers = self.limit.take()
            if not allowed:
                with self._lock:
                    self.totals["rate_limited"] += 1
                return 429, limit_headers, _error_body("Rate limit reached for requests", "rate_limit_exceeded"), 0.0
        reply = self.script(rec) if self.script is not None else None
        reply = reply or Reply()
        out_headers = {**limit_headers, **reply.headers}
        delay = reply.delay or self.latency
        if reply.raw_body is not None:
            return reply.status, out_headers, reply.raw_body, delay
        status, payload = self._dispatch(path, body, reply)
        return status, out_headers, payload, delay

    def _dispatch(self, path: str, body: dict[str, Any], reply: Reply) -> tuple[int, bytes]:
        """The status and body of a chat or embeddings request the script let through (``reply``)."""
        if reply.status != 200:
            kind = "rate_limit_exceeded" if reply.status == 429 else "server_error"
            return reply.status, _error_body(reply.error, kind)
        if path.endswith("/embeddings"):
            return 200, self._embeddings(body)
        if path.endswith("/chat/completions"):
            fmt = (body.get("response_format") or {}).get("type")
            if fmt in self.reject_formats:
                msg = f"Invalid parameter: 'response_format' of type '{fmt}' is not supported with this model."
                return 400, _error_body(msg, "invalid_request_error")
            return 200, self._chat(body, reply)
        return 404, _error_body(f"no route {path}", "not_found")

    def _chat(self, body: dict[str, Any], reply: Reply) -> bytes:
        n = int(body.get("n") or 1) if self.honour_n else 1
        contents = list(reply.contents) if reply.contents is not None else [self.answer(body, i) for i in range(n)]
        finish = [reply.finish_reason] * len(contents)
        limit = body.get("max_tokens") or body.get("max_completion_tokens")
        for i, c in enumerate(contents):  # max_tokens honoured as real servers do: the reply is cut there
            if isinstance(limit, int) and _tokens(c) > limit:
                contents[i], finish[i] = c[: 4 * limit], "length"
        prompt = sum(_tokens(str(m.get("content", ""))) for m in body.get("messages", []))
        completion = sum(_tokens(c) for c in contents)
        with self._lock:
            self.totals["chat"] += 1
            self.totals["prompt_tokens"] += prompt
            self.totals["completion_tokens"] += completion
        out: dict[str, Any] = {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.model or body.get("model", "test"),
            "choices": [
                {
                    "index": i,
                    "message": {"role": "assistant", "content": c},
                    "finish_reason": finish[i],
                    "logprobs": None,
                }
                for i, c in enumerate(contents)
            ],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
        }
        if self.one_choice_usage:
            first = _tokens(contents[0])
            out["usage"] = {"prompt_tokens": prompt, "completion_tokens": first, "total_tokens": prompt + first}
            out["timings"] = {"prompt_n": prompt, "predicted_n": first}
        return json.dumps(out).encode()

    # The Batch API ---------------------------------------------------------------------------------

    def upload(self, content_type: str, raw: bytes) -> tuple[int, bytes]:
        """``POST /files`` (multipart: ``file`` and ``purpose``)."""
        message = email.parser.BytesParser().parsebytes(b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + raw)
        fields = message.get_payload()
        parts = {p.get_param("name", header="content-disposition"): p for p in fields}  # type: ignore[union-attr]
        if "file" not in parts or parts.get("purpose") is None:
            return 400, _error_body("expected the fields 'file' and 'purpose'", "invalid_request_error")
        data = parts["file"].get_payload(decode=True)
        purpose = parts["purpose"].get_payload(decode=True).decode()
        with self._lock:
            file_id = f"file-{len(self.files) + 1}"
            self.files[file_id] = data
            self.totals["files"] += 1
        return 200, json.dumps(_file_object(file_id, len(data), purpose)).encode()

    def batch_route(self, method: str, path: str, raw: bytes) -> tuple[int, bytes] | None:
        """The files and batches endpoints other than the upload; None for another path."""
        if m := re.search(r"/files/([^/]+)/content$", path):
            content = self.files.get(m.group(1))
            return (200, content) if content is not None else (404, _error_body("no such file", "not_found"))
        if (m := re.search(r"/files/([^/]+)$", path)) and method == "DELETE":
            gone = self.files.pop(m.group(1), None)
            deleted = {"id": m.group(1), "object": "file", "deleted": True}
            return 200 if gone is not None else 404, json.dumps(deleted).encode()
        if path.endswith("/batches") and method == "POST":
            created = self._create_batch(json.loads(raw or b"{}"))
            time.sleep(self.create_delay)
            return created
        if path.endswith("/batches") and method == "GET":
            with self._lock:
                listed = [self._batch_state(b) for b in reversed(list(self.batches.values()))]
            return 200, json.dumps({"object": "list", "data": listed, "has_more": False}).encode()
        if m := re.search(r"/batches/([^/]+)(/cancel)?$", path):
            with self._lock:
                batch = self.batches.get(m.group(1))
                if batch is None:
                    return 404, _error_body("no such batch", "not_found")
                if m.group(2) and batch["status"] not in ("completed", "failed", "expired"):
                    batch["cancel"] = True
                return 200, json.dumps(self._batch_state(batch)).encode()
        return None

    def _create_batch(self, body: dict[str, Any]) -> tuple[int, bytes]:
        with self._lock:
            data = self.files.get(body.get("input_file_id", ""))
            if data is None:
                return 400, _error_body("input_file_id: no such file", "invalid_request_error")
            batch_id = f"batch_{len(self.batches) + 1}"
            lines = [json.loads(line) for line in data.splitlines() if line.strip()]
            self.batches[batch_id] = batch = {
                "id": batch_id, "object": "batch", "endpoint": body.get("endpoint"),
                "input_file_id": body["input_file_id"],
                "completion_window": body.get("completion_window", "24h"), "status": "in_progress",
                "created_at": int(time.time()), "metadata": body.get("metadata"), "lines": lines,
                "started": time.monotonic(), "cancel": False,
            }  # fmt: skip
            self.totals["batches"] += 1
            return 200, json.dumps(self._batch_state(batch)).encode()

    def _batch_state(self, batch: dict[str, Any]) -> dict[str, Any]:
        """The batch as the API shows it, ending it (answering its lines) once ``batch_delay`` has passed."""
        total = len(batch["lines"])
        elapsed = time.monotonic() - batch["started"]
        if batch["status"] == "in_progress" and (elapsed >= self.batch_delay or batch["cancel"]):
            self._end_batch(batch)
        done = total if batch["status"] != "in_progress" else int(total * elapsed / self.batch_delay)
        shown = {k: v for k, v in batch.items() if k not in ("lines", "started", "cancel", "failed")}
        return {**shown, "request_counts": {"total": total, "completed": done - batch.get("failed", 0),
                                            "failed": batch.get("failed", 0)}}  # fmt: skip

    def _end_batch(self, batch: dict[str, Any]) -> None:
        """Answer every line (called under the lock): 200s go to the output file, the rest to the error file."""
        out, errors = [], []
        for k, line in enumerate(batch["lines"]):
            key = line.get("custom_id")
            if batch["cancel"]:
                cancelled = {"code": "batch_cancelled", "message": "This line was not executed."}
                errors.append({"id": f"req-{k}", "custom_id": key, "response": None, "error": cancelled})
                continue
            headers = {"x-batch-id": batch["id"]}
            rec = Recorded(self.count, time.monotonic(), line.get("url", ""), headers, line.get("body", {}))
            self.count += 1
            if self.record:
                self.requests.append(rec)
            self._lock.release()  # the script and the answer take the lock themselves
            try:
                reply = (self.script(rec) if self.script is not None else None) or Reply()
                status, payload = self._dispatch(rec.path, rec.body, reply)
            finally:
                self._lock.acquire()
            response = {"status_code": status, "request_id": f"r{k}", "body": json.loads(payload)}
            answer = {"id": f"req-{k}", "custom_id": key, "error": None, "response": response}
            (out if status == 200 else errors).append(answer)
        self.totals["batch_lines"] += len(batch["lines"])
        batch["failed"] = len(errors)
        batch["status"] = "cancelled" if batch["cancel"] else "completed"
        for name, lines in (("output_file_id", out), ("error_file_id", errors)):
            if lines:
                file_id = f"file-{len(self.files) + 1}"
                self.files[file_id] = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
                batch[name] = file_id

    def _embeddings(self, body: dict[str, Any]) -> bytes:
        inputs = body.get("input")
        texts = [inputs] if isinstance(inputs, str) else list(inputs)
        with self._lock:
            self.totals["embeddings"] += 1
        data = []
        for i, text in enumerate(texts):
            vec = self.embedding(text)
            if body.get("encoding_format") == "base64":
                emb: Any = base64.b64encode(struct.pack(f"<{len(vec)}f", *vec)).decode()
            else:
                emb = vec
            data.append({"object": "embedding", "index": i, "embedding": emb})
        tokens = sum(_tokens(t) for t in texts)
        out = {
            "object": "list",
            "data": data,
            "model": self.model or body.get("model", "test"),
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }
        return json.dumps(out).encode()


class _RequestBucket:
    """A requests-per-minute limit enforced as a bucket of one second's requests refilled continuously."""

    def __init__(self, rpm: float, state_limits: bool) -> None:
        self.rpm = rpm
        self.per_second = rpm / 60
        self.capacity = max(1.0, self.per_second)
        self.level = self.capacity
        self.state_limits = state_limits
        self.at = time.monotonic()
        self.lock = threading.Lock()

    def take(self) -> tuple[bool, dict[str, str]]:
        """Whether a request arriving now is allowed, and the headers of its answer."""
        with self.lock:
            now = time.monotonic()
            self.level = min(self.capacity, self.level + (now - self.at) * self.per_second)
            self.at = now
            allowed = self.level >= 1
            if allowed:
                self.level -= 1
            refill = (self.capacity - self.level) / self.per_second if allowed else (1 - self.level) / self.per_second
            headers = {
                "x-ratelimit-limit-requests": f"{self.rpm:g}",
                "x-ratelimit-remaining-requests": str(int(self.level)),
                "x-ratelimit-reset-requests": f"{max(1, round(refill * 1000))}ms",
            }
        return allowed, headers if self.state_limits else {}


class _Server(ThreadingHTTPServer):
    request_queue_size = 256  # the default listen backlog of 5 refuses connections under load
    daemon_threads = True


def _file_object(file_id: str, size: int, purpose: str) -> dict[str, Any]:
    return {"id": file_id, "object": "file", "bytes": size, "created_at": int(time.time()),
            "filename": "input.jsonl", "purpose": purpose, "status": "processed"}  # fmt: skip


def _error_body(message: str, kind: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": kind, "param": None, "code": kind}}).encode()


def _handler_class(server: JudgeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            super().setup()
            # Headers and body go out in separate writes: without TCP_NODELAY, Nagle's algorithm and the
            # client's delayed ACK add ~40 ms to every response.
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def answer(self, status: int, payload: bytes, extra: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(payload)

        def do_POST(self) -> None:
            try:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                path = self.path.split("?")[0]
                if not server.batch_api and re.search(r"/(files|batches)(/|$)", path):
                    self.answer(404, _error_body(f"no route {path}", "not_found"))
                    return
                if path.endswith("/files"):
                    self.answer(*server.upload(self.headers.get("Content-Type", ""), raw))
                    return
                if (routed := server.batch_route("POST", path, raw)) is not None:
                    self.answer(*routed)
                    return
                headers = {k.lower(): v for k, v in self.headers.items()}
                status, extra, payload, delay = server.respond(path, headers, raw)
                if delay:
                    time.sleep(delay)
                self.answer(status, payload, extra)
            except (BrokenPipeError, ConnectionResetError):
                # The client gave up (a hang past its timeout): nothing to answer.
                self.close_connection = True

        def do_DELETE(self) -> None:
            self.answer(*(server.batch_route("DELETE", self.path.split("?")[0], b"") or (404, b"{}")))

        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            if (routed := server.batch_route("GET", path, b"")) is not None:
                self.answer(*routed)
                return
            # GET /stats: the arrival times (time.monotonic of this process) of the requests recorded so far,
            # and the totals.
            with server._lock:
                arrivals = [r.t for r in server.requests]
                payload = json.dumps({"count": server.count, "arrivals": arrivals, **server.totals}).encode()
            self.answer(200 if path == "/stats" else 404, payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


ANSWERS = {"default": default_answer, "schema": schema_answer, "sentences": sentences_answer}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--record", action="store_true", help="keep request records (off: constant memory)")
    parser.add_argument("--answer", choices=sorted(ANSWERS), default="default", help="how chat requests are answered")
    parser.add_argument("--rpm", type=float, default=None, help="enforce this many requests per minute (429 past it)")
    parser.add_argument("--silent-limits", action="store_true", help="enforce --rpm without x-ratelimit-* headers")
    args = parser.parse_args()
    answer = ANSWERS[args.answer]
    with JudgeServer(
        latency=args.latency, record=args.record, answer=answer, rpm=args.rpm, state_limits=not args.silent_limits
    ) as server:
        print(server.url, flush=True)
        try:
            sys.stdin.read()  # serve until the parent closes our stdin
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
