"""Immutable settings of the judge runtime: sampling parameters, rate limits, retry policy and budget.

Every value is a frozen dataclass. A request merges them into a fresh dict, so options given for one call
never change what a concurrent call sends (the ragas wrapper that leaked temperature 0.3 and n=3 into other
metrics' calls is the failure this rules out).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

__all__ = ["BatchMode", "Budget", "CircuitBreaker", "Limits", "RetryPolicy", "Sampling"]

_RESERVED = frozenset({"model", "messages", "n", "response_format", "stream", "input"})


def _positive(name: str, value: float | None, *, allow_none: bool = True) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive number, got {value!r}")


@dataclass(frozen=True)
class Sampling:
    """Sampling parameters of a chat request; ``None`` leaves a parameter to the endpoint's default, except
    ``max_tokens``: ``None`` (the default) sends the most tokens a reply valid under the request's schema can
    take, or 1,024 where the schema does not bound it; a number caps that.

    ``max_tokens_param`` names the field that carries ``max_tokens``: reasoning models (o-series, recent
    Azure deployments) reject ``max_tokens`` and take ``max_completion_tokens``. ``extra`` holds any other
    body field the endpoint understands (``reasoning_effort``, ``presence_penalty``, vLLM's ``top_k``, ...).
    """

    temperature: float | None = 0.0
    top_p: float | None = None
    max_tokens: int | None = None
    seed: int | None = None
    stop: tuple[str, ...] | None = None
    max_tokens_param: Literal["max_tokens", "max_completion_tokens"] = "max_tokens"
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if self.temperature is not None and not (
            isinstance(self.temperature, (int, float)) and 0 <= self.temperature <= 2
        ):
            raise ValueError(f"temperature must be in [0, 2], got {self.temperature!r}")
        if self.top_p is not None and not (isinstance(self.top_p, (int, float)) and 0 < self.top_p <= 1):
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p!r}")
        if self.max_tokens is not None and (not isinstance(self.max_tokens, int) or self.max_tokens < 1):
            raise ValueError(f"max_tokens must be a positive int, got {self.max_tokens!r}")
        if self.max_tokens_param not in ("max_tokens", "max_completion_tokens"):
            raise ValueError(
                f"max_tokens_param must be 'max_tokens' or 'max_completion_tokens', got {self.max_tokens_param!r}"
            )
        if isinstance(self.stop, str):
            object.__setattr__(self, "stop", (self.stop,))
        elif self.stop is not None:
            object.__setattr__(self, "stop", tuple(self.stop))
        clash = _RESERVED.intersection(self.extra)
        if clash:
            raise ValueError(f"Sampling.extra must not set {sorted(clash)}: the runtime owns those fields")
        object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))

    def params(self, max_tokens: int | None = None) -> dict[str, Any]:
        """A fresh dict of the standard request fields (``max_tokens`` overrides the configured one);
        ``extra`` travels separately, as the openai client's ``extra_body``."""
        out: dict[str, Any] = {}
        if self.temperature is not None:
            out["temperature"] = self.temperature
        if self.top_p is not None:
            out["top_p"] = self.top_p
        if self.seed is not None:
            out["seed"] = self.seed
        if self.stop is not None:
            out["stop"] = list(self.stop)
        limit = max_tokens if max_tokens is not None else self.max_tokens
        if limit is not None:
            out[self.max_tokens_param] = limit
        return out

    def replace(self, **changes: Any) -> Sampling:
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class Limits:
    """Client-wide limits: requests and tokens per minute (``None``: no ceiling), requests at once, and the
    timeout of one HTTP request in seconds.

    With ``adaptive=True`` (the default) the client finds each endpoint's real limits and stays under them
    (see :mod:`rapideval.llm.limiter`): it paces at the rates the endpoint states in its ``x-ratelimit-*``
    headers, probes where it states none (cut by half on a 429, raised while answers come back), and grows
    the requests in flight from one up to ``concurrency``; ``rpm``, ``tpm`` and ``concurrency`` are then
    ceilings that nothing learned passes. With ``adaptive=False`` it sends at exactly the given limits and
    learns nothing. ``share`` is this client's part of the endpoint's limits (``1 / n`` for each of ``n``
    processes on one key, as :func:`rapideval.ray.split_limits` sets it).
    """

    rpm: float | None = None
    tpm: float | None = None
    concurrency: int = 64
    timeout: float = 60.0
    adaptive: bool = True
    share: float = 1.0

    def __post_init__(self) -> None:
        _positive("rpm", self.rpm)
        _positive("tpm", self.tpm)
        _positive("timeout", self.timeout, allow_none=False)
        if not isinstance(self.concurrency, int) or isinstance(self.concurrency, bool) or self.concurrency < 1:
            raise ValueError(f"concurrency must be a positive int, got {self.concurrency!r}")
        if not isinstance(self.adaptive, bool):
            raise TypeError(f"adaptive must be a bool, got {type(self.adaptive).__name__}")
        _positive("share", self.share, allow_none=False)
        if self.share > 1:
            raise ValueError(f"share must be at most 1, got {self.share!r}")


@dataclass(frozen=True)
class RetryPolicy:
    """Retries of transient errors only (timeouts, connection errors, 429, 5xx).

    ``max_attempts`` counts the first try. The wait before retry ``i`` (1-based) is drawn uniformly from
    ``[0, min(max_delay, base_delay * 2**(i-1))]`` ("full jitter"), unless a 429 carries Retry-After: then
    every call of that model waits that long (capped at ``max_retry_after``).
    """

    max_attempts: int = 6
    base_delay: float = 0.5
    max_delay: float = 30.0
    max_retry_after: float = 60.0

    def __post_init__(self) -> None:
        if not isinstance(self.max_attempts, int) or isinstance(self.max_attempts, bool) or self.max_attempts < 1:
            raise ValueError(f"max_attempts must be a positive int, got {self.max_attempts!r}")
        _positive("base_delay", self.base_delay, allow_none=False)
        _positive("max_delay", self.max_delay, allow_none=False)
        _positive("max_retry_after", self.max_retry_after, allow_none=False)


@dataclass(frozen=True)
class CircuitBreaker:
    """Endpoint health: after ``failures`` consecutive connection errors or timeouts (across every call of
    the client), the endpoint counts as down and the breaker opens. A call that fails while the endpoint
    answers others (one hung request among many in flight) does not count.

    ``on_open="fail"``: every call, queued or retrying, fails at once with cause ``"endpoint_down"`` and the
    underlying error, so a run against a dead endpoint ends in seconds instead of retrying each row.
    ``on_open="wait"``: calls wait for the endpoint to come back, up to ``max_wait`` seconds each, then fail
    the same way. Either way, ``probe_after`` seconds after the breaker opened one call goes through as a
    probe (half-open); any HTTP answer to it closes the breaker, another connection error or timeout keeps it
    open for ``probe_after`` more. A new :meth:`~rapideval.llm.JudgeClient.run` starts with a probe.
    """

    failures: int = 5
    on_open: Literal["fail", "wait"] = "fail"
    probe_after: float = 10.0
    max_wait: float = 600.0

    def __post_init__(self) -> None:
        if not isinstance(self.failures, int) or isinstance(self.failures, bool) or self.failures < 1:
            raise ValueError(f"failures must be a positive int, got {self.failures!r}")
        if self.on_open not in ("fail", "wait"):
            raise ValueError(f"on_open must be 'fail' or 'wait', got {self.on_open!r}")
        _positive("probe_after", self.probe_after, allow_none=False)
        _positive("max_wait", self.max_wait, allow_none=False)


@dataclass(frozen=True)
class Budget:
    """A spending cap for one run: US dollars, tokens (prompt + completion) and/or HTTP calls.

    Each call reserves its worst case before it is sent (prompt tokens bounded by the prompt's UTF-8 bytes,
    completion tokens by the request's ``max_tokens`` per choice, which follows from the reply's schema where
    it bounds the reply) and settles the real figure after. A call that does not
    fit waits for the calls in flight to settle; once nothing is in flight and it still does not fit, the
    run stops and the rows left become failures with cause ``"budget"``. So a run spends up to the cap,
    whatever the concurrency, and never past it (as long as the endpoint's tokens are at most one per byte
    and it honours ``max_tokens``).
    """

    max_cost_usd: float | None = None
    max_tokens: int | None = None
    max_calls: int | None = None

    def __post_init__(self) -> None:
        _positive("max_cost_usd", self.max_cost_usd)
        _positive("max_tokens", self.max_tokens)
        _positive("max_calls", self.max_calls)


@dataclass(frozen=True)
class BatchMode:
    """Judging through the Batch API of OpenAI or Azure OpenAI (half the price, its own much larger limits,
    answers within ``completion_window``): each stage's requests are written as JSONL files of at most
    ``max_lines`` lines and ``max_bytes`` bytes (the API's limits: 50,000 and 200 MB), uploaded, submitted and
    polled every ``poll_interval`` seconds; the answers go through the same validation as online ones.

    A line that fails for a reason that may pass (429, 5xx, the batch expired or was cancelled) is sent
    again in the next batch, in at most ``rounds`` batches in all; after that it is sent online. A line
    whose answer needs a second try (invalid output: the repair re-ask; cut at ``max_tokens``: the larger
    retry) or more votes than it holds gets them online. A line refused for good (4xx) is a typed failure.
    ``discount`` is the share of the list price a batch line saves (both APIs: half).
    """

    poll_interval: float = 30.0
    max_lines: int = 50_000
    max_bytes: int = 200_000_000
    completion_window: str = "24h"
    rounds: int = 3
    discount: float = 0.5

    def __post_init__(self) -> None:
        _positive("poll_interval", self.poll_interval, allow_none=False)
        for name in ("max_lines", "max_bytes", "rounds"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        if not isinstance(self.discount, (int, float)) or not 0 <= self.discount < 1:
            raise ValueError(f"discount must be in [0, 1), got {self.discount!r}")
