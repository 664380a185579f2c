"""Shared constants and schemas of the judge runtime tests."""

from __future__ import annotations

from judge_server import schema_answer, sentences_answer
from pydantic import BaseModel, Field
from rapideval.llm import Limits, RetryPolicy

__all__ = ["FAST_RETRY", "NO_LIMITS", "SECRET", "Rating", "Verdict", "schema_answer", "sentences_answer"]

SECRET = "sk-test-SECRET-9f8e7d6c5b4a"
FAST_RETRY = RetryPolicy(max_attempts=4, base_delay=0.005, max_delay=0.02, max_retry_after=0.5)
NO_LIMITS = Limits(rpm=None, tpm=None, concurrency=16, timeout=2.0)


class Rating(BaseModel):
    score: int = Field(ge=1, le=5)


class Verdict(BaseModel):
    reason: str
    passed: bool
