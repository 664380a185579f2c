"""Ragas 0.4.3 ``ragas.dataset_schema``: ``BaseSample``, ``SingleTurnSample``, ``MultiTurnSample`` and
``EvaluationDataset``, with Ragas's fields, defaults and methods. The samples are pydantic models, as
Ragas's are: a field of the wrong type, or a conversation Ragas rejects, raises pydantic's
``ValidationError`` (a ``ValueError``), and keywords that are not fields are ignored."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from pydantic import BaseModel, ValidationError, field_validator

from ..._inputs import read_jsonl
from .messages import AIMessage, HumanMessage, ToolCall, ToolMessage

__all__ = [
    "AIMessage",
    "BaseSample",
    "EvaluationDataset",
    "HumanMessage",
    "MultiTurnSample",
    "SampleTypeError",
    "SingleTurnSample",
    "ToolCall",
    "ToolMessage",
]


class BaseSample(BaseModel):
    """Ragas 0.4.3 ``BaseSample``: a pydantic model whose ``to_dict()`` leaves out the fields that are None."""

    def to_dict(self) -> dict[str, Any]:
        """The fields that are not None (nested models as dicts)."""
        return self.model_dump(exclude_none=True, warnings=False)

    def get_features(self) -> list[str]:
        """The names of the fields that are not None."""
        return list(self.to_dict())

    def to_string(self) -> str:
        return "".join(f"\n{key}:\n\t{value}\n" for key, value in self.to_dict().items())

    def _fields(self) -> dict[str, Any]:
        """The row as :mod:`rapideval.judged` reads it (the fields that are not None, as they are)."""
        return {name: getattr(self, name) for name in type(self).model_fields if getattr(self, name) is not None}


# Fields of a SingleTurnSample that describe how a test set generated the row; no metric reads them.
_GENERATION_FIELDS = frozenset({"persona_name", "query_style", "query_length"})


class SingleTurnSample(BaseSample):
    """Ragas 0.4.3 ``SingleTurnSample``: every field optional."""

    user_input: str | None = None
    retrieved_contexts: list[str] | None = None
    reference_contexts: list[str] | None = None
    retrieved_context_ids: list[str | int] | None = None
    reference_context_ids: list[str | int] | None = None
    response: str | None = None
    multi_responses: list[str] | None = None
    reference: str | None = None
    rubrics: dict[str, str] | None = None
    persona_name: str | None = None
    query_style: str | None = None
    query_length: str | None = None

    def _fields(self) -> dict[str, Any]:
        return {k: v for k, v in super()._fields().items() if k not in _GENERATION_FIELDS}


Turn = HumanMessage | AIMessage | ToolMessage

_ROLES: Mapping[str, str] = {"user": "human", "assistant": "ai", "tool": "tool", "human": "human", "ai": "ai"}


class MultiTurnSample(BaseSample):
    """Ragas 0.4.3 ``MultiTurnSample``: ``user_input`` is the conversation, a list of ``HumanMessage``,
    ``AIMessage`` and ``ToolMessage`` (or their dicts: ``{"type": "human", "content": ...}``, a dict without a
    type being a human message, as in Ragas; rapideval also reads ``{"role": "user" | "assistant" | "tool"}``).
    As in Ragas, a ``ToolMessage`` must follow an ``AIMessage`` with ``tool_calls`` or another ``ToolMessage``."""

    user_input: list[Turn]
    reference: str | None = None
    reference_tool_calls: list[ToolCall] | None = None
    rubrics: dict[str, str] | None = None
    reference_topics: list[str] | None = None

    @field_validator("user_input", mode="before")
    @classmethod
    def _roles(cls, messages: Any) -> Any:
        """A dict with a ``role`` and no ``type`` gets the type of that role."""
        if not isinstance(messages, (list, tuple)):
            return messages
        out = []
        for m in messages:
            if isinstance(m, Mapping) and "type" not in m and m.get("role") in _ROLES:
                m = {**{k: v for k, v in m.items() if k != "role"}, "type": _ROLES[m["role"]]}
            out.append(m)
        return out

    @field_validator("user_input")
    @classmethod
    def _tool_messages_follow_tool_calls(cls, messages: list[Turn]) -> list[Turn]:
        called = False
        for i, m in enumerate(messages):
            if isinstance(m, AIMessage):
                called = True
            elif isinstance(m, ToolMessage):
                before = messages[i - 1] if i else None
                if not called:
                    raise ValueError(f"user_input[{i}]: a ToolMessage must come after an AIMessage that called tools")
                if isinstance(before, AIMessage) and not before.tool_calls:
                    raise ValueError(f"user_input[{i}]: a ToolMessage must follow an AIMessage with tool_calls")
                if not isinstance(before, (AIMessage, ToolMessage)):
                    raise ValueError(f"user_input[{i}]: a ToolMessage must follow an AIMessage or a ToolMessage")
        return messages

    def to_messages(self) -> list[dict[str, Any]]:
        """Ragas's ``to_messages()``: each message as a dict."""
        return [m.model_dump() for m in self.user_input]

    def pretty_repr(self) -> str:
        return "\n".join(m.pretty_repr() for m in self.user_input)

    def _fields(self) -> dict[str, Any]:
        """The conversation as role/content messages, the tool calls as dicts."""
        out = super()._fields()
        out["user_input"] = [_as_message(m) for m in self.user_input]
        if self.reference_tool_calls is not None:
            out["reference_tool_calls"] = [_as_dict(c) for c in self.reference_tool_calls]
        return out


def _as_message(message: Any) -> Any:
    # A sample built by ``model_construct`` (evaluate's rows that do not validate) may hold anything: the
    # metric's check names what is wrong.
    return message.as_message() if isinstance(message, (HumanMessage, AIMessage, ToolMessage)) else message


def _as_dict(call: Any) -> Any:
    return call.model_dump() if isinstance(call, ToolCall) else call


Sample = SingleTurnSample | MultiTurnSample


class SampleTypeError(TypeError, ValueError):
    """A dataset's samples are not all of one kind (Ragas raises ValueError; it is a TypeError too)."""


@dataclass
class EvaluationDataset:
    """Ragas 0.4.3 ``EvaluationDataset(samples, backend=None, name=None)``: a list of
    :class:`SingleTurnSample` or of :class:`MultiTurnSample` (one kind per dataset, as in Ragas)."""

    samples: list[Sample]
    backend: str | None = None
    name: str | None = None

    def __post_init__(self) -> None:
        samples = list(self.samples)
        for i, s in enumerate(samples):
            if not isinstance(s, (SingleTurnSample, MultiTurnSample)):
                raise SampleTypeError(f"samples[{i}]: expected a SingleTurnSample or MultiTurnSample, got {type(s)}")
            if type(s) is not type(samples[0]):
                raise SampleTypeError(
                    f"Sample at index {i} is of type {type(s)}, expected {type(samples[0])}: a dataset holds one "
                    f"kind of sample"
                )
        self.samples = samples

    # Ragas's methods -----------------------------------------------------------------------------------

    def get_sample_type(self) -> type[Sample]:
        """The class of the samples (IndexError for an empty dataset, as in Ragas)."""
        return type(self.samples[0])

    def is_multi_turn(self) -> bool:
        return bool(self.samples) and isinstance(self.samples[0], MultiTurnSample)

    def features(self) -> list[str]:
        """The fields of the first sample that are not None."""
        return self.samples[0].get_features()

    def to_list(self) -> list[dict[str, Any]]:
        """Each sample's ``to_dict()``."""
        return [s.to_dict() for s in self.samples]

    @classmethod
    def from_list(
        cls, data: Sequence[Mapping[str, Any]], backend: str | None = None, name: str | None = None
    ) -> EvaluationDataset:
        """Rows as dicts of Ragas's field names; keys that are not fields (``user_query``, ids) are ignored, as
        in Ragas. When every row has a ``user_input`` and the first row's is a list (a conversation), the rows
        are :class:`MultiTurnSample`\\ s, else :class:`SingleTurnSample`\\ s, as in Ragas."""
        kind = _kind(data)
        return cls([kind(**row) for row in data], backend=backend, name=name)

    @classmethod
    def from_dict(cls, mapping: Sequence[Mapping[str, Any]]) -> EvaluationDataset:
        """Ragas's ``from_dict``, which takes a list of dicts as :meth:`from_list` does."""
        return cls.from_list(mapping)

    @classmethod
    def from_pandas(cls, dataframe: Any) -> EvaluationDataset:
        return cls.from_list(dataframe.to_dict(orient="records"))

    def to_pandas(self) -> Any:
        import pandas as pd  # type: ignore[import-untyped, unused-ignore]

        return pd.DataFrame(self.to_list())

    @classmethod
    def from_hf_dataset(cls, dataset: Any) -> EvaluationDataset:
        """From a Hugging Face ``datasets.Dataset`` (its ``to_list()``)."""
        return cls.from_list(dataset.to_list())

    def to_hf_dataset(self) -> Any:
        """A Hugging Face ``datasets.Dataset`` of :meth:`to_list` (needs ``datasets``)."""
        try:
            from datasets import Dataset
        except ImportError:  # pragma: no cover - datasets comes with ragas's test dependencies
            raise ImportError("to_hf_dataset needs the datasets package: pip install datasets") from None
        return Dataset.from_list(self.to_list())

    @classmethod
    def from_jsonl(cls, path: str | os.PathLike[str]) -> EvaluationDataset:
        return cls.from_list(read_jsonl(path))

    def to_jsonl(self, path: str | os.PathLike[str]) -> None:
        """One JSON object per sample (:meth:`to_list`), UTF-8."""
        with open(path, "w", encoding="utf8") as f:
            for row in self.to_list():
                f.write(json.dumps(row, ensure_ascii=False) + "\n")

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """A CSV file of :meth:`to_list` with a header row (lists and dicts written as Python writes them); an
        empty dataset writes nothing, as in Ragas."""
        rows = self.to_list()
        if not rows:
            return
        columns = list(dict.fromkeys(key for row in rows for key in row))
        with open(path, "w", newline="", encoding="utf8") as f:
            writer = csv.DictWriter(f, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rows)

    # The sequence ------------------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.samples)

    def __iter__(self) -> Iterator[Sample]:
        return iter(self.samples)

    @overload
    def __getitem__(self, i: int) -> Sample: ...

    @overload
    def __getitem__(self, i: slice) -> EvaluationDataset: ...

    def __getitem__(self, i: int | slice) -> Sample | EvaluationDataset:
        if isinstance(i, slice):
            return type(self)(self.samples[i])
        if isinstance(i, int):
            return self.samples[i]
        raise TypeError(f"EvaluationDataset indices must be int or slice, got {type(i).__name__}")

    def __repr__(self) -> str:
        features = self.features() if self.samples else []
        return f"EvaluationDataset(features={features}, len={len(self.samples)})"

    __str__ = __repr__


def _kind(data: Sequence[Mapping[str, Any]]) -> type[Sample]:
    for i, row in enumerate(data):
        if not isinstance(row, Mapping):
            raise TypeError(f"row {i}: expected a dict, got {type(row).__name__}")
    multi = bool(data) and all("user_input" in row for row in data) and isinstance(data[0]["user_input"], list)
    return MultiTurnSample if multi else SingleTurnSample


def lenient_dataset(rows: Sequence[Mapping[str, Any]]) -> EvaluationDataset:
    """:meth:`EvaluationDataset.from_list` where a row that does not validate is kept as it is (unvalidated), so
    that ``evaluate`` scores it as an ``invalid_input`` error instead of stopping the run."""
    kind = _kind(rows)
    samples: list[Sample] = []
    for row in rows:
        try:
            samples.append(kind(**row))
        except ValidationError:
            samples.append(kind.model_construct(**{k: v for k, v in row.items() if k in kind.model_fields}))
    return EvaluationDataset(samples)
