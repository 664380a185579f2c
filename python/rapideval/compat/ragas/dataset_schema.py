"""Ragas 0.4.3 ``SingleTurnSample``, ``MultiTurnSample`` and ``EvaluationDataset`` (``from_list``,
``from_pandas``, ``from_jsonl``, ``to_pandas``): the fields of a row, by Ragas's names."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from ..._inputs import read_jsonl
from .messages import AIMessage, HumanMessage, ToolCall, ToolMessage

__all__ = ["EvaluationDataset", "MultiTurnSample", "SingleTurnSample"]


@dataclass
class SingleTurnSample:
    """Ragas 0.4.3 ``SingleTurnSample``: every field optional; types are checked when a metric reads them."""

    user_input: str | None = None
    retrieved_contexts: list[str] | None = None
    reference_contexts: list[str] | None = None
    retrieved_context_ids: list[str] | None = None
    reference_context_ids: list[str] | None = None
    response: str | None = None
    multi_responses: list[str] | None = None
    reference: str | None = None
    rubrics: dict[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


Turn = HumanMessage | AIMessage | ToolMessage


@dataclass
class MultiTurnSample:
    """Ragas 0.4.3 ``MultiTurnSample``: ``user_input`` is the conversation, a list of ``HumanMessage``,
    ``AIMessage`` and ``ToolMessage``."""

    user_input: list[Turn]
    reference: str | None = None
    reference_tool_calls: list[ToolCall] | None = None
    rubrics: dict[str, str] | None = None
    reference_topics: list[str] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.user_input, list):
            kind = type(self.user_input).__name__
            raise TypeError(f"MultiTurnSample: user_input must be a list of messages, got {kind}")
        self.user_input = [_turn(m, f"user_input[{i}]") for i, m in enumerate(self.user_input)]

    def to_dict(self) -> dict[str, Any]:
        """The fields as :mod:`rapideval.judged` reads them: the conversation as role/content messages."""
        out: dict[str, Any] = {"user_input": [m.as_message() for m in self.user_input]}
        for key in ("reference", "rubrics", "reference_topics"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.reference_tool_calls is not None:
            out["reference_tool_calls"] = [c.model_dump() for c in self.reference_tool_calls]
        return out

    def pretty_repr(self) -> str:
        return "\n".join(m.pretty_repr() for m in self.user_input)


_ROLES: Mapping[str, type[HumanMessage | AIMessage | ToolMessage]] = {
    "human": HumanMessage, "user": HumanMessage, "ai": AIMessage, "assistant": AIMessage, "tool": ToolMessage,
}  # fmt: skip


def _turn(message: Any, where: str) -> Turn:
    """A message object as it is, or a dict (Ragas's ``{"type": "human", ...}`` or ``{"role": "user", ...}``)."""
    if isinstance(message, (HumanMessage, AIMessage, ToolMessage)):
        return message
    kind = _ROLES.get(str(message.get("type") or message.get("role"))) if isinstance(message, Mapping) else None
    if kind is None:
        expected = "a HumanMessage, AIMessage, ToolMessage or a dict with a type"
        raise TypeError(f"{where}: expected {expected}, got {message!r:.80}")
    return kind(**{k: v for k, v in message.items() if k not in ("type", "role")})


_NAMES = frozenset(f.name for f in fields(SingleTurnSample))
_MULTI_NAMES = frozenset(f.name for f in fields(MultiTurnSample))
Sample = SingleTurnSample | MultiTurnSample


class EvaluationDataset:
    """Ragas 0.4.3 ``EvaluationDataset``: a list of :class:`SingleTurnSample` or of :class:`MultiTurnSample`
    (one kind per dataset, as in Ragas)."""

    def __init__(self, samples: Sequence[Sample]) -> None:
        for i, s in enumerate(samples):
            if not isinstance(s, (SingleTurnSample, MultiTurnSample)):
                kind = type(s).__name__
                raise TypeError(f"samples[{i}]: expected a SingleTurnSample or MultiTurnSample, got {kind}")
            if type(s) is not type(samples[0]):
                first = type(samples[0]).__name__
                raise TypeError(f"samples[{i}]: a dataset holds one kind of sample; samples[0] is a {first}")
        self.samples = list(samples)

    def is_multi_turn(self) -> bool:
        return bool(self.samples) and isinstance(self.samples[0], MultiTurnSample)

    @classmethod
    def from_list(cls, data: Sequence[Mapping[str, Any]]) -> EvaluationDataset:
        """Rows as dicts of Ragas's field names; other keys (``user_query``, ids) are dropped, as Ragas does.
        A row whose ``user_input`` is a list of messages is a :class:`MultiTurnSample`."""
        out: list[Sample] = []
        for i, row in enumerate(data):
            if not isinstance(row, Mapping):
                raise TypeError(f"row {i}: expected a dict, got {type(row).__name__}")
            if isinstance(row.get("user_input"), list):
                out.append(MultiTurnSample(**{k: v for k, v in row.items() if k in _MULTI_NAMES}))
            else:
                out.append(SingleTurnSample(**{k: v for k, v in row.items() if k in _NAMES}))
        return cls(out)

    @classmethod
    def from_pandas(cls, frame: Any) -> EvaluationDataset:
        return cls.from_list(frame.to_dict(orient="records"))

    @classmethod
    def from_jsonl(cls, path: str | os.PathLike[str]) -> EvaluationDataset:
        return cls.from_list(read_jsonl(path))

    def to_pandas(self) -> Any:
        import pandas as pd  # type: ignore[import-untyped, unused-ignore]

        return pd.DataFrame([s.to_dict() for s in self.samples])

    def __len__(self) -> int:
        return len(self.samples)

    def __iter__(self) -> Iterator[Sample]:
        return iter(self.samples)

    def __getitem__(self, i: int) -> Sample:
        return self.samples[i]
