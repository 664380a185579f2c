"""Prices of OpenAI models in US dollars per million tokens (input, output), from openai.com/api/pricing
(standard tier, as of 2025-06). Pass ``prices=`` to :class:`~rapideval.llm.JudgeClient` to add models or
override these (your Azure contract, a local model at 0).

A dated snapshot (``gpt-4o-mini-2024-07-18``) takes the price of its longest listed prefix. A model
without a price gets ``cost_usd=None``: an unknown cost is not reported as free.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["PRICES", "cost_usd", "price_of"]

PRICES: Mapping[str, tuple[float, float]] = MappingProxyType(
    {
        "gpt-4o-mini": (0.15, 0.60),
        "gpt-4o": (2.50, 10.00),
        "gpt-4.1": (2.00, 8.00),
        "gpt-4.1-mini": (0.40, 1.60),
        "gpt-4.1-nano": (0.10, 0.40),
        "o3": (2.00, 8.00),
        "o3-mini": (1.10, 4.40),
        "o4-mini": (1.10, 4.40),
        "text-embedding-3-small": (0.02, 0.0),
        "text-embedding-3-large": (0.13, 0.0),
        "text-embedding-ada-002": (0.10, 0.0),
    }
)


def price_of(model: str, table: Mapping[str, tuple[float, float]]) -> tuple[float, float] | None:
    """The (input, output) price per million tokens of ``model``: an exact entry, else the longest entry
    that ``model`` extends with a ``-`` suffix."""
    if model in table:
        return table[model]
    best = max((k for k in table if model.startswith(k + "-")), key=len, default=None)
    return None if best is None else table[best]


def cost_usd(
    model: str, prompt_tokens: int, completion_tokens: int, table: Mapping[str, tuple[float, float]]
) -> float | None:
    if prompt_tokens == 0 and completion_tokens == 0:
        return 0.0
    price = price_of(model, table)
    if price is None:
        return None
    return (prompt_tokens * price[0] + completion_tokens * price[1]) / 1e6
