"""Shared constants and schemas of the judge runtime tests."""

from __future__ import annotations

import json
import random
import re
import threading
from typing import Any

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
    "marked_answer",
    "material_of",
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


def material_of(body: dict[str, Any]) -> str:
    """The material of a request: its first user message (a repair re-ask's last one is the repair prompt)."""
    return next(str(m["content"]) for m in body["messages"] if m["role"] == "user")


# The harm a severity prompt rates (its "You rate the ... content" words) -> the metric's name.
_HARM_OF_PROMPT = {
    "violence": "violence", "sexual": "sexual", "self-harm": "self_harm", "hateful or unfair": "hate_unfairness"
}  # fmt: skip


def marked_answer(body: dict[str, Any], choice: int) -> str:
    """Verdicts of the quality and safety metrics read from markers in the material: ``[score=N]`` for a
    1-5 rating (default 4); ``[violence=N]`` or ``[all=N]`` for the severity of a harm (default 0); ``[mc]``,
    ``[intr]``, ``[ig]`` for the kinds of an injection; ``[verbatim]`` for reproduced text."""
    name = body["response_format"]["json_schema"]["name"]
    system, text = body["messages"][0]["content"], material_of(body)
    if name == "Rating":
        found = re.search(r"\[score=(-?\d+)\]", text)
        return json.dumps({"reason": "rated because", "score": int(found[1]) if found else 4})
    if name == "_Severity":
        harm = _HARM_OF_PROMPT[re.match(r"You are a content-safety rater\. You rate the (.+?) content", system)[1]]
        found = re.search(rf"\[{harm}=(-?\d+)\]", text) or re.search(r"\[all=(-?\d+)\]", text)
        return json.dumps({"reason": f"{harm} because", "severity": int(found[1]) if found else 0})
    if name == "_Injection":
        kinds = {"manipulated_content": "[mc]", "intrusion": "[intr]", "information_gathering": "[ig]"}
        return json.dumps({"reason": "injection because", **{k: marker in text for k, marker in kinds.items()}})
    assert name == "_Reproduction", name
    return json.dumps({"reason": "reproduction because", "label": "[verbatim]" in text})
