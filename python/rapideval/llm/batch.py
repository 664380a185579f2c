"""The Batch API runner: a stage's first requests answered through OpenAI's or Azure OpenAI's ``/files`` and
``/batches`` endpoints instead of one HTTP call each (see :class:`~rapideval.llm.BatchMode` for the policy).

Invariants:

* A batch's lines are the bodies an online call would send, keyed (``custom_id``) by the request's cache key.
* What was submitted is recorded in the cache file before and after each submission (the uploaded file's id,
  then the batch's id), so a crash, ``kill -9`` or Ctrl-C after submission resumes the batch instead of
  paying again; a file recorded without its batch id is looked up among the endpoint's batches by file id.
  The records are dropped only once the answers are cached.
* Every line ends as an answer, a typed failure, or a line the caller sends online; nothing is lost.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import openai
from tqdm import tqdm

from .accounting import tokens_of
from .cache import JudgeCache
from .guards import Failed
from .options import BatchMode, RetryPolicy
from .results import Cause
from .transport import backoff, choices_of, classify, describe, retry_after

__all__ = ["BatchLine", "BatchRunner", "LineAnswer"]

log = logging.getLogger("rapideval.llm")

T = TypeVar("T")

_TERMINAL = frozenset({"completed", "failed", "expired", "cancelled"})
_AGAIN = "again"  # a line's outcome that a next batch may turn into an answer
_Outcome = dict[str, "LineAnswer | Failed | str"] | Failed


@dataclass(frozen=True)
class BatchLine:
    """One request of a batch: its key (the cache key, the line's ``custom_id``) and its chat body."""

    key: str
    body: dict[str, Any]


@dataclass(frozen=True)
class LineAnswer:
    """The answer to a batch line: its choices ``[(content, finish_reason)]`` and tokens as reported."""

    choices: list[tuple[str | None, str | None]]
    prompt: int
    completion: int
    estimated: bool
    model: str | None


@dataclass
class _Job:
    file_id: str
    batch_id: str | None
    keys: list[str]


class BatchRunner:
    """Answers batch lines on one endpoint. ``store`` (the judge's cache) keeps the submitted batches; without
    one they are kept in memory only (no resume after the process ends)."""

    def __init__(
        self, mode: BatchMode, retry: RetryPolicy, store: JudgeCache | None, endpoint: str, azure: bool
    ) -> None:
        self.mode, self.retry, self.store, self.endpoint = mode, retry, store, endpoint
        self.url = "/chat/completions" if azure else "/v1/chat/completions"  # Azure's batch lines omit /v1
        self.done: list[_Job] = []  # finished batches, forgotten by forget() once their answers are cached

    async def answer(
        self, oai: openai.AsyncOpenAI, lines: Sequence[BatchLine], progress: bool
    ) -> dict[str, LineAnswer | Failed]:
        """Answers and typed failures per key; keys left out are to be sent online."""
        wanted = {line.key: line for line in lines}
        out: dict[str, LineAnswer | Failed] = {}
        jobs = []
        resumed: set[str] = set()
        open_batches = self.store.open_batches(self.endpoint) if self.store is not None else []
        for file_id, batch_id, keys in open_batches:
            if any(k in wanted for k in keys):
                log.info("resuming batch %s (%d requests)", batch_id or f"of file {file_id}", len(keys))
                jobs.append(_Job(file_id, batch_id, keys))
                resumed.update(keys)
        todo = [line for line in lines if line.key not in resumed]
        bar = tqdm(total=len(wanted), disable=not progress, unit="req", desc="batch")
        try:
            for _ in range(self.mode.rounds):
                for part in self._parts(todo):
                    try:
                        jobs.append(await self._submit(oai, part))
                    except Failed as f:
                        out.update((key, f) for key, _ in part)
                outcomes = await self._wait(oai, jobs, bar)
                again = []
                for job in jobs:
                    result = outcomes.get(job.file_id)
                    for key in job.keys:
                        if key not in wanted or key in out:
                            continue
                        got = result.get(key, _AGAIN) if isinstance(result, dict) else result
                        if isinstance(got, (LineAnswer, Failed)):
                            out[key] = got
                        else:
                            again.append(wanted[key])
                jobs, todo = [], again
                if not todo:
                    break
        finally:
            bar.close()
        if todo:
            log.info("%d request(s) failed in %d batch(es): sending them online", len(todo), self.mode.rounds)
        return out

    def forget(self) -> None:
        """Drop the records of the finished batches (their answers are cached now)."""
        if self.store is not None and self.done:
            self.store.forget_batches([job.file_id for job in self.done])
        self.done = []

    # Submission ---------------------------------------------------------------------------------------

    def _parts(self, lines: Sequence[BatchLine]) -> list[list[tuple[str, bytes]]]:
        """The JSONL lines, split within the API's limits on lines and bytes per file."""
        parts: list[list[tuple[str, bytes]]] = []
        size = 0
        for line in lines:
            text = json.dumps({"custom_id": line.key, "method": "POST", "url": self.url, "body": line.body},
                              ensure_ascii=False, separators=(",", ":")).encode() + b"\n"  # fmt: skip
            if not parts or len(parts[-1]) >= self.mode.max_lines or size + len(text) > self.mode.max_bytes:
                parts.append([])
                size = 0
            parts[-1].append((line.key, text))
            size += len(text)
        return parts

    async def _submit(self, oai: openai.AsyncOpenAI, part: list[tuple[str, bytes]]) -> _Job:
        data = b"".join(text for _, text in part)
        keys = [key for key, _ in part]
        upload = await self._call("upload the batch file", lambda: oai.files.create(
            file=("rapideval-batch.jsonl", data, "application/jsonl"), purpose="batch"))  # fmt: skip
        if self.store is not None:
            self.store.add_batch(upload.id, self.endpoint, keys)
        job = _Job(upload.id, None, keys)
        await self._create(oai, job)
        return job

    async def _create(self, oai: openai.AsyncOpenAI, job: _Job) -> str:
        batch = await self._call("create the batch", lambda: oai.batches.create(
            input_file_id=job.file_id, endpoint=self.url,  # type: ignore[arg-type]
            completion_window=self.mode.completion_window,  # type: ignore[arg-type]
            metadata={"created_by": "rapideval"}))  # fmt: skip
        job.batch_id = batch.id
        if self.store is not None:
            self.store.batch_submitted(job.file_id, batch.id)
        log.info("submitted batch %s (%d requests)", batch.id, len(job.keys))
        return batch.id

    async def _find(self, oai: openai.AsyncOpenAI, job: _Job) -> str:
        """The id of the batch of a file uploaded before a crash: found among the endpoint's batches, else
        created."""
        page = await self._call("list the batches", lambda: oai.batches.list(limit=100))
        for _ in range(20):  # the newest 2,000 batches: a crash's batch is among the latest
            for batch in page.data:
                if batch.input_file_id == job.file_id:
                    job.batch_id = batch.id
                    if self.store is not None:
                        self.store.batch_submitted(job.file_id, batch.id)
                    return batch.id
            if not page.has_next_page():
                break
            page = await self._call("list the batches", page.get_next_page)
        return await self._create(oai, job)

    # Waiting and reading ------------------------------------------------------------------------------

    async def _wait(self, oai: openai.AsyncOpenAI, jobs: list[_Job], bar: tqdm[Any]) -> dict[str, _Outcome]:
        """Poll every job until it ends; per file id, the outcome of each of its keys, or one for all of them
        (a failure to reach the API: the batch is kept for the next call). The bar shows the lines done."""
        outcomes: dict[str, _Outcome] = {}
        pending = list(jobs)
        base = bar.n
        while pending:
            progress = 0
            for job in list(pending):
                try:
                    batch_id = job.batch_id or await self._find(oai, job)
                    batch = await self._call("poll the batch", functools.partial(oai.batches.retrieve, batch_id))
                    counts = batch.request_counts
                    progress += (counts.completed + counts.failed) if counts is not None else 0
                    if batch.status not in _TERMINAL:
                        continue
                    pending.remove(job)
                    log.info("batch %s %s", batch.id, batch.status)
                    outcomes[job.file_id] = await self._outcome(oai, job, batch)
                    self.done.append(job)
                except Failed as f:
                    pending.remove(job)
                    kept = f"batch {job.batch_id or 'of file ' + job.file_id} is kept: call again to resume"
                    outcomes[job.file_id] = Failed(f.cause, f"{f.message} ({kept})", f.status)
            bar.n = min(bar.total, base + progress)
            bar.refresh()
            if pending:
                await asyncio.sleep(self.mode.poll_interval)
        return outcomes

    async def _outcome(self, oai: openai.AsyncOpenAI, job: _Job, batch: Any) -> dict[str, LineAnswer | Failed | str]:
        """The outcome of each line of a batch that ended: read from its output and error files; a batch the
        API refused as a whole (status ``failed``) fails each of its lines."""
        if batch.status == "failed":
            errors = batch.errors.data if batch.errors is not None and batch.errors.data else []
            why = "; ".join(e.message or e.code or "" for e in errors) or "no reason given"
            return dict.fromkeys(job.keys, Failed("bad_request", f"the Batch API refused batch {batch.id}: {why}"))
        lines: dict[str, LineAnswer | Failed | str] = {}
        for file_id in (batch.output_file_id, batch.error_file_id):
            if file_id:
                content = await self._call("read the batch's answers", functools.partial(oai.files.content, file_id))
                lines.update(_read_lines(content.content))
        return lines

    async def _call(self, what: str, make: Callable[[], Awaitable[T]]) -> T:
        """One call of the files or batches API, retrying transient errors as online calls do."""
        attempt = 0
        while True:
            attempt += 1
            try:
                return await make()
            except openai.OpenAIError as e:
                cause, transient = classify(e)
                if not transient or attempt >= self.retry.max_attempts:
                    status = getattr(e, "status_code", None)
                    hint = ": this endpoint has no Batch API (use batch=False)" if status in (404, 405) else ""
                    raise Failed(cause, f"batch mode could not {what}: {describe(e)}{hint}", status) from None
                wait = retry_after(e)
                wait = backoff(self.retry, attempt) if wait is None else min(wait, self.retry.max_retry_after)
                await asyncio.sleep(wait)


def _read_lines(content: bytes) -> dict[str, LineAnswer | Failed | str]:
    """The outcome of each line of a batch's output or error file, by custom_id."""
    out: dict[str, LineAnswer | Failed | str] = {}
    for raw in content.splitlines():
        try:
            line = json.loads(raw)
            key = line["custom_id"]
        except (ValueError, KeyError, TypeError):
            continue  # not a line of ours: its request is sent again
        response = line.get("response") or {}
        status = response.get("status_code")
        body = response.get("body")
        if status == 200 and isinstance(body, dict):
            try:
                prompt, completion, estimated = tokens_of(body, 0)
                reported = body.get("model")
                out[key] = LineAnswer(choices_of(body), prompt, completion, estimated,
                                      reported if isinstance(reported, str) and reported else None)  # fmt: skip
            except Failed as f:
                out[key] = f
            continue
        error = (body or {}).get("error") if isinstance(body, dict) else None
        error = error or line.get("error") or {}
        message = str(error.get("message") or error.get("code") or f"status {status}")
        if status is None or status in (408, 429) or status >= 500:
            out[key] = _AGAIN  # expired, cancelled, rate-limited or a server error: worth another batch
        else:
            cause: Cause = "auth" if status in (401, 403) else "bad_request"
            out[key] = Failed(cause, f"the batch line was answered {status}: {message}", status)
    return out
