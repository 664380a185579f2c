"""What the judge runtime knows about HTTP answers: an endpoint's identity, which errors are worth a retry,
how long a 429 asks to wait, how long to back off, and an error's message with its causes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import openai

from .guards import Failed
from .options import RetryPolicy
from .results import Cause

__all__ = ["backoff", "choices_of", "classify", "describe", "endpoint_of", "retry_after"]

# 5xx answers that say the server cannot do this request at all: retrying cannot help.
PERMANENT_5XX = frozenset({501, 505, 506, 510, 511})


def endpoint_of(base_url: str) -> str:
    """The endpoint's identity for cache keys and results: the base URL without credentials, query or
    trailing slash."""
    parts = urlsplit(base_url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def describe(e: BaseException) -> str:
    """An error's message with its underlying causes: openai says only "Connection error." and keeps the
    reason (refused, reset, DNS) in the exception chain."""
    parts = [str(e) or type(e).__name__]
    seen = {id(e)}
    inner = e.__cause__ or e.__context__
    while inner is not None and id(inner) not in seen and len(parts) < 4:
        seen.add(id(inner))
        text = f"{type(inner).__name__}: {inner}" if str(inner) else type(inner).__name__
        if text not in parts[-1]:
            parts.append(text)
        inner = inner.__cause__ or inner.__context__
    return " <- ".join(parts)


def classify(e: openai.OpenAIError) -> tuple[Cause, bool]:
    """The failure cause of an openai error, and whether it is transient (worth a retry)."""
    if isinstance(e, openai.APITimeoutError):
        return "timeout", True
    if isinstance(e, openai.APIConnectionError):
        return "connection", True
    if isinstance(e, openai.APIStatusError):
        status = e.status_code
        if status == 429:
            return "rate_limit", True
        if status == 408:
            return "timeout", True
        if status >= 500:
            return "server_error", status not in PERMANENT_5XX
        if status in (401, 403):
            return "auth", False
        return "bad_request", False
    return "invalid_response", False


def retry_after(e: openai.OpenAIError) -> float | None:
    """Seconds from ``retry-after-ms`` (OpenAI, Azure) or ``retry-after`` (seconds or an HTTP date)."""
    response = getattr(e, "response", None)
    if response is None:
        return None
    headers = response.headers
    try:
        if "retry-after-ms" in headers:
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        value = headers.get("retry-after")
        if value is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, OverflowError):
        return None


def backoff(policy: RetryPolicy, attempt: int) -> float:
    """The wait after failed attempt ``attempt`` (1-based): full jitter under an exponential cap."""
    return random.uniform(0, min(policy.max_delay, policy.base_delay * 2 ** (attempt - 1)))


def choices_of(data: Mapping[str, Any]) -> list[tuple[str | None, str | None]]:
    """The ``(content, finish_reason)`` of each choice of a chat completion, in choice order; :class:`Failed`
    (``invalid_response``) where it has none or they are malformed."""
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        raise Failed("invalid_response", "the chat completion has no choices")
    try:
        ordered = sorted(choices, key=lambda c: c.get("index", 0))
        return [((c.get("message") or {}).get("content"), c.get("finish_reason")) for c in ordered]
    except (AttributeError, TypeError):
        raise Failed("invalid_response", "the chat completion's choices are malformed") from None
