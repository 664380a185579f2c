"""What a judge call returns: a value with its usage, or a typed failure; never a NaN standing in for a score.

A run returns one record per request, in request order, plus the usage summed per metric and per row.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Literal

if TYPE_CHECKING:
    from .limiter import RateState

__all__ = ["Cause", "DryRun", "Estimate", "JudgeFailure", "JudgeResult", "JudgeRun", "Usage"]

Cause = Literal[
    "timeout",  # the request timed out on every attempt
    "connection",  # the endpoint could not be reached on every attempt
    "endpoint_down",  # the client's circuit breaker is open: the endpoint failed many calls in a row
    "rate_limit",  # 429 on every attempt
    "server_error",  # 5xx on every attempt, or once for a permanent one (501, 505)
    "auth",  # 401 / 403
    "bad_request",  # any other 4xx: the request itself is wrong, retrying cannot help
    "invalid_response",  # the HTTP body is not a chat completion (malformed JSON, no choices)
    "invalid_output",  # the reply did not validate against the schema, even after the repair re-ask
    "truncated",  # finish_reason "length", even with the larger max_tokens
    "content_filter",  # the endpoint filtered the reply
    "budget",  # the run's budget was spent before this request
    "error",  # an unexpected exception (a bug): recorded so the run goes on, logged with its traceback
]


@dataclass(frozen=True)
class Usage:
    """Resources spent: HTTP calls (retries and re-asks included), tokens as reported by the endpoint,
    seconds spent in HTTP requests, retries of transient errors, cache hits, and cost in US dollars
    (``None`` when a call went to a model without a known price). Cost is priced by the model the endpoint
    reports in its response. ``estimated`` is true when some token figures are the runtime's estimates from
    the text, not the endpoint's report: no ``usage`` in the response, or ``n > 1`` on llama.cpp, which
    reports the tokens of one choice only."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    retries: int = 0
    cache_hits: int = 0
    cost_usd: float | None = 0.0
    estimated: bool = False

    def __add__(self, other: Usage) -> Usage:
        cost = None if self.cost_usd is None or other.cost_usd is None else self.cost_usd + other.cost_usd
        return Usage(
            self.calls + other.calls,
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.latency_s + other.latency_s,
            self.retries + other.retries,
            self.cache_hits + other.cache_hits,
            cost,
            self.estimated or other.estimated,
        )

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class JudgeResult:
    """A judged request.

    ``value`` is the combined verdict: for ``votes > 1`` the majority label (bool / str field) or the mean or
    median (numeric field) of ``field`` over the votes, computed by the Rust vote kernel; for one vote the
    field's value, or the whole validated model when no field is named, or the reply text without a schema.
    ``verdicts`` holds every vote's validated model (or text). ``agreement`` is the share of votes that went
    to the majority label (``None`` for numeric combinations and single votes). ``votes_failed`` counts the
    votes that gave no valid output (they are left out of the combination). ``model`` is the model the
    endpoint reported in its response (the requested name where it reports none) and ``endpoint`` the base
    URL it was sent to (no credentials): together they say which judge produced the verdicts.
    """

    row: Hashable
    metric: str
    value: Any
    verdicts: tuple[Any, ...]
    agreement: float | None = None
    votes_failed: int = 0
    usage: Usage = field(default_factory=Usage)
    cached: bool = False
    model: str | None = None
    endpoint: str | None = None
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class JudgeFailure:
    """A request that produced no value: why (``cause``), after how many HTTP attempts, and the last error
    message (API keys scrubbed). It has no ``value`` on purpose: a failure is not a score."""

    row: Hashable
    metric: str
    cause: Cause
    attempts: int
    message: str = ""
    usage: Usage = field(default_factory=Usage)
    ok: ClassVar[bool] = False


def _sum(usages: Iterable[Usage]) -> Usage:
    total = Usage()
    for u in usages:
        total = total + u
    return total


@dataclass(frozen=True)
class JudgeRun:
    """The records of a run in request order, and where it stopped if a budget ended it early."""

    results: tuple[JudgeResult | JudgeFailure, ...]
    stopped: str | None = None
    """``None`` when every request was attempted; else which budget limit was reached and at which row."""
    rates: Mapping[str, RateState] = field(default_factory=dict)
    """Per model, the rate the client sent at when the run ended and where it came from (the endpoint's
    headers, probing, the given limits): see :class:`~rapideval.llm.limiter.RateState`."""

    def __len__(self) -> int:
        return len(self.results)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.results)

    def __getitem__(self, i: int) -> JudgeResult | JudgeFailure:
        return self.results[i]

    @property
    def usage(self) -> Usage:
        return _sum(r.usage for r in self.results)

    @property
    def failures(self) -> list[JudgeFailure]:
        return [r for r in self.results if isinstance(r, JudgeFailure)]

    def by_metric(self) -> dict[str, Usage]:
        return _group(self.results, lambda r: r.metric)

    def by_row(self) -> dict[Hashable, Usage]:
        return _group(self.results, lambda r: r.row)

    def values(self, metric: str) -> list[Any]:
        """The values of one metric in request order; a failed request gives its ``JudgeFailure``."""
        return [r.value if isinstance(r, JudgeResult) else r for r in self.results if r.metric == metric]


def _group(results: Sequence[JudgeResult | JudgeFailure], key: Any) -> dict[Any, Usage]:
    out: dict[Any, Usage] = {}
    for r in results:
        k = key(r)
        out[k] = out.get(k, Usage()) + r.usage
    return out


@dataclass(frozen=True)
class Estimate:
    """A dry run's forecast for one metric. ``completion_tokens`` is the expected length of the replies,
    from the output schema (a score is a few tokens, a free-text reason about a hundred), bounded by
    ``max_tokens`` per vote; ``cost_usd`` prices it (``None`` for a model without a known price)."""

    requests: int = 0
    calls: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0


@dataclass(frozen=True)
class DryRun:
    """Every rendered prompt, and the calls, tokens and cost a run would spend, per metric, without calling.

    Tokens are estimated as characters / 4 plus 4 per message (OpenAI's rule of thumb); requests already in
    the cache cost nothing and are counted in ``cached``."""

    prompts: tuple[tuple[Hashable, str, tuple[Mapping[str, Any], ...]], ...]
    by_metric: Mapping[str, Estimate]

    @property
    def total(self) -> Estimate:
        cost: float | None = 0.0
        sums = [0, 0, 0, 0, 0]
        for e in self.by_metric.values():
            for i, v in enumerate((e.requests, e.calls, e.cached, e.prompt_tokens, e.completion_tokens)):
                sums[i] += v
            cost = None if cost is None or e.cost_usd is None else cost + e.cost_usd
        return Estimate(sums[0], sums[1], sums[2], sums[3], sums[4], cost)
