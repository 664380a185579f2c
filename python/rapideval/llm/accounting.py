"""Accounting of judge requests: the tokens a request is expected to take (for the rate limiter), their upper
bound (for the budget), the ``max_tokens`` it is sent with, and what it really spent (as the endpoint
reports it, or estimated where the report cannot be right).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from .options import Sampling
from .pricing import cost_usd
from .results import Usage
from .structured import reply_token_bound, strict_schema

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "Account",
    "completion_guess",
    "max_tokens_of",
    "prompt_bound",
    "prompt_tokens",
    "tokens_of",
]

DEFAULT_MAX_TOKENS = 1024
"""The max_tokens of a request whose reply the schema does not bound, when Sampling leaves it unset."""


class Account:
    """Mutable usage of one request while it runs; ``model`` is the model the endpoint last reported."""

    __slots__ = ("calls", "completion", "estimated", "latency", "model", "prompt", "retries", "saved", "sent_at")

    def __init__(self, model: str) -> None:
        self.calls = self.prompt = self.completion = self.retries = 0
        self.latency = 0.0
        self.model = model
        self.estimated = False
        self.sent_at = 0.0  # monotonic time the last HTTP attempt went out
        self.saved = 0.0  # USD below the list price: the Batch API's discount on its lines

    def usage(self, prices: Mapping[str, tuple[float, float]]) -> Usage:
        cost = cost_usd(self.model, self.prompt, self.completion, prices)
        if cost is not None:
            cost -= self.saved
        return Usage(self.calls, self.prompt, self.completion, self.latency, self.retries, 0, cost, self.estimated)


def prompt_tokens(messages: Sequence[Mapping[str, Any]]) -> int:
    """OpenAI's rule of thumb: 4 characters a token, plus ~4 tokens of framing per message."""
    chars = 0
    for m in messages:
        content = m.get("content")
        chars += len(content) if isinstance(content, str) else len(json.dumps(content))
    return chars // 4 + 4 * len(messages)


def _count(value: Any) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else 0


def tokens_of(data: Mapping[str, Any], prompt_estimate: int) -> tuple[int, int, bool]:
    """(prompt, completion, estimated) tokens of a response: as reported, except where the report cannot be
    right. Without ``usage`` both are estimated from the text. With ``n > 1``, llama.cpp reports the tokens
    of one choice (its ``timings.predicted_n``): the others are estimated at that choice's tokens per
    character."""
    choices = data.get("choices")
    texts = []
    if isinstance(choices, list):
        for c in choices:
            message = c.get("message") if isinstance(c, dict) else None
            content = message.get("content") if isinstance(message, dict) else None
            texts.append(content if isinstance(content, str) else "")
    usage = data.get("usage")
    if not isinstance(usage, dict):
        return prompt_estimate, sum(len(t) // 4 + 1 for t in texts), True
    prompt, completion = _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens"))
    timings = data.get("timings")
    if len(texts) > 1 and isinstance(timings, dict) and timings.get("predicted_n") == completion:
        first = len(texts[0])
        others = sum(round(completion * len(t) / first) if first else len(t) // 4 + 1 for t in texts[1:])
        return prompt, completion + others, True
    return prompt, completion, False


def prompt_bound(messages: Sequence[Mapping[str, Any]], schema: type[BaseModel] | None) -> int:
    """An upper bound of a prompt's tokens for the budget: BPE tokens are at least a byte each, plus the chat
    template's tokens around each message, plus the schema where the endpoint may count it (OpenAI does)."""
    size = sum(len(json.dumps(m.get("content"), ensure_ascii=False).encode()) for m in messages)
    if schema is not None:
        size += len(json.dumps(strict_schema(schema)).encode())
    return size + 8 * len(messages) + 8


def completion_guess(schema: type[BaseModel] | None, limit: int) -> int:
    """The expected completion tokens of one reply: from the schema's fields (a number or a flag is a few
    tokens, free text about a hundred), bounded by ``limit``; without a schema, the limit."""
    if schema is None:
        return limit
    root = strict_schema(schema)
    return min(limit, _schema_tokens(root, root.get("$defs", {}), 0))


def _schema_tokens(node: Mapping[str, Any], defs: Mapping[str, Any], depth: int) -> int:
    if depth > 8:
        return 8
    if "$ref" in node:
        return _schema_tokens(defs.get(node["$ref"].rsplit("/", 1)[-1], {}), defs, depth + 1)
    for key in ("anyOf", "oneOf"):
        if key in node:
            return max(_schema_tokens(n, defs, depth + 1) for n in node[key])
    kind = node.get("type")
    if kind == "object":
        fields = node.get("properties", {})
        return 2 + sum(3 + _schema_tokens(v, defs, depth + 1) for v in fields.values())
    if kind == "array":
        return 2 + 5 * _schema_tokens(node.get("items", {}), defs, depth + 1)  # a guess of five items
    if kind == "string":
        choices = node.get("enum")
        return (2 + max(len(str(c)) for c in choices) // 3) if choices else 100
    return 3  # integer, number, boolean, null


def max_tokens_of(sampling: Sampling, schema: type[BaseModel] | None) -> int:
    """A request's max_tokens: the schema's bound on its reply (so a model that loops is stopped by the
    schema's end, not the token limit), capped by ``sampling.max_tokens``; else ``sampling.max_tokens``,
    else :data:`DEFAULT_MAX_TOKENS`."""
    bound = reply_token_bound(schema) if schema is not None else None
    cap = sampling.max_tokens
    if bound is None:
        return cap or DEFAULT_MAX_TOKENS
    return bound if cap is None else min(cap, bound)
