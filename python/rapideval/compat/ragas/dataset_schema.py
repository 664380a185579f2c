"""Ragas 0.4.3 ``SingleTurnSample`` and ``EvaluationDataset`` (``from_list``, ``from_pandas``,
``from_jsonl``, ``to_pandas``): the fields of a row, by Ragas's names."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from ..._inputs import read_jsonl

__all__ = ["EvaluationDataset", "SingleTurnSample"]


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


_NAMES = frozenset(f.name for f in fields(SingleTurnSample))


class EvaluationDataset:
    """Ragas 0.4.3 ``EvaluationDataset``: a list of :class:`SingleTurnSample`."""

    def __init__(self, samples: Sequence[SingleTurnSample]) -> None:
        for i, s in enumerate(samples):
            if not isinstance(s, SingleTurnSample):
                raise TypeError(f"samples[{i}]: expected a SingleTurnSample, got {type(s).__name__}")
        self.samples = list(samples)

    @classmethod
    def from_list(cls, data: Sequence[Mapping[str, Any]]) -> EvaluationDataset:
        """Rows as dicts of Ragas's field names; other keys (``user_query``, ids) are dropped, as Ragas does."""
        out = []
        for i, row in enumerate(data):
            if not isinstance(row, Mapping):
                raise TypeError(f"row {i}: expected a dict, got {type(row).__name__}")
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

    def __iter__(self) -> Iterator[SingleTurnSample]:
        return iter(self.samples)

    def __getitem__(self, i: int) -> SingleTurnSample:
        return self.samples[i]
