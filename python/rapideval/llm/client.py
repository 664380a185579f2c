"""The judge runtime: async chat and embedding calls on the official ``openai`` client, rate-limited,
retried, cached, accounted, and returning typed records.

Invariants:

* Per-call options are immutable values merged into a fresh request dict; nothing a call passes changes
  what another call sends.
* Only transient errors are retried (timeouts, connection errors, 429, 408, 5xx); a 429 with Retry-After
  pauses every task of the client. Every request ends as a :class:`JudgeResult` or a :class:`JudgeFailure`;
  no exception from the endpoint or the reply ends a run.
* A reply is cached the moment its request succeeds (and only then); rerunning makes no call for it.
* API keys reach neither the cache, nor the logs, nor the results, nor any repr.

Everything bound to an event loop (the openai client's connection pool, the semaphore, the limiters) is
created per loop, so the sync wrappers may be called again and again, each with its own ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import random
import sys
import time
from collections.abc import Awaitable, Callable, Hashable, Iterable, Mapping, Sequence
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import openai
from aiolimiter import AsyncLimiter
from pydantic import BaseModel
from tqdm import tqdm

from ..metrics.votes import majority_vote, ordinal_vote
from .cache import JudgeCache, cache_key, default_cache_path
from .options import Budget, Limits, RetryPolicy, Sampling
from .pricing import PRICES, cost_usd, price_of
from .request import Combine, JudgeRequest
from .results import Cause, DryRun, Estimate, JudgeFailure, JudgeResult, JudgeRun, Usage
from .structured import MODES, FormatMode, OutputError, parse_output, repair_messages, response_format, strict_schema
from .structured import with_instruction

__all__ = ["JudgeClient", "JudgeError"]

log = logging.getLogger("rapideval.llm")

T = TypeVar("T")

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small"
# Completion tokens assumed for the rate limiter and estimates when max_tokens is left to the endpoint.
_COMPLETION_GUESS = 512
_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "structured output")


class JudgeError(Exception):
    """An embedding batch that failed for good (judge calls return :class:`JudgeFailure` instead)."""

    def __init__(self, cause: Cause, message: str, attempts: int) -> None:
        super().__init__(f"{cause} after {attempts} attempt(s): {message}")
        self.cause = cause
        self.attempts = attempts


class _Failed(Exception):
    """Internal: a request failed for good; becomes a JudgeFailure."""

    def __init__(self, cause: Cause, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.cause = cause
        self.message = message
        self.status = status


class _Bucket(AsyncLimiter):
    """aiolimiter's leaky bucket, plus settling a call's estimate once its real usage is known.

    aiolimiter has no public way to return or add capacity; ``settle`` uses its ``_leak``, ``_level`` and
    ``_wake_next``, unchanged since 1.2 (the dependency is pinned to ``>=1.2,<2``)."""

    __slots__ = ()

    async def take(self, amount: float) -> None:
        # A call larger than the bucket waits for an empty bucket and leaves the excess as debt.
        head = min(amount, self.max_rate)
        await self.acquire(head)
        if amount > head:
            self.settle(amount - head)

    def settle(self, delta: float) -> None:
        self._leak()
        self._level = max(0.0, self._level + delta)
        self._wake_next()


class _LoopState:
    """What one event loop owns: the openai client (its connection pool), the semaphore, the limiters."""

    def __init__(self, loop: asyncio.AbstractEventLoop, oai: openai.AsyncOpenAI, limits: Limits) -> None:
        self.loop = loop
        self.oai = oai
        self.sem = asyncio.Semaphore(limits.concurrency)
        # Requests are spaced evenly: providers enforce RPM over sub-minute windows (OpenAI may enforce
        # 60,000 RPM as 1,000 per second), so a minute-sized burst only draws 429s. The bucket holds a tenth
        # of a second of requests (at least 2) so that the event loop's late wake-ups are caught up.
        if limits.rpm:
            burst = max(2.0, limits.rpm / 600)
            self.rpm: AsyncLimiter | None = AsyncLimiter(burst, burst * 60.0 / limits.rpm)
        else:
            self.rpm = None
        # Tokens may burst up to six seconds' worth.
        self.tpm = _Bucket(limits.tpm / 10, 6.0) if limits.tpm else None


class _Acct:
    """Mutable usage of one request while it runs."""

    __slots__ = ("calls", "completion", "latency", "prompt", "retries")

    def __init__(self) -> None:
        self.calls = self.prompt = self.completion = self.retries = 0
        self.latency = 0.0

    def usage(self, model: str, prices: Mapping[str, tuple[float, float]]) -> Usage:
        cost = cost_usd(model, self.prompt, self.completion, prices)
        return Usage(self.calls, self.prompt, self.completion, self.latency, self.retries, 0, cost)


class _Run:
    """Budget bookkeeping of one run: calls reserve their estimate before they are sent, settle after."""

    def __init__(self, budget: Budget | None, prices: Mapping[str, tuple[float, float]]) -> None:
        self.budget = budget
        self.prices = prices
        self.calls = 0
        self.tokens = 0
        self.cost = 0.0
        self.exhausted: str | None = None

    def reserve(self, model: str, prompt: int, completion: int) -> tuple[int, float] | None:
        b = self.budget
        if b is None:
            return None
        if self.exhausted is not None:
            raise _Failed("budget", self.exhausted)
        cost = (cost_usd(model, prompt, completion, self.prices) or 0.0) if b.max_cost_usd is not None else 0.0
        if b.max_calls is not None and self.calls + 1 > b.max_calls:
            self.exhausted = f"max_calls={b.max_calls} reached after {self.calls} calls"
        elif b.max_tokens is not None and self.tokens + prompt + completion > b.max_tokens:
            self.exhausted = f"max_tokens={b.max_tokens} reached ({self.tokens} tokens spent or in flight)"
        elif b.max_cost_usd is not None and self.cost + cost > b.max_cost_usd:
            self.exhausted = f"max_cost_usd={b.max_cost_usd} reached (${self.cost:.6f} spent or in flight)"
        if self.exhausted is not None:
            raise _Failed("budget", self.exhausted)
        self.calls += 1
        self.tokens += prompt + completion
        self.cost += cost
        return prompt + completion, cost

    def settle(self, reservation: tuple[int, float] | None, model: str, prompt: int, completion: int) -> None:
        if reservation is None:
            return
        self.tokens += prompt + completion - reservation[0]
        if self.budget is not None and self.budget.max_cost_usd is not None:
            self.cost += (cost_usd(model, prompt, completion, self.prices) or 0.0) - reservation[1]


class _Ctx:
    """One judge request in flight: what to send and where its usage goes."""

    __slots__ = ("acct", "model", "run", "sampling", "schema")

    def __init__(self, model: str, sampling: Sampling, schema: type[BaseModel] | None, acct: _Acct, run: _Run) -> None:
        self.model, self.sampling, self.schema, self.acct, self.run = model, sampling, schema, acct, run


def _prompt_tokens(messages: Sequence[Mapping[str, Any]]) -> int:
    """OpenAI's rule of thumb: 4 characters a token, plus ~4 tokens of framing per message."""
    chars = 0
    for m in messages:
        content = m.get("content")
        chars += len(content) if isinstance(content, str) else len(json.dumps(content))
    return chars // 4 + 4 * len(messages)


def _classify(e: openai.OpenAIError) -> tuple[Cause, bool]:
    """The failure cause of an openai error, and whether it is transient (worth a retry)."""
    if isinstance(e, openai.APITimeoutError):
        return "timeout", True
    if isinstance(e, openai.APIConnectionError):
        return "connection", True
    if isinstance(e, openai.APIStatusError):
        status = e.status_code
        if status == 429:
            return "rate_limit", True
        if status == 408:
            return "timeout", True
        if status >= 500:
            return "server_error", True
        if status in (401, 403):
            return "auth", False
        return "bad_request", False
    return "invalid_response", False


def _retry_after(e: openai.OpenAIError) -> float | None:
    """Seconds from ``retry-after-ms`` (OpenAI, Azure) or ``retry-after`` (seconds or an HTTP date)."""
    response = getattr(e, "response", None)
    if response is None:
        return None
    headers = response.headers
    try:
        if "retry-after-ms" in headers:
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        value = headers.get("retry-after")
        if value is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, OverflowError):
        return None


def _combine(values: list[Any], how: Combine) -> tuple[Any, float | None]:
    """Combine the votes of one request with the Rust vote kernel: (value, agreement)."""
    if how == "auto":
        how = "majority" if all(isinstance(v, (bool, str)) for v in values) else "mean"
    if how == "majority":
        vote = majority_vote(np.asarray([values]))
        winner = vote.winner[0]
        return (winner.item() if isinstance(winner, np.generic) else winner), float(vote.agreement[0])
    scores = ordinal_vote(np.asarray([values], dtype=np.float64))
    return float(scores.mean[0] if how == "mean" else scores.median[0]), None


class _Secret(str):
    """A credential that prints as stars."""

    def __repr__(self) -> str:
        return "'***'"


class JudgeClient:
    """An LLM judge on any OpenAI-compatible endpoint (OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp).

    With no arguments it uses ``OPENAI_API_KEY`` and ``OPENAI_BASE_URL`` (read by the openai client) and the
    model in ``RAPIDEVAL_JUDGE_MODEL`` (default ``gpt-4o-mini``). Without an API key, a ``base_url`` (local
    servers) gets a placeholder key. ``client`` takes an ``openai.AsyncOpenAI`` / ``AsyncAzureOpenAI`` you
    built, or better a function that builds one (called once per event loop, so the sync methods can run
    one loop after another); it is used with ``max_retries=0``, as retries are ours. See also :meth:`azure`.

    ``cache`` is ``"default"`` (``judge.sqlite3`` in the user cache directory, or ``$RAPIDEVAL_JUDGE_CACHE``),
    a path, a :class:`JudgeCache`, or ``None`` to disable caching. ``prices`` adds to or overrides
    :data:`rapideval.llm.pricing.PRICES` (USD per million input / output tokens).

    Use it as a context manager (``with`` or ``async with``), or call :meth:`close` / :meth:`aclose`.
    The sync methods (:meth:`run`, :meth:`judge`, :meth:`embed`) each run their own event loop; inside a
    running loop (Jupyter, an async app) await the ``a``-prefixed ones instead. A client serves one event
    loop at a time (one thread).
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        client: openai.AsyncOpenAI | Callable[[], openai.AsyncOpenAI] | None = None,
        embedding_model: str | None = None,
        sampling: Sampling = Sampling(),
        limits: Limits = Limits(),
        retry: RetryPolicy = RetryPolicy(),
        cache: str | os.PathLike[str] | JudgeCache | None = "default",
        prices: Mapping[str, tuple[float, float]] | None = None,
    ) -> None:
        self.model = model or os.environ.get("RAPIDEVAL_JUDGE_MODEL") or DEFAULT_MODEL
        self.embedding_model = embedding_model or os.environ.get("RAPIDEVAL_EMBEDDING_MODEL") or DEFAULT_EMBEDDING_MODEL
        for name, value, kind in (
            ("sampling", sampling, Sampling),
            ("limits", limits, Limits),
            ("retry", retry, RetryPolicy),
        ):
            if not isinstance(value, kind):
                raise TypeError(f"{name} must be a {kind.__name__}, got {type(value).__name__}")
        self.sampling, self.limits, self.retry = sampling, limits, retry
        self.prices: Mapping[str, tuple[float, float]] = {**PRICES, **(prices or {})}
        if cache == "default":
            self.cache: JudgeCache | None = JudgeCache(default_cache_path())
        elif cache is None or isinstance(cache, JudgeCache):
            self.cache = cache
        elif isinstance(cache, (str, os.PathLike)):
            self.cache = JudgeCache(Path(cache))
        else:
            raise TypeError(f"cache must be 'default', a path, a JudgeCache or None, got {type(cache).__name__}")
        self._owns_cache = not isinstance(cache, JudgeCache)

        if client is None:
            key = api_key or os.environ.get("OPENAI_API_KEY")
            if not key and (base_url or os.environ.get("OPENAI_BASE_URL")):
                key = "no-key"  # vLLM, Ollama and llama.cpp ignore it; the openai client requires one
            self._factory: Callable[[], openai.AsyncOpenAI] = lambda: openai.AsyncOpenAI(
                api_key=key, base_url=base_url, max_retries=0, timeout=limits.timeout
            )
            self._owns_oai = True
        elif isinstance(client, openai.AsyncOpenAI):
            # Yours, so never closed here; its connection pool belongs to the first event loop that uses it.
            self._factory = lambda: client.with_options(max_retries=0, timeout=limits.timeout)
            self._owns_oai = False
        elif callable(client):
            self._factory = lambda: client().with_options(max_retries=0, timeout=limits.timeout)
            self._owns_oai = True
        else:
            raise TypeError(
                f"client must be an openai.AsyncOpenAI or a function making one, got {type(client).__name__}"
            )
        first = self._factory()  # the openai client raises now, not at the first call, without a key
        self._secret = _Secret(first.api_key) if isinstance(first.api_key, str) and first.api_key else None
        self.base_url = str(first.base_url)
        self._spare: openai.AsyncOpenAI | None = first
        self._state: _LoopState | None = None
        self._not_before = 0.0
        self._modes: dict[str, FormatMode] = {}
        self._n_honoured: dict[str, bool] = {}
        self._usage = Usage()

    @classmethod
    def azure(
        cls,
        deployment: str | None = None,
        *,
        endpoint: str | None = None,
        api_version: str | None = None,
        api_key: str | None = None,
        azure_ad_token_provider: Callable[[], str | Awaitable[str]] | None = None,
        **options: Any,
    ) -> JudgeClient:
        """A judge on an Azure OpenAI deployment. ``deployment`` defaults to ``RAPIDEVAL_JUDGE_MODEL``; the
        openai client reads ``AZURE_OPENAI_ENDPOINT``, ``OPENAI_API_VERSION`` and ``AZURE_OPENAI_API_KEY``
        for what is not given. Other keyword arguments are those of :class:`JudgeClient`."""

        given = {"azure_endpoint": endpoint, "api_version": api_version, "api_key": api_key}
        settings: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
        if azure_ad_token_provider is not None:
            settings["azure_ad_token_provider"] = azure_ad_token_provider

        def factory() -> openai.AsyncOpenAI:
            return openai.AsyncAzureOpenAI(**settings)

        return cls(deployment, client=factory, **options)

    def __repr__(self) -> str:
        return f"JudgeClient(model={self.model!r}, base_url={self.base_url!r}, cache={self.cache!r})"

    @property
    def usage(self) -> Usage:
        """Everything this client spent since it was built (judge calls and embeddings)."""
        return self._usage

    # Lifecycle ------------------------------------------------------------------------------------------

    def _loop_state(self) -> _LoopState:
        loop = asyncio.get_running_loop()
        state = self._state
        if state is None or state.loop is not loop:
            oai, self._spare = (self._spare or self._factory()), None
            state = self._state = _LoopState(loop, oai, self.limits)
        return state

    async def aclose(self) -> None:
        """Close the connections of the current event loop's client (and the cache, if this client made it)."""
        await self._close_loop_state()
        if self._owns_cache and self.cache is not None:
            self.cache.close()

    async def _close_loop_state(self) -> None:
        state, self._state = self._state, None
        if state is not None and self._owns_oai and state.loop is asyncio.get_running_loop():
            await state.oai.close()

    def close(self) -> None:
        if self._owns_cache and self.cache is not None:
            self.cache.close()

    async def __aenter__(self) -> JudgeClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __enter__(self) -> JudgeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _sync(self, name: str, fn: Callable[[], Awaitable[T]]) -> T:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            raise RuntimeError(
                f"JudgeClient.{name}() runs its own event loop and cannot be called inside a running one "
                f"(Jupyter, an async app): use `await client.a{name}(...)` there"
            )

        async def main() -> T:
            try:
                return await fn()
            finally:
                await self._close_loop_state()

        return asyncio.run(main())

    # One HTTP request, with retries -------------------------------------------------------------------

    def _scrub(self, text: str) -> str:
        return text.replace(self._secret, "***") if self._secret else text

    def _pause(self, seconds: float) -> None:
        self._not_before = max(self._not_before, time.monotonic() + seconds)

    async def _wait_pause(self) -> None:
        while (wait := self._not_before - time.monotonic()) > 0:
            await asyncio.sleep(wait)

    async def _post(
        self, kind: str, body: dict[str, Any], estimate: tuple[int, int], model: str, acct: _Acct, run: _Run
    ) -> dict[str, Any]:
        """Send one request (retrying transient errors) and return the decoded JSON body."""
        state = self._loop_state()
        tokens = estimate[0] + estimate[1]
        attempt = 0
        while True:
            attempt += 1
            reservation = run.reserve(model, *estimate)
            try:
                async with state.sem:
                    await self._wait_pause()
                    if state.rpm is not None:
                        await state.rpm.acquire()
                    if state.tpm is not None:
                        await state.tpm.take(tokens)
                    await self._wait_pause()
                    start = time.perf_counter()
                    try:
                        if kind == "chat":
                            raw = await state.oai.chat.completions.with_raw_response.create(**body)
                        else:
                            raw = await state.oai.embeddings.with_raw_response.create(**body)
                    finally:
                        acct.calls += 1
                        acct.latency += time.perf_counter() - start
            except openai.OpenAIError as e:
                run.settle(reservation, model, 0, 0)
                if state.tpm is not None:
                    state.tpm.settle(-tokens)
                cause, transient = _classify(e)
                message = self._scrub(str(e))
                if not transient or attempt >= self.retry.max_attempts:
                    raise _Failed(cause, message, getattr(e, "status_code", None)) from None
                delay = _retry_after(e) if cause == "rate_limit" else None
                if delay is not None:
                    delay = min(delay, self.retry.max_retry_after)
                    self._pause(delay)  # the endpoint asked everyone to wait, not just this task
                else:
                    delay = random.uniform(0, min(self.retry.max_delay, self.retry.base_delay * 2 ** (attempt - 1)))
                acct.retries += 1
                log.debug("%s (%s), attempt %d: retrying in %.3f s", cause, message, attempt, delay)
                await asyncio.sleep(delay)
                continue
            try:
                data = json.loads(raw.content)
            except ValueError:
                run.settle(reservation, model, 0, 0)
                raise _Failed("invalid_response", f"the {kind} response body is not JSON") from None
            if not isinstance(data, dict):
                run.settle(reservation, model, 0, 0)
                raise _Failed("invalid_response", f"the {kind} response body is not a JSON object")
            usage = data.get("usage")
            if isinstance(usage, dict):
                prompt = int(usage.get("prompt_tokens") or 0)
                completion = int(usage.get("completion_tokens") or 0)
                acct.prompt += prompt
                acct.completion += completion
                run.settle(reservation, model, prompt, completion)
                if state.tpm is not None:
                    state.tpm.settle(prompt + completion - tokens)
            else:
                # No usage reported (some local servers): the estimate stands in the budget and the limiter.
                run.settle(reservation, model, *estimate)
            return data

    # Chat --------------------------------------------------------------------------------------------

    async def _chat(
        self, ctx: _Ctx, messages: Sequence[Mapping[str, Any]], n: int, max_tokens: int | None = None
    ) -> list[tuple[str | None, str | None]]:
        """One chat request for ``n`` choices: [(content, finish_reason)], in choice order. Falls back to
        a weaker response_format, for good, when the endpoint rejects the current one."""
        while True:
            mode: FormatMode = self._modes.get(ctx.model, "json_schema") if ctx.schema is not None else "text"
            sent = messages if ctx.schema is None or mode == "json_schema" else with_instruction(messages, ctx.schema)
            body: dict[str, Any] = {"model": ctx.model, "messages": sent, **ctx.sampling.params(max_tokens)}
            if n > 1:
                body["n"] = n
            if ctx.sampling.extra:
                body["extra_body"] = dict(ctx.sampling.extra)
            if ctx.schema is not None and (fmt := response_format(ctx.schema, mode)) is not None:
                body["response_format"] = fmt
            limit = max_tokens or ctx.sampling.max_tokens or _COMPLETION_GUESS
            try:
                data = await self._post("chat", body, (_prompt_tokens(sent), n * limit), ctx.model, ctx.acct, ctx.run)
            except _Failed as f:
                if mode != "text" and f.status in (400, 422) and any(w in f.message.lower() for w in _FORMAT_WORDS):
                    weaker = MODES[MODES.index(mode) + 1]
                    if MODES.index(self._modes.get(ctx.model, "json_schema")) < MODES.index(weaker):
                        log.info("%s rejects response_format %r; using %r from now on", ctx.model, mode, weaker)
                        self._modes[ctx.model] = weaker
                    continue
                raise
            choices = data.get("choices")
            if not isinstance(choices, list) or not choices:
                raise _Failed("invalid_response", "the chat completion has no choices")
            try:
                ordered = sorted(choices, key=lambda c: c.get("index", 0))
                return [((c.get("message") or {}).get("content"), c.get("finish_reason")) for c in ordered]
            except (AttributeError, TypeError):
                raise _Failed("invalid_response", "the chat completion's choices are malformed") from None

    async def _verdict(
        self, ctx: _Ctx, messages: Sequence[Mapping[str, Any]], content: str | None, finish: str | None
    ) -> tuple[Any, str]:
        """Turn one choice into a validated verdict: one retry with twice the max_tokens on truncation,
        one repair re-ask on invalid output. Returns (verdict, raw reply)."""
        if finish == "length":
            bigger = 2 * (ctx.sampling.max_tokens or _COMPLETION_GUESS)
            content, finish = (await self._chat(ctx, messages, 1, bigger))[0]
            if finish == "length":
                raise _Failed("truncated", f"finish_reason 'length' again with max_tokens={bigger}")
        if finish == "content_filter":
            raise _Failed("content_filter", "the endpoint filtered the reply")
        if ctx.schema is None:
            if content is None:
                raise _Failed("invalid_output", "the reply is empty")
            return content, content
        try:
            return parse_output(content, ctx.schema), content or ""
        except OutputError as e:
            error = str(e)
        fixed, finish = (await self._chat(ctx, repair_messages(messages, content, error), 1))[0]
        try:
            return parse_output(fixed, ctx.schema), fixed or ""
        except OutputError as e:
            why = "truncated" if finish == "length" else "invalid"
            raise _Failed("invalid_output", f"{e} (the repair re-ask was {why} too; first error: {error})") from None

    async def _votes(self, ctx: _Ctx, req: JudgeRequest) -> tuple[list[tuple[Any, str]], list[_Failed]]:
        """All the verdicts of a request: ``n=votes`` in one call where the endpoint honours ``n`` (else the
        missing ones in separate calls, remembered for the model), each validated on its own."""
        k = req.votes
        first_n = k if k > 1 and self._n_honoured.get(ctx.model, True) else 1
        choices = (await self._chat(ctx, req.messages, first_n))[:k]
        if first_n > 1:
            honoured = len(choices) == first_n
            if not honoured and self._n_honoured.get(ctx.model, True):
                log.info("%s returned %d choice(s) for n=%d; sending votes separately", ctx.model, len(choices), k)
            self._n_honoured[ctx.model] = honoured

        async def separate() -> tuple[Any, str]:
            content, finish = (await self._chat(ctx, req.messages, 1))[0]
            return await self._verdict(ctx, req.messages, content, finish)

        jobs = [self._verdict(ctx, req.messages, c, f) for c, f in choices]
        jobs += [separate() for _ in range(k - len(choices))]
        outcomes = await asyncio.gather(*jobs, return_exceptions=True)
        good, bad = [], []
        for o in outcomes:
            if isinstance(o, _Failed):
                bad.append(o)
            elif isinstance(o, BaseException):
                raise o
            else:
                good.append(o)
        return good, bad

    def _request_key(self, req: JudgeRequest, model: str, sampling: Sampling) -> str:
        return cache_key(
            {
                "kind": "chat",
                "model": model,
                "messages": req.messages,
                "params": sampling.params(),
                "extra": dict(sampling.extra),
                "schema": strict_schema(req.schema) if req.schema is not None else None,
                "votes": req.votes,
            }
        )

    def _result(self, req: JudgeRequest, verdicts: list[Any], usage: Usage, cached: bool) -> JudgeResult:
        values = [getattr(v, req.field) for v in verdicts] if req.field is not None else verdicts
        if req.votes == 1:
            value, agreement = values[0], None
        else:
            value, agreement = _combine(values, req.combine)
        return JudgeResult(
            req.row, req.metric, value, tuple(verdicts), agreement, req.votes - len(verdicts), usage, cached
        )

    def _cached(self, req: JudgeRequest, key: str) -> JudgeResult | None:
        hit = self.cache.get(key) if self.cache is not None else None
        if hit is None:
            return None
        try:
            verdicts = [r if req.schema is None else parse_output(r, req.schema) for r in hit["replies"]]
        except OutputError:
            return None  # the schema's validation changed since this was cached: judge again
        return self._result(req, verdicts, Usage(cache_hits=1), cached=True)

    async def _judge(self, req: JudgeRequest, run: _Run) -> JudgeResult | JudgeFailure:
        model = req.model or self.model
        sampling = req.sampling or self.sampling
        acct = _Acct()
        result: JudgeResult | JudgeFailure | None
        try:
            key = self._request_key(req, model, sampling)
            result = self._cached(req, key)
            if result is None:
                good, bad = await self._votes(_Ctx(model, sampling, req.schema, acct, run), req)
                if not good:
                    raise bad[0]
                result = self._result(req, [v for v, _ in good], acct.usage(model, self.prices), cached=False)
                if self.cache is not None:
                    self.cache.put(key, model, {"replies": [raw for _, raw in good]})
        except _Failed as f:
            usage = acct.usage(model, self.prices)
            result = JudgeFailure(req.row, req.metric, f.cause, acct.calls, self._scrub(f.message), usage)
        except Exception as e:
            log.exception("judge request (row=%r, metric=%r) failed unexpectedly", req.row, req.metric)
            usage = acct.usage(model, self.prices)
            message = self._scrub(f"{type(e).__name__}: {e}")
            result = JudgeFailure(req.row, req.metric, "error", acct.calls, message, usage)
        self._usage = self._usage + result.usage
        return result

    # Public judge API --------------------------------------------------------------------------------

    async def ajudge(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        schema: type[BaseModel] | None = None,
        field: str | None = None,
        votes: int = 1,
        combine: Combine = "auto",
        sampling: Sampling | None = None,
        model: str | None = None,
        row: Hashable = 0,
        metric: str = "judge",
    ) -> JudgeResult | JudgeFailure:
        """Judge one prompt (see :class:`JudgeRequest` for the arguments)."""
        req = JudgeRequest(row, metric, tuple(messages), schema, field, votes, combine, sampling, model)
        return await self._judge(req, _Run(None, self.prices))

    def judge(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        schema: type[BaseModel] | None = None,
        field: str | None = None,
        votes: int = 1,
        combine: Combine = "auto",
        sampling: Sampling | None = None,
        model: str | None = None,
        row: Hashable = 0,
        metric: str = "judge",
    ) -> JudgeResult | JudgeFailure:
        """Sync :meth:`ajudge`."""
        req = JudgeRequest(row, metric, tuple(messages), schema, field, votes, combine, sampling, model)
        return self._sync("judge", lambda: self._judge(req, _Run(None, self.prices)))

    async def arun(
        self, requests: Iterable[JudgeRequest], *, budget: Budget | None = None, progress: bool | None = None
    ) -> JudgeRun:
        """Judge many requests concurrently within the client's limits; records come back in request order.

        ``budget`` caps this run's spending: once the next call would pass it, no call is started and the
        requests not judged yet become failures with cause ``"budget"`` (cached ones are still served);
        :attr:`JudgeRun.stopped` says which limit and at which row. ``progress`` shows a tqdm bar on stderr
        (default: when stderr is a terminal; it appears once the run has lasted a second).
        """
        reqs = list(requests)
        for i, r in enumerate(reqs):
            if not isinstance(r, JudgeRequest):
                raise TypeError(f"requests[{i}]: expected a JudgeRequest, got {type(r).__name__}")
        if budget is not None and budget.max_cost_usd is not None:
            unpriced = sorted(
                {r.model or self.model for r in reqs if price_of(r.model or self.model, self.prices) is None}
            )
            if unpriced:
                raise ValueError(f"budget.max_cost_usd needs a price for {unpriced}: pass prices={{model: (in, out)}}")
        run = _Run(budget, self.prices)
        results: list[JudgeResult | JudgeFailure | None] = [None] * len(reqs)
        show = sys.stderr.isatty() if progress is None else progress
        bar = tqdm(total=len(reqs), disable=not show, delay=1.0, unit="req", file=sys.stderr)
        pending = iter(enumerate(reqs))

        async def worker() -> None:
            for i, req in pending:
                results[i] = await self._judge(req, run)
                bar.update(1)

        try:
            await asyncio.gather(*(worker() for _ in range(min(len(reqs), self.limits.concurrency))))
        finally:
            bar.close()
        done = [r for r in results if r is not None]
        stopped = None
        if run.exhausted is not None:
            skipped = [i for i, r in enumerate(done) if isinstance(r, JudgeFailure) and r.cause == "budget"]
            if skipped:
                first = done[skipped[0]]
                stopped = (
                    f"{run.exhausted}: stopped at row {first.row!r} (metric {first.metric!r}, request "
                    f"{skipped[0] + 1} of {len(done)}); {len(skipped)} request(s) not judged"
                )
        return JudgeRun(tuple(done), stopped)

    def run(
        self, requests: Iterable[JudgeRequest], *, budget: Budget | None = None, progress: bool | None = None
    ) -> JudgeRun:
        """Sync :meth:`arun`."""
        reqs = list(requests)
        return self._sync("run", lambda: self.arun(reqs, budget=budget, progress=progress))

    def dry_run(self, requests: Iterable[JudgeRequest]) -> DryRun:
        """Every prompt as it would be sent, and the calls, tokens and cost per metric, without any call.

        Counts first attempts only (no retries or repair re-asks); ``completion_tokens`` is the bound
        ``max_tokens x votes``; cached requests cost nothing."""
        prompts = []
        acc: dict[str, list[Any]] = {}
        for r in requests:
            if not isinstance(r, JudgeRequest):
                raise TypeError(f"expected a JudgeRequest, got {type(r).__name__}")
            model = r.model or self.model
            sampling = r.sampling or self.sampling
            mode = self._modes.get(model, "json_schema") if r.schema is not None else "text"
            sent = r.messages if r.schema is None or mode == "json_schema" else with_instruction(r.messages, r.schema)
            prompts.append((r.row, r.metric, tuple(sent)))
            cached = self.cache is not None and self.cache.get(self._request_key(r, model, sampling)) is not None
            calls = 0 if cached else (1 if r.votes == 1 or self._n_honoured.get(model, True) else r.votes)
            prompt = calls * _prompt_tokens(sent)
            completion = 0 if cached else r.votes * (sampling.max_tokens or _COMPLETION_GUESS)
            cost = cost_usd(model, prompt, completion, self.prices)
            e = acc.setdefault(r.metric, [0, 0, 0, 0, 0, 0.0])
            for i, v in enumerate((1, calls, int(cached), prompt, completion)):
                e[i] += v
            e[5] = None if e[5] is None or cost is None else e[5] + cost
        return DryRun(tuple(prompts), {m: Estimate(*v) for m, v in acc.items()})

    # Embeddings --------------------------------------------------------------------------------------

    async def aembed(
        self, texts: Iterable[str], *, model: str | None = None, batch_size: int = 256, dimensions: int | None = None
    ) -> np.ndarray:
        """Embeddings of ``texts`` as a float32 array (len(texts), d): cached per text, the missing ones sent
        in batches of ``batch_size`` through the client's limits and retries. A batch that fails for good
        raises :class:`JudgeError` once the other batches are done (and cached)."""
        items = list(texts)
        for i, t in enumerate(items):
            if not isinstance(t, str):
                raise TypeError(f"texts[{i}]: expected str, got {type(t).__name__}")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        model = model or self.embedding_model
        keys = [cache_key({"kind": "embedding", "model": model, "dimensions": dimensions, "input": t}) for t in items]
        found = self.cache.get_vectors(list(dict.fromkeys(keys))) if self.cache is not None else {}
        todo = list({k: t for k, t in zip(keys, items, strict=True) if k not in found}.items())
        run = _Run(None, self.prices)

        async def batch(part: list[tuple[str, str]]) -> None:
            acct = _Acct()
            body: dict[str, Any] = {"model": model, "input": [t for _, t in part], "encoding_format": "base64"}
            if dimensions is not None:
                body["dimensions"] = dimensions
            try:
                data = await self._post(
                    "embeddings", body, (_prompt_tokens([{"content": t} for _, t in part]), 0), model, acct, run
                )
                vectors = _decode_embeddings(data, len(part))
            except _Failed as f:
                raise JudgeError(f.cause, self._scrub(f.message), acct.calls) from None
            finally:
                self._usage = self._usage + acct.usage(model, self.prices)
            fresh = list(zip((k for k, _ in part), vectors, strict=True))
            found.update(fresh)
            if self.cache is not None:
                self.cache.put_vectors(model, fresh)

        parts = [todo[i : i + batch_size] for i in range(0, len(todo), batch_size)]
        outcomes = await asyncio.gather(*(batch(p) for p in parts), return_exceptions=True)
        for o in outcomes:
            if isinstance(o, BaseException):
                raise o
        if not items:
            return np.empty((0, 0), dtype=np.float32)
        dims = {found[k].shape[0] for k in keys}
        if len(dims) != 1:
            raise JudgeError("invalid_response", f"embeddings of different sizes {sorted(dims)}", 0)
        return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)

    def embed(
        self, texts: Iterable[str], *, model: str | None = None, batch_size: int = 256, dimensions: int | None = None
    ) -> np.ndarray:
        """Sync :meth:`aembed`."""
        items = list(texts)
        return self._sync(
            "embed", lambda: self.aembed(items, model=model, batch_size=batch_size, dimensions=dimensions)
        )


def _decode_embeddings(data: dict[str, Any], expected: int) -> list[np.ndarray]:
    rows = data.get("data")
    if not isinstance(rows, list) or len(rows) != expected:
        raise _Failed(
            "invalid_response", f"expected {expected} embeddings, got {len(rows) if isinstance(rows, list) else 0}"
        )
    out = []
    try:
        for row in sorted(rows, key=lambda r: r.get("index", 0)):
            emb = row["embedding"]
            if isinstance(emb, str):  # base64 of little-endian float32, as OpenAI sends it
                out.append(np.frombuffer(base64.b64decode(emb), dtype="<f4").astype(np.float32))
            else:  # servers that ignore encoding_format send floats
                out.append(np.asarray(emb, dtype=np.float32))
    except (KeyError, TypeError, ValueError, AttributeError):
        raise _Failed("invalid_response", "malformed embeddings in the response") from None
    return out
