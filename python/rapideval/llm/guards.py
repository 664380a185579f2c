"""What stops calls before they are sent: the endpoint's circuit breaker and a run's budget.

Both are plain state checked by every HTTP attempt of the client, so one rule holds for chat calls, votes,
repair re-asks and embeddings alike:

* :class:`EndpointHealth` counts consecutive connection errors and timeouts across all calls of a client;
  once open, calls fail at once (or wait) instead of each one retrying a dead endpoint on its own. A call
  that fails while the endpoint answers other calls (one hung request among many) does not count: at high
  concurrency a few unlucky calls in a row must not stop a healthy run.
* :class:`RunBudget` holds each call's worst case while it is in flight and adds the real figure when it
  settles; a call that does not fit waits for the calls in flight. Once nothing is in flight (near the cap,
  calls go one at a time) a call that does not fit is sent with its ``max_tokens`` lowered to what is left,
  as long as that still holds the reply's expected length; the run stops only when even that does not fit.
  Spending therefore reaches the cap at any concurrency and never passes it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass

from .options import Budget, CircuitBreaker
from .pricing import cost_usd, price_of
from .results import Cause

__all__ = ["EndpointHealth", "Failed", "Hold", "RunBudget"]


class Failed(Exception):
    """A request failed for good; the client turns it into a :class:`~rapideval.llm.JudgeFailure`."""

    def __init__(self, cause: Cause, message: str, status: int | None = None, transient: bool = False) -> None:
        super().__init__(message)
        self.cause = cause
        self.message = message
        self.status = status
        self.transient = transient  # a retry might have succeeded (the attempts ran out)


class EndpointHealth:
    """The circuit breaker of one endpoint (see :class:`~rapideval.llm.CircuitBreaker` for the policy)."""

    def __init__(self, policy: CircuitBreaker) -> None:
        self.policy = policy
        self.consecutive = 0
        self.opened_at: float | None = None  # monotonic time the breaker opened; None while closed
        self.probing = False
        self.last_error = ""
        self.last_answer = float("-inf")  # monotonic time of the latest answer

    @property
    def is_open(self) -> bool:
        return self.opened_at is not None

    def down(self) -> Failed:
        return Failed(
            "endpoint_down",
            f"the endpoint failed {self.consecutive} calls in a row (connection errors or timeouts); "
            f"last error: {self.last_error}",
        )

    async def admit(self) -> bool:
        """Return when a call may be sent: True if it is the half-open probe. Raises :class:`Failed` with
        cause ``endpoint_down`` when the breaker is open and the policy is to fail (or the wait ran out)."""
        started = time.monotonic()
        while self.opened_at is not None:
            now = time.monotonic()
            if not self.probing and now >= self.opened_at + self.policy.probe_after:
                self.probing = True
                return True
            if self.policy.on_open == "fail" or now - started >= self.policy.max_wait:
                raise self.down()
            next_probe = self.opened_at + self.policy.probe_after - now
            await asyncio.sleep(max(0.01, min(0.25, next_probe, self.policy.max_wait - (now - started))))
        return False

    def answered(self, probe: bool) -> None:
        """The endpoint answered (any HTTP status): it is up."""
        self.last_answer = time.monotonic()
        self.consecutive = 0
        self.opened_at = None
        if probe:
            self.probing = False

    def unreachable(self, message: str, probe: bool, sent_at: float) -> bool:
        """A connection error or a timeout of a call sent at ``sent_at`` (monotonic). True when this opened
        the breaker: the calls still in flight may then be given up."""
        if probe:
            self.probing = False
        elif self.last_answer > sent_at:
            return False  # the endpoint answered others meanwhile: this call was unlucky, the endpoint is up
        self.consecutive += 1
        self.last_error = message
        if not probe and self.consecutive < self.policy.failures:
            return False
        opened = self.opened_at is None
        self.opened_at = time.monotonic()
        return opened

    def rearm(self) -> None:
        """A new run: an open breaker lets its next call through as a probe straight away."""
        if self.opened_at is not None and not self.probing:
            self.opened_at = time.monotonic() - self.policy.probe_after


@dataclass(frozen=True)
class Hold:
    """The worst case of one call in flight: tokens and dollars held against the budget, and the completion
    tokens the call may take (its ``max_tokens`` over all choices, lowered near the cap)."""

    tokens: int
    cost: float
    completion: int


class RunBudget:
    """Budget bookkeeping of one run. Without a budget every method is a no-op."""

    def __init__(self, budget: Budget | None, prices: Mapping[str, tuple[float, float]]) -> None:
        self.budget = budget
        self.prices = prices
        self.calls = self.tokens = 0
        self.cost = 0.0
        self.held_calls = self.held_tokens = 0
        self.held_cost = 0.0
        self.exhausted: str | None = None
        self._settled = asyncio.Event()

    def _over(self, b: Budget, tokens: int, cost: float) -> str | None:
        """Which limit of ``b`` the call would pass if it were sent now, or None."""
        if b.max_calls is not None and self.calls + self.held_calls + 1 > b.max_calls:
            return f"max_calls={b.max_calls} reached: {self.calls} calls made"
        if b.max_tokens is not None and self.tokens + self.held_tokens + tokens > b.max_tokens:
            return (
                f"max_tokens={b.max_tokens} reached: {self.tokens} tokens spent, {self.held_tokens} reserved in "
                f"flight, the next call needs up to {tokens}"
            )
        if b.max_cost_usd is not None and self.cost + self.held_cost + cost > b.max_cost_usd:
            return (
                f"max_cost_usd={b.max_cost_usd} reached: ${self.cost:.6f} spent, ${self.held_cost:.6f} reserved "
                f"in flight, the next call needs up to ${cost:.6f}"
            )
        return None

    async def reserve(self, model: str, prompt_bound: int, completion_bound: int, completion_floor: int) -> Hold | None:
        """Hold a call's worst case, waiting for calls in flight to settle while it does not fit. With nothing in
        flight, a call that does not fit is held with fewer completion tokens (down to ``completion_floor``,
        the reply's expected length): the caller sends it with that ``max_tokens``."""
        b = self.budget
        if b is None:
            return None
        completion = completion_bound
        while True:
            if self.exhausted is not None:
                raise Failed("budget", self.exhausted)
            cost = self._cost(model, prompt_bound, completion)
            over = self._over(b, prompt_bound + completion, cost)
            if over is None:
                return self._hold(prompt_bound + completion, cost, completion)
            if self.held_calls == 0:
                fitting = self._completion_that_fits(b, model, prompt_bound)
                if completion_floor <= fitting < completion:
                    completion = fitting
                    continue
                self.exhausted = over  # nothing in flight can free room: the budget is spent
                raise Failed("budget", over)
            await self._settled.wait()

    def hold_now(self, model: str, prompt_bound: int, completion_bound: int) -> Hold | None:
        """Hold a call's worst case if it fits now, else raise :class:`Failed` (``budget``) without waiting or
        ending the run: a batch line, whose holds settle only when its whole batch ends."""
        b = self.budget
        if b is None:
            return None
        cost = self._cost(model, prompt_bound, completion_bound)
        over = self.exhausted or self._over(b, prompt_bound + completion_bound, cost)
        if over is not None:
            raise Failed("budget", over)
        return self._hold(prompt_bound + completion_bound, cost, completion_bound)

    def _hold(self, tokens: int, cost: float, completion: int) -> Hold:
        self.held_calls += 1
        self.held_tokens += tokens
        self.held_cost += cost
        return Hold(tokens, cost, completion)

    def _cost(self, model: str, prompt: int, completion: int) -> float:
        if self.budget is None or self.budget.max_cost_usd is None:
            return 0.0
        return cost_usd(model, prompt, completion, self.prices) or 0.0

    def _completion_that_fits(self, b: Budget, model: str, prompt: int) -> int:
        """The most completion tokens a call with ``prompt`` tokens may take within what is left (-1: none)."""
        if b.max_calls is not None and self.calls + 1 > b.max_calls:
            return -1
        fitting = float("inf")
        if b.max_tokens is not None:
            fitting = b.max_tokens - self.tokens - prompt
        price = price_of(model, self.prices) if b.max_cost_usd is not None else None
        if price is not None:
            room = (b.max_cost_usd - self.cost) * 1e6 - prompt * price[0]  # type: ignore[operator]
            fitting = min(fitting, room / price[1] if price[1] > 0 else float("inf"))
        return -1 if fitting == float("inf") or fitting < 1 else int(fitting) - 1  # a token spare for rounding

    def settle(self, hold: Hold | None, tokens: int, cost: float | None) -> None:
        """Release a hold and add what the call really spent: every attempt counts as a call (a failed one
        with 0 tokens); ``cost=None`` (a reported model without a price) counts the held worst case."""
        if hold is None:
            return
        self.held_calls -= 1
        self.held_tokens -= hold.tokens
        # Float sums of holds do not return to exactly 0: clear the residue when nothing is in flight.
        self.held_cost = self.held_cost - hold.cost if self.held_calls else 0.0
        self.calls += 1
        self.tokens += tokens
        self.cost += hold.cost if cost is None else cost
        # Wake every waiting call to check again; later waiters wait on a fresh event.
        self._settled.set()
        self._settled = asyncio.Event()
