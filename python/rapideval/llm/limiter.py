"""Adaptive rate control: how fast and how many requests at once the judge sends to one endpoint and model.

No fixed default fits every endpoint (OpenAI's tiers span 500 to 30,000 requests per minute, a local llama.cpp
server has no rate limit but a few slots), so :class:`RateControl` finds the limit:

* **Headers first.** Where the endpoint states its limits (``x-ratelimit-limit-requests`` / ``-tokens``,
  ``x-ratelimit-remaining-*`` and ``x-ratelimit-reset-*``, as OpenAI and Azure OpenAI send them), requests
  are paced at :data:`HEADER_SHARE` of the stated rate, and a ``remaining`` of 0 pauses every task until its
  reset.
* **Probing elsewhere.** Without headers nothing is paced until the endpoint answers 429; then the rate is
  cut to half of what was answered over the last seconds (multiplicative decrease, once per cohort of
  requests in flight) and raised again by 5 % a second while answers come back (additive increase, on the
  rate's own scale). A cut needs more than 10 % of the latest answers to be 429s, and it is checked: if
  the requests sent after it still meet 429s at least half as often as before it, they were not about the
  rate (an overloaded endpoint refusing at random): the probed rate is dropped, and that share of 429s
  becomes the noise level that later cuts must exceed by 10 points.
* **Concurrency** starts at one request, so that the first answer's headers are known before a burst is
  sent; then it opens to the ceiling where the endpoint states its limits (the pace holds the requests), or
  to 8 requests growing by one per answer where it states none (TCP's slow start).

A user's :class:`~rapideval.llm.Limits` are ceilings: nothing learned goes above them. ``Limits(adaptive=False)``
sends at exactly the given limits and learns nothing. Every part is plain state over ``time.monotonic()``,
shared by the event loops and threads that use one client.
"""

from __future__ import annotations

import asyncio
import math
import re
import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .options import Limits

__all__ = ["HEADER_SHARE", "RateControl", "RateState", "StatedLimits", "stated_limits"]

HEADER_SHARE = 0.95
"""The share of an endpoint's stated rate that is used: the rest absorbs the clock skew and send jitter that
would otherwise draw 429s at the edge of its window."""
_MIN_RPS = 1 / 60  # one request a minute: the floor of a rate cut by 429s
_INCREASE = 0.05  # probing: the rate grows by this share of itself per second without a 429
_WINDOW_S = 5.0  # answers counted over this many seconds to measure the rate reached
_OUTCOMES = 50  # probing: the share of 429s is measured over this many latest answers
_MIN_OUTCOMES = 10  # probing: no cut on a share of fewer answers
_CHECK = 30  # a cut is checked after this many answers to requests sent after it
_FIRST_WINDOW = 8  # requests in flight after the first answer of an endpoint that states no limits
_LOOK_AGAIN_S = 0.05  # a call waiting for its pace looks again this often
_REQUEST_BURST_S = 0.1  # requests may bunch up over a tenth of a second (late event-loop wake-ups)
_TOKEN_BURST_S = 6.0  # tokens may burst up to six seconds' worth (one large request must fit)

Source = Literal["headers", "probed", "ceiling", "none"]


@dataclass(frozen=True)
class StatedLimits:
    """What one response's ``x-ratelimit-*`` headers say; None where a header is absent or unreadable."""

    rpm: float | None = None
    tpm: float | None = None
    remaining_requests: float | None = None
    remaining_tokens: float | None = None
    reset_requests_s: float | None = None
    reset_tokens_s: float | None = None

    @property
    def empty(self) -> bool:
        return self == _NOTHING


_NOTHING = StatedLimits()
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")
_UNIT_S = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


def _duration(text: str | None) -> float | None:
    """Seconds from OpenAI's reset format (``"20ms"``, ``"1.5s"``, ``"6m0s"``, ``"1h2m"``) or a plain number
    of seconds; None when unreadable."""
    if text is None:
        return None
    text = text.strip()
    seconds = _number(text)
    if seconds is not None:
        return seconds
    parts = _DURATION.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        return None
    return sum(float(n) * _UNIT_S[u] for n, u in parts)


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def stated_limits(headers: Mapping[str, str] | None) -> StatedLimits:
    """The limits in a response's headers (case-insensitive names, as httpx gives them)."""
    if not headers:
        return _NOTHING

    def get(name: str) -> str | None:
        return headers.get(f"x-ratelimit-{name}")

    rpm, tpm = _number(get("limit-requests")), _number(get("limit-tokens"))
    return StatedLimits(
        rpm if rpm else None,
        tpm if tpm else None,
        _number(get("remaining-requests")),
        _number(get("remaining-tokens")),
        _duration(get("reset-requests")),
        _duration(get("reset-tokens")),
    )


class _Pace:
    """Even spacing at a rate that may change (the generic cell rate algorithm): a request of ``amount``
    waits until the theoretical arrival time, less the burst, has come. No lock: every method runs to
    completion without awaiting, under the control's lock."""

    def __init__(self, per_second: float | None, burst_s: float) -> None:
        self.per_second = per_second
        self.burst_s = burst_s
        self._tat = 0.0  # theoretical arrival time of the next request (monotonic seconds)

    def wait(self, amount: float, now: float) -> float:
        """How long a request of ``amount`` must wait before it fits (0 when unpaced or now)."""
        if self.per_second is None:
            return 0.0
        start = max(self._tat, now)
        burst = max(self.burst_s, 1 / self.per_second)
        # It fits once its end is within the burst; one larger than the burst waits for an empty bucket and
        # leaves the excess as debt.
        wait = (start - now) - (burst - min(amount / self.per_second, burst))
        return wait if wait > 1e-6 else 0.0

    def take(self, amount: float, now: float) -> None:
        if self.per_second is not None:
            self._tat = max(self._tat, now) + amount / self.per_second

    def give_back(self, amount: float) -> None:
        """Return (or, negative, add) ``amount`` taken earlier: a call's real tokens are known after it."""
        if self.per_second is not None:
            self._tat -= amount / self.per_second


@dataclass(frozen=True)
class RateState:
    """Where the rate control of one model stands: requests and tokens per minute it sends at (None:
    unpaced), requests at once, where the rate came from (``"headers"`` the endpoint's stated limits,
    ``"probed"`` 429s, ``"ceiling"`` the user's :class:`~rapideval.llm.Limits`, ``"none"`` nothing limits
    it yet), and the 429s seen."""

    rpm: float | None
    tpm: float | None
    concurrency: int
    source: Source
    rate_limited: int

    def as_dict(self) -> dict[str, object]:
        return {
            "rpm": self.rpm,
            "tpm": self.tpm,
            "concurrency": self.concurrency,
            "source": self.source,
            "rate_limited": self.rate_limited,
        }


class RateControl:
    """The pace, the concurrency window and the pauses of one endpoint and model (see the module doc).

    ``admit(tokens)`` waits for a slot and returns once the request may go out; every admitted request ends
    with exactly one of ``answered`` / ``rate_limited`` / ``released`` (no answer: timeouts, connection errors).
    The request rate is the least of the user's ceiling, :data:`HEADER_SHARE` of the endpoint's stated
    limit, and the probed rate (set by the first 429, then raised while answers come back)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._lock = threading.Lock()
        self._adaptive = limits.adaptive
        self._ceiling_rps = limits.rpm * limits.share / 60 if limits.rpm else None
        self._ceiling_tps = limits.tpm * limits.share / 60 if limits.tpm else None
        self._stated_rps: float | None = None
        self._stated_tps: float | None = None
        self._probed_rps: float | None = None
        self._requests = _Pace(self._ceiling_rps, _REQUEST_BURST_S)
        self._tokens = _Pace(self._ceiling_tps, _TOKEN_BURST_S)
        self._window = 1 if self._adaptive else limits.concurrency
        self._slow_start = self._adaptive
        self._grow = 0  # answers since the window last grew (after slow start: one more per window's worth)
        self._in_flight = 0
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._granted: set[asyncio.Future[None]] = set()  # waiters handed a place, not yet woken
        self._not_before = 0.0  # monotonic time before which nothing is sent (a 429's Retry-After, remaining 0)
        self._answers: deque[float] = deque()  # monotonic times of recent answers (probing's measure)
        self._outcomes: deque[bool] = deque(maxlen=_OUTCOMES)  # latest answers: True for a 429
        self._noise = 0.0  # the share of 429s that cutting the rate did not lower
        self._check: list[float] | None = None  # a cut under check: [share before, 429s after, answers after]
        self._last_cut = float("-inf")
        self._last_raise = time.monotonic()
        self._rate_limited = 0

    # Admission ------------------------------------------------------------------------------------------

    async def admit(self, tokens: int) -> None:
        """Wait for a place in the window, then for the pauses and the pace of requests and tokens. A waiting
        call looks again at least every 50 ms: a refund of tokens, a new rate or a pause applies at once."""
        await self._enter_window()
        try:
            while True:
                with self._lock:
                    now = time.monotonic()
                    wait = max(self._not_before - now, self._requests.wait(1, now), self._tokens.wait(tokens, now))
                    if wait <= 0:
                        self._requests.take(1, now)
                        self._tokens.take(tokens, now)
                        return
                await asyncio.sleep(min(wait, _LOOK_AGAIN_S))
        except BaseException:
            self.released()
            raise

    async def _enter_window(self) -> None:
        with self._lock:
            if self._in_flight < self._window and not self._waiters:
                self._in_flight += 1
                return
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
        try:
            await waiter
        except BaseException:
            with self._lock:
                if waiter in self._granted:  # the place was handed over just as the call was cancelled
                    self._granted.discard(waiter)
                    self._in_flight -= 1
                    self._wake()
                elif waiter in self._waiters:
                    self._waiters.remove(waiter)
            raise
        with self._lock:
            self._granted.discard(waiter)

    def _wake(self) -> None:
        """Hand free places to the waiters, oldest first (called under the lock)."""
        while self._waiters and self._in_flight < self._window:
            waiter = self._waiters.popleft()
            loop = waiter.get_loop()
            if waiter.done() or loop.is_closed():
                continue
            self._in_flight += 1
            self._granted.add(waiter)
            loop.call_soon_threadsafe(_hand_over, waiter)

    # Outcomes -------------------------------------------------------------------------------------------

    def answered(self, headers: Mapping[str, str] | None, sent_at: float) -> None:
        """An HTTP answer other than 429 (any status) to a request sent at ``sent_at`` (monotonic): learn from
        its headers, grow the window and the rate."""
        stated = stated_limits(headers)
        with self._lock:
            now = time.monotonic()
            self._learn(stated, now)
            if self._adaptive:
                self._answers.append(now)
                while self._answers[0] < now - _WINDOW_S:
                    self._answers.popleft()
                self._observe(False, sent_at)
                self._grow_window()
                self._raise_rate(now)
            self._in_flight -= 1
            self._wake()

    def rate_limited(self, headers: Mapping[str, str] | None, retry_after: float | None, sent_at: float) -> None:
        """A 429 to a request sent at ``sent_at``: pause every task for ``retry_after`` (or the headers' reset
        when nothing remains), and cut the probed rate."""
        stated = stated_limits(headers)
        with self._lock:
            now = time.monotonic()
            self._rate_limited += 1
            self._learn(stated, now)
            pause = retry_after
            if pause is None and stated.remaining_requests == 0:
                pause = stated.reset_requests_s
            if pause is not None:
                self._not_before = max(self._not_before, now + pause)
            if self._adaptive:
                self._slow_start = False
                self._observe(True, sent_at)
                share = sum(self._outcomes) / len(self._outcomes)
                if len(self._outcomes) >= _MIN_OUTCOMES and share > self._noise + 0.1:
                    self._cut_rate(now)
            self._in_flight -= 1
            self._wake()

    def released(self) -> None:
        """A call that ended without an HTTP answer that says anything about the rate."""
        with self._lock:
            self._in_flight -= 1
            self._wake()

    def settle_tokens(self, delta: float) -> None:
        """Add the difference between a call's real tokens and its estimate to the token pace."""
        with self._lock:
            self._tokens.give_back(-delta)

    # Learning -------------------------------------------------------------------------------------------

    def _learn(self, stated: StatedLimits, now: float) -> None:
        if stated.empty or not self._adaptive:
            return
        if stated.rpm is not None:
            self._stated_rps = HEADER_SHARE * self.limits.share * stated.rpm / 60
        if stated.tpm is not None:
            self._stated_tps = HEADER_SHARE * self.limits.share * stated.tpm / 60
        self._requests.per_second = _least(self._ceiling_rps, self._stated_rps, self._probed_rps)
        self._tokens.per_second = _least(self._ceiling_tps, self._stated_tps)
        if stated.remaining_requests == 0 and stated.reset_requests_s:
            self._not_before = max(self._not_before, now + stated.reset_requests_s)
        if stated.remaining_tokens == 0 and stated.reset_tokens_s:
            self._not_before = max(self._not_before, now + stated.reset_tokens_s)

    def _grow_window(self) -> None:
        if self._window >= self.limits.concurrency:
            return
        if self._slow_start and self._window == 1:
            # The first answer: where the endpoint states its rate, the pace holds the requests to it and the
            # window opens at once; else slow start goes on from a few requests.
            stated = self._stated_rps is not None or self._stated_tps is not None
            self._window = self.limits.concurrency if stated else min(self.limits.concurrency, _FIRST_WINDOW)
            return
        if self._slow_start:
            self._window += 1  # one more per answer: the window doubles every round trip
            return
        self._grow += 1
        if self._grow >= self._window:
            self._grow = 0
            self._window += 1

    def _observe(self, limited: bool, sent_at: float) -> None:
        """Count one answer, and check the cut under check once enough requests sent after it answered."""
        self._outcomes.append(limited)
        check = self._check
        if check is None or sent_at < self._last_cut:
            return
        check[1] += limited
        check[2] += 1
        if check[2] < _CHECK:
            return
        self._check = None
        after = check[1] / check[2]
        if after >= check[0] / 2:  # the cut did not halve the 429s: they are noise
            self._noise = max(self._noise, after)
            self._probed_rps = None  # nor were the cuts before it: unpaced until 429s pass the noise
            self._requests.per_second = _least(self._ceiling_rps, self._stated_rps, self._probed_rps)

    def _cut_rate(self, now: float) -> None:
        # One cut per cohort: the 429s of requests sent before the last cut say nothing new.
        current = self._requests.per_second
        if now - self._last_cut < max(1.0, 1 / (current or 1.0)) or self._check is not None:
            return
        self._last_cut = self._last_raise = now
        self._check = [sum(self._outcomes) / len(self._outcomes), 0, 0]
        if current is None:  # unpaced so far: start from half the rate answered over the last seconds
            span = max(now - self._answers[0], 0.5) if self._answers else 0.5
            current = max(len(self._answers), 1) / span
        self._probed_rps = max(_MIN_RPS, current / 2)
        self._requests.per_second = _least(self._ceiling_rps, self._stated_rps, self._probed_rps)

    def _raise_rate(self, now: float) -> None:
        elapsed, self._last_raise = now - self._last_raise, now
        if self._probed_rps is None:
            return
        self._probed_rps *= 1 + _INCREASE * elapsed
        limit = _least(self._ceiling_rps, self._stated_rps)
        if limit is not None and self._probed_rps >= limit:
            self._probed_rps = None  # back at the stated or given limit: nothing probed binds any more
        self._requests.per_second = _least(self._ceiling_rps, self._stated_rps, self._probed_rps)

    # Reporting ------------------------------------------------------------------------------------------

    def state(self) -> RateState:
        """Where the control stands now (see :class:`RateState`)."""
        with self._lock:
            rps, tps = self._requests.per_second, self._tokens.per_second
            source: Source = "none"
            if rps is not None and rps == self._probed_rps:
                source = "probed"
            elif (rps is not None and rps == self._stated_rps) or (tps is not None and tps == self._stated_tps):
                source = "headers"
            elif rps is not None or tps is not None:
                source = "ceiling"
            return RateState(
                None if rps is None else rps * 60,
                None if tps is None else tps * 60,
                self._window,
                source,
                self._rate_limited,
            )


def _least(*rates: float | None) -> float | None:
    given = [r for r in rates if r is not None]
    return min(given) if given else None


def _hand_over(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)
