"""One judge request: which row and metric it scores, the rendered messages, and how to read the reply."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from .options import Sampling

__all__ = ["Combine", "JudgeRequest"]

Combine = Literal["auto", "majority", "mean", "median"]


@dataclass(frozen=True)
class JudgeRequest:
    """A chat request to judge one row for one metric.

    ``schema`` (a pydantic model) makes the reply structured and validated (its ``Field(ge=..., le=...)``
    bounds are enforced: an out-of-range score is an error, not a pass); without it the reply is text.
    ``votes`` asks for that many verdicts (``n=votes`` in one request where the endpoint honours ``n``)
    and combines ``field`` over them: ``"auto"`` is a majority for bool / str fields and the mean for
    numbers. ``sampling`` and ``model`` override the client's for this request only.
    """

    row: Hashable
    metric: str
    messages: tuple[Mapping[str, Any], ...]
    schema: type[BaseModel] | None = None
    field: str | None = None
    votes: int = 1
    combine: Combine = "auto"
    sampling: Sampling | None = None
    model: str | None = None

    def __post_init__(self) -> None:
        where = f"request (row={self.row!r}, metric={self.metric!r})"
        if isinstance(self.messages, (str, bytes)) or not isinstance(self.messages, Sequence):
            raise TypeError(f"{where}: messages must be a sequence of {{'role': ..., 'content': ...}} mappings")
        messages = tuple(dict(m) if isinstance(m, Mapping) else m for m in self.messages)
        for i, m in enumerate(messages):
            if not isinstance(m, dict) or not isinstance(m.get("role"), str):
                raise TypeError(f"{where}: messages[{i}] must be a mapping with a str 'role'")
            if not isinstance(m.get("content"), (str, list)):
                raise TypeError(f"{where}: messages[{i}]['content'] must be a str or a list of content parts")
        if not messages:
            raise ValueError(f"{where}: messages is empty")
        object.__setattr__(self, "messages", messages)
        if not isinstance(self.metric, str):
            raise TypeError(f"{where}: metric must be a str")
        if self.schema is not None and not (isinstance(self.schema, type) and issubclass(self.schema, BaseModel)):
            raise TypeError(f"{where}: schema must be a pydantic BaseModel subclass, got {self.schema!r}")
        if self.field is not None and (self.schema is None or self.field not in self.schema.model_fields):
            raise ValueError(f"{where}: field {self.field!r} is not a field of the schema")
        if isinstance(self.votes, bool) or not isinstance(self.votes, int) or self.votes < 1:
            raise ValueError(f"{where}: votes must be a positive int, got {self.votes!r}")
        if self.votes > 1 and self.schema is not None and self.field is None:
            raise ValueError(f"{where}: votes > 1 needs the schema field to combine (field=...)")
        if self.combine not in ("auto", "majority", "mean", "median"):
            raise ValueError(f"{where}: combine must be 'auto', 'majority', 'mean' or 'median', got {self.combine!r}")
        if self.sampling is not None and not isinstance(self.sampling, Sampling):
            raise TypeError(f"{where}: sampling must be a Sampling, got {type(self.sampling).__name__}")
