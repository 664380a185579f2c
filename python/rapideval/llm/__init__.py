"""LLM judge runtime: rate-limited, retrying, caching, resumable async judging on the official openai client.

    from pydantic import BaseModel, Field
    from rapideval.llm import JudgeClient, JudgeRequest

    class Rating(BaseModel):
        score: int = Field(ge=1, le=5)

    with JudgeClient() as judge:  # OPENAI_API_KEY, OPENAI_BASE_URL, RAPIDEVAL_JUDGE_MODEL
        run = judge.run([JudgeRequest(i, "coherence", msgs, Rating, "score") for i, msgs in enumerate(prompts)])
    run.results   # JudgeResult (value, usage, cached) or JudgeFailure (cause, attempts), in request order
    run.by_metric()  # calls, tokens, latency, retries, cache hits, cost

See :class:`JudgeClient` for the guarantees (retries, rate limits, circuit breaker, cache, budget, votes), and
:meth:`JudgeClient.local` for a judge that runs offline on a llama.cpp server it starts itself.
"""

from __future__ import annotations

from .cache import JudgeCache, default_cache_path
from .client import JudgeClient, JudgeError
from .options import BatchMode, Budget, CircuitBreaker, Limits, RetryPolicy, Sampling
from .pricing import PRICES
from .request import JudgeRequest
from .results import DryRun, Estimate, JudgeFailure, JudgeResult, JudgeRun, Usage

__all__ = [
    "PRICES",
    "BatchMode",
    "Budget",
    "CircuitBreaker",
    "DryRun",
    "Estimate",
    "JudgeCache",
    "JudgeClient",
    "JudgeError",
    "JudgeFailure",
    "JudgeRequest",
    "JudgeResult",
    "JudgeRun",
    "Limits",
    "RetryPolicy",
    "Sampling",
    "Usage",
    "default_cache_path",
]
