"""The judge runtime's HTTP layer: one request to the endpoint within its rate control and the run's budget,
retried where an error may pass, given up when the circuit breaker opens, and accounted from its answer;
and what it knows about HTTP answers (which errors are worth a retry, how long a 429 asks to wait, an
error's message with its causes, the endpoint's identity, a chat completion's choices).

Everything bound to an event loop (the openai client's connection pool, the breaker's wake-up future) is
created per loop and closed with it, so the sync wrappers may run one ``asyncio.run`` after another, in any
thread; the rate control of each model is shared by every loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import threading
import time
import weakref
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import openai

from .accounting import Account, tokens_of
from .guards import EndpointHealth, Failed, Hold, RunBudget
from .limiter import RateControl, RateState
from .options import CircuitBreaker, Limits, RetryPolicy
from .pricing import cost_usd
from .results import Cause

__all__ = [
    "Call",
    "LoopState",
    "Secret",
    "Transport",
    "backoff",
    "choices_of",
    "classify",
    "describe",
    "endpoint_of",
    "retry_after",
]

log = logging.getLogger("rapideval.llm")

# 5xx answers that say the server cannot do this request at all: retrying cannot help.
PERMANENT_5XX = frozenset({501, 505, 506, 510, 511})


def endpoint_of(base_url: str) -> str:
    """The endpoint's identity for cache keys and results: the base URL without credentials, query or
    trailing slash."""
    parts = urlsplit(base_url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def describe(e: BaseException) -> str:
    """An error's message with its underlying causes: openai says only "Connection error." and keeps the
    reason (refused, reset, DNS) in the exception chain."""
    parts = [str(e) or type(e).__name__]
    seen = {id(e)}
    inner = e.__cause__ or e.__context__
    while inner is not None and id(inner) not in seen and len(parts) < 4:
        seen.add(id(inner))
        text = f"{type(inner).__name__}: {inner}" if str(inner) else type(inner).__name__
        if text not in parts[-1]:
            parts.append(text)
        inner = inner.__cause__ or inner.__context__
    return " <- ".join(parts)


def classify(e: openai.OpenAIError) -> tuple[Cause, bool]:
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
            return "server_error", status not in PERMANENT_5XX
        if status in (401, 403):
            return "auth", False
        return "bad_request", False
    return "invalid_response", False


def retry_after(e: openai.OpenAIError) -> float | None:
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


def backoff(policy: RetryPolicy, attempt: int) -> float:
    """The wait after failed attempt ``attempt`` (1-based): full jitter under an exponential cap."""
    return random.uniform(0, min(policy.max_delay, policy.base_delay * 2 ** (attempt - 1)))


def choices_of(data: Mapping[str, Any]) -> list[tuple[str | None, str | None]]:
    """The ``(content, finish_reason)`` of each choice of a chat completion, in choice order; :class:`Failed`
    (``invalid_response``) where it has none or they are malformed."""
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        raise Failed("invalid_response", "the chat completion has no choices")
    try:
        ordered = sorted(choices, key=lambda c: c.get("index", 0))
        return [((c.get("message") or {}).get("content"), c.get("finish_reason")) for c in ordered]
    except (AttributeError, TypeError):
        raise Failed("invalid_response", "the chat completion's choices are malformed") from None


class Secret(str):
    """A credential that prints as stars."""

    def __repr__(self) -> str:
        return "'***'"


class LoopState:
    """What one event loop owns: the openai client (its connection pool) and the locks of format discovery.
    The rate control is the transport's, shared by every loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, oai: openai.AsyncOpenAI) -> None:
        self.loop = loop
        self.oai = oai
        self._format_locks: dict[str, asyncio.Lock] = {}
        self.closer: AsyncGenerator[None, None] | None = None  # closes the connections with the loop
        self.closing: asyncio.Future[None] | None = None  # the closer's first step, kept from collection
        self.tripped: asyncio.Future[None] = loop.create_future()
        """Done when the circuit breaker opens; every call in flight waits on it beside its HTTP request."""

    def trip(self) -> None:
        """The breaker opened: wake the calls in flight, and give later calls (a probe) a fresh future."""
        self.tripped.set_result(None)
        self.tripped = self.loop.create_future()

    def format_lock(self, model: str) -> asyncio.Lock:
        """Held by the first structured request of a model while its response_format is found out."""
        return self._format_locks.setdefault(model, asyncio.Lock())


@dataclass(frozen=True, slots=True)
class Call:
    """One HTTP request: its kind (``chat`` or ``embeddings``), body, the (prompt, completion) tokens expected
    (for the rate limiter), their worst case (for the budget), and the fewest completion tokens it may be
    sent with near a budget's cap (the reply's expected length)."""

    kind: str
    body: dict[str, Any]
    estimate: tuple[int, int]
    bound: tuple[int, int]
    floor: int = 0


class Transport:
    """HTTP to one endpoint: the openai client of each event loop (its connection pool, closed with that
    loop), retries with backoff, the circuit breaker, each model's rate control, and the accounting of each
    answer (tokens, cost, the budget). ``factory`` builds an openai client per event loop (``owns_oai``:
    closed here when its loop ends)."""

    def __init__(
        self,
        factory: Callable[[], openai.AsyncOpenAI],
        owns_oai: bool,
        limits: Limits,
        retry: RetryPolicy,
        breaker: CircuitBreaker,
        prices: Mapping[str, tuple[float, float]],
    ) -> None:
        self.factory, self.owns_oai = factory, owns_oai
        self.limits, self.retry, self.prices = limits, retry, prices
        self.health = EndpointHealth(breaker)
        # Built now to learn the endpoint; without credentials the openai client refuses, and that error is
        # raised by the first call that needs the network, so a dry run works without a key.
        self.spare: openai.AsyncOpenAI | None = None
        with contextlib.suppress(openai.OpenAIError):
            self.spare = factory()
        self.secret = Secret(self.spare.api_key) if self.spare is not None and self.spare.api_key else None
        # One state per event loop: a sync score() inside a running loop judges on a private loop in a
        # worker thread, while the outer loop keeps its own connections.
        self._states: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopState] = weakref.WeakKeyDictionary()
        self._states_lock = threading.Lock()
        self._rates: dict[str, RateControl] = {}  # per model: the pace, window and pauses (see limiter)
        self._unpriced: set[str] = set()

    def rate_limits(self) -> dict[str, RateState]:
        """Per model, the rate sent at now and where it came from (see :class:`RateState`)."""
        with self._states_lock:
            rates = dict(self._rates)
        return {model: rate.state() for model, rate in rates.items()}

    def loop_state(self) -> LoopState:
        loop = asyncio.get_running_loop()
        with self._states_lock:
            state = self._states.get(loop)
            if state is None:
                oai, self.spare = (self.spare or self.factory()), None
                state = self._states[loop] = LoopState(loop, oai)
                # An async generator of the loop is closed by asyncio.run (shutdown_asyncgens) before the loop
                # closes: its finally closes these connections there, so none is left to be closed later on
                # a closed loop (openai's client would schedule that on whatever loop runs when it is freed,
                # printing "Event loop is closed" tracebacks).
                state.closer = self._close_with_loop()
                state.closing = asyncio.ensure_future(state.closer.__anext__())
        return state

    async def _close_with_loop(self) -> AsyncGenerator[None, None]:
        try:
            yield
        finally:
            await self.close_loop()

    async def close_loop(self) -> None:
        with self._states_lock:
            state = self._states.pop(asyncio.get_running_loop(), None)
        if state is not None and self.owns_oai:
            await state.oai.close()

    def scrub(self, text: str) -> str:
        return text.replace(self.secret, "***") if self.secret else text

    def rate(self, model: str) -> RateControl:
        with self._states_lock:
            rate = self._rates.get(model)
            if rate is None:
                rate = self._rates[model] = RateControl(self.limits)
        return rate

    async def post(
        self, call: Call, acct: Account, run: RunBudget, tries: tuple[int, int] | None = None
    ) -> dict[str, Any]:
        """Send one request (retrying transient errors) and return the decoded JSON body. ``tries`` is the
        (first, last) attempt number, default (1, the retry policy's max_attempts)."""
        state = self.loop_state()
        first, limit = tries or (1, self.retry.max_attempts)
        attempt = first - 1
        if attempt > 0:  # earlier attempts were made elsewhere: back off as a retry would
            acct.retries += 1
            await asyncio.sleep(backoff(self.retry, attempt))
        while True:
            attempt += 1
            probe = await self.health.admit()
            try:
                raw, hold = await self._send(state, call, acct, run)
            except openai.OpenAIError as e:
                cause, transient = classify(e)
                if isinstance(e, openai.APIConnectionError):  # timeouts included: nothing answered
                    message = self.scrub(describe(e))
                    if self.health.unreachable(message, probe, acct.sent_at):
                        state.trip()
                    if self.health.is_open and self.health.policy.on_open == "fail":
                        raise self.health.down() from None
                else:
                    message = self.scrub(str(e))
                    self.health.answered(probe)
                if not transient or attempt >= limit:
                    raise Failed(cause, message, getattr(e, "status_code", None), transient) from None
                # A 429's Retry-After pauses every call of the model (the rate control holds them).
                delay = backoff(self.retry, attempt)
                acct.retries += 1
                log.debug("%s (%s), attempt %d: retrying in %.3f s", cause, message, attempt, delay)
                await asyncio.sleep(delay)
                continue
            except BaseException:
                if probe:  # cancelled or stopped by the budget before an answer: another call may probe
                    self.health.probing = False
                raise
            self.health.answered(probe)
            return self._read(call, raw.content, hold, acct, run)

    async def _unless_tripped(self, state: LoopState, call: Awaitable[Any]) -> Any:
        """Await an HTTP call, or give it up with cause ``endpoint_down`` if the breaker opens meanwhile (under
        the ``"fail"`` policy): a run against an endpoint that died must not wait out every call in flight."""
        if self.health.policy.on_open != "fail":
            return await call
        task = asyncio.ensure_future(call)
        try:
            await asyncio.wait((task, state.tripped), return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not task.done():
                task.cancel()
        if task.done() and not task.cancelled():
            return task.result()
        raise self.health.down()

    async def _send(self, state: LoopState, call: Call, acct: Account, run: RunBudget) -> tuple[Any, Hold | None]:
        """One HTTP attempt within the budget and the model's rate control (window, pace, pauses); on failure
        its hold and its share of the token pace are given back before the error propagates, and the rate
        control learns from the answer (headers, 429) or the timeout."""
        rate = self.rate(call.body["model"])
        hold = await run.reserve(call.body["model"], *call.bound, call.floor)
        body = call.body
        if hold is not None and hold.completion < call.bound[1]:  # near the cap: what is left
            key = "max_completion_tokens" if "max_completion_tokens" in body else "max_tokens"
            body = {**body, key: max(1, hold.completion // body.get("n", 1))}
        tokens = sum(call.estimate)
        try:
            await rate.admit(tokens)
        except BaseException:
            run.settle(hold, 0, 0.0)
            raise
        try:
            start = time.perf_counter()
            acct.sent_at = time.monotonic()
            try:
                if call.kind == "chat":
                    request = state.oai.chat.completions.with_raw_response.create(**body)
                else:
                    request = state.oai.embeddings.with_raw_response.create(**body)
                raw = await self._unless_tripped(state, request)
            finally:
                acct.calls += 1
                acct.latency += time.perf_counter() - start
        except BaseException as e:
            run.settle(hold, 0, 0.0)
            rate.settle_tokens(-tokens)
            if isinstance(e, openai.APIStatusError) and e.status_code == 429:
                wait = retry_after(e)
                if wait is not None:
                    wait = min(wait, self.retry.max_retry_after)
                rate.rate_limited(e.response.headers, wait, acct.sent_at)
            elif isinstance(e, openai.APIStatusError):
                rate.answered(e.response.headers, acct.sent_at)
            else:
                rate.released()
            raise
        rate.answered(raw.headers, acct.sent_at)
        return raw, hold

    def _read(self, call: Call, content: bytes, hold: Hold | None, acct: Account, run: RunBudget) -> dict[str, Any]:
        """Decode a response body and account for it: tokens (reported, or estimated where the report cannot
        be right), the reported model, the budget and the token pace."""
        try:
            data = json.loads(content)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            run.settle(hold, 0, 0.0)
            raise Failed("invalid_response", f"the {call.kind} response body is not a JSON object")
        reported = data.get("model")
        if isinstance(reported, str) and reported:
            acct.model = reported
        prompt, completion, estimated = tokens_of(data, call.estimate[0])
        acct.prompt += prompt
        acct.completion += completion
        acct.estimated = acct.estimated or estimated
        cost = cost_usd(acct.model, prompt, completion, self.prices)
        if cost is None and acct.model not in self._unpriced:
            self._unpriced.add(acct.model)
            log.warning(
                "the endpoint reports model %r, which has no price: cost_usd is None for its calls "
                "(pass prices={%r: (input, output)} per million tokens)",
                acct.model,
                acct.model,
            )
        run.settle(hold, prompt + completion, cost)
        self.rate(call.body["model"]).settle_tokens(prompt + completion - sum(call.estimate))
        return data
