"""Shared constants and schemas of the judge runtime tests."""

from __future__ import annotations

import json

from pydantic import BaseModel, Field
from rapideval.llm import Limits, RetryPolicy

SECRET = "sk-test-SECRET-9f8e7d6c5b4a"
FAST_RETRY = RetryPolicy(max_attempts=4, base_delay=0.005, max_delay=0.02, max_retry_after=0.5)
NO_LIMITS = Limits(rpm=None, tpm=None, concurrency=16, timeout=2.0)


class Rating(BaseModel):
    score: int = Field(ge=1, le=5)


class Verdict(BaseModel):
    reason: str
    passed: bool


def schema_answer(body, choice: int) -> str:
    """A valid reply for the request's JSON schema (the judged metrics' verdicts): the last allowed value of
    each enum, a sentence for strings, ``minItems`` distinct strings for arrays, 3 for other fields."""
    schema = body["response_format"]["json_schema"]["schema"]
    out: dict[str, object] = {}
    for key, spec in schema["properties"].items():
        if "enum" in spec:
            out[key] = spec["enum"][-1]
        elif spec.get("type") == "string":
            out[key] = "Because it says so."
        elif spec.get("type") == "array":
            out[key] = [f"item {i + 1}" for i in range(spec.get("minItems", 1))]
        else:
            out[key] = 3
    return json.dumps(out)
