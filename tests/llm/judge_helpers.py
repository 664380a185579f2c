"""Shared constants and schemas of the judge runtime tests."""

from __future__ import annotations

import random
import threading

from judge_server import Recorded, Reply, schema_answer, sentences_answer
from pydantic import BaseModel, Field
from rapideval.llm import Limits, RetryPolicy

__all__ = [
    "FAST_RETRY",
    "NO_LIMITS",
    "SECRET",
    "Rating",
    "Verdict",
    "faults",
    "schema_answer",
    "sentences_answer",
]

SECRET = "sk-test-SECRET-9f8e7d6c5b4a"
FAST_RETRY = RetryPolicy(max_attempts=4, base_delay=0.005, max_delay=0.02, max_retry_after=0.5)
NO_LIMITS = Limits(rpm=None, tpm=None, concurrency=16, timeout=2.0)


class Rating(BaseModel):
    score: int = Field(ge=1, le=5)


class Verdict(BaseModel):
    reason: str
    passed: bool


def faults(seed: int):
    """A server script failing requests at random: 20 % 429 (Retry-After 5 ms), 5 % 503, and 5 % of chat
    requests answered with a malformed reply; the others are answered normally."""
    rng, lock = random.Random(seed), threading.Lock()

    def script(rec: Recorded) -> Reply | None:
        with lock:
            x = rng.random()
        if x < 0.20:
            return Reply(status=429, headers={"retry-after-ms": "5"})
        if x < 0.25:
            return Reply(status=503)
        if x < 0.30 and rec.path.endswith("/chat/completions"):
            return Reply(contents=['{"reason": "unfinished'])
        return None

    return script
