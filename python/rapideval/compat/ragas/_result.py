"""Ragas 0.4.3 ``ragas.metrics.MetricResult``: what the facade's ``ascore``, ``score`` and ``abatch_score``
return. It is rapideval's :class:`~rapideval.judged.MetricResult` (``status``, ``reason``, ``cause``,
``details``, ``usage``, ``signature``) and behaves as Ragas's result does: ``MetricResult(value,
reason=None, traces=None)``; ``reason`` None where the metric gives none (the non-LLM metrics); it compares,
converts (``float``, ``int``) and computes as its value; a list value indexes, iterates and has a length;
other attributes are the value's; ``to_dict()``, ``repr`` and pydantic fields as in Ragas."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from ...judged import base as _base
from ...llm.results import Usage

__all__ = ["MetricResult"]


class MetricResult(_base.MetricResult):
    """Ragas 0.4.3 ``MetricResult(value, reason=None, traces=None)`` on rapideval's result: its keywords
    ``metric``, ``status``, ``cause``, ``details``, ``usage``, ``signature`` and ``row`` are rapideval's
    (``status`` ``"ok"`` unless given)."""

    traces: dict[str, Any] | None

    def __init__(
        self,
        value: Any = None,
        reason: str | None = None,
        traces: Mapping[str, Any] | None = None,
        *,
        metric: str = "",
        status: _base.Status = "ok",
        cause: str | None = None,
        details: Mapping[str, Any] | None = None,
        usage: Usage | None = None,
        signature: str = "",
        row: Any = None,
    ) -> None:
        if traces is not None:
            unknown = sorted(str(k) for k in traces if k not in ("input", "output"))
            if unknown:
                raise ValueError(f"MetricResult: traces may have the keys 'input' and 'output' only, got {unknown}")
        details = dict(details) if details is not None else {}
        super().__init__(metric, status, value, reason or "", cause, details, usage or Usage(), signature, row)
        object.__setattr__(self, "reason", reason)  # None stays None, as in Ragas
        object.__setattr__(self, "traces", dict(traces) if traces is not None else None)

    @classmethod
    def of(cls, result: _base.MetricResult) -> MetricResult:
        """rapideval's result as this class; an empty reason is None, as Ragas gives it."""
        if isinstance(result, cls):
            return result
        return cls(
            result.value,
            result.reason or None,
            metric=result.metric,
            status=result.status,
            cause=result.cause,
            details=result.details,
            usage=result.usage,
            signature=result.signature,
            row=result.row,
        )

    # As Ragas's result -------------------------------------------------------------------------------------

    def __repr__(self) -> str:
        reason = f", reason={self.reason!r}" if self.reason else ""
        status = f", status={self.status!r}" if self.status != "ok" else ""
        return f"MetricResult(value={self.value}{reason}{status})"

    __str__ = __repr__

    def to_dict(self) -> dict[str, Any]:
        """Ragas's ``{"result": value, "reason": reason}``."""
        return {"result": self.value, "reason": self.reason}

    def __json__(self) -> dict[str, Any]:
        return {"value": self.value, "reason": self.reason}

    def __getattr__(self, name: str) -> Any:
        """The value's attribute; a method's result of the value's type comes back as a MetricResult."""
        value = self.__dict__.get("value")
        if name.startswith("__") or "value" not in self.__dict__ or not hasattr(value, name):
            raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")
        attr = getattr(value, name)
        if not callable(attr):
            return attr
        method: Callable[..., Any] = attr

        def call(*args: Any, **kwargs: Any) -> Any:
            out = method(*args, **kwargs)
            return MetricResult(out, self.reason) if isinstance(out, type(value)) else out

        return call

    # A list value (RankingMetric).
    def __getitem__(self, key: Any) -> Any:
        if not hasattr(self.value, "__getitem__"):
            raise TypeError(f"{type(self.value).__name__} object is not subscriptable")
        return self.value[key]

    def __iter__(self) -> Iterator[Any]:
        if not hasattr(self.value, "__iter__"):
            raise TypeError(f"{type(self.value).__name__} object is not iterable")
        return iter(self.value)

    def __len__(self) -> int:
        if not hasattr(self.value, "__len__"):
            raise TypeError(f"{type(self.value).__name__} has no len()")
        return len(self.value)

    # A number.
    def _number(self, verb: str) -> float | int:
        if not isinstance(self.value, (int, float)):
            raise TypeError(f"Cannot {verb} {type(self.value).__name__} objects")
        return self.value

    def __float__(self) -> float:
        if not isinstance(self.value, (int, float)):
            raise TypeError(f"Cannot convert {type(self.value).__name__} to float")
        return float(self.value)

    def __int__(self) -> int:
        if not isinstance(self.value, (int, float)):
            raise TypeError(f"Cannot convert {type(self.value).__name__} to int")
        return int(self.value)

    def __add__(self, other: Any) -> Any:
        return self._number("add") + _plain(other)

    def __radd__(self, other: Any) -> Any:
        return other + self._number("add")

    def __sub__(self, other: Any) -> Any:
        return self._number("subtract") - _plain(other)

    def __rsub__(self, other: Any) -> Any:
        return other - self._number("subtract")

    def __mul__(self, other: Any) -> Any:
        return self._number("multiply") * _plain(other)

    def __rmul__(self, other: Any) -> Any:
        return other * self._number("multiply")

    def __truediv__(self, other: Any) -> Any:
        return self._number("divide") / _plain(other)

    def __rtruediv__(self, other: Any) -> Any:
        return other / self._number("divide")

    # Comparisons are the value's.
    def __eq__(self, other: object) -> bool:
        return bool(self.value == _plain(other))

    __hash__ = None  # type: ignore[assignment]

    def __lt__(self, other: Any) -> bool:
        return bool(self.value < _plain(other))

    def __le__(self, other: Any) -> bool:
        return bool(self.value <= _plain(other))

    def __gt__(self, other: Any) -> bool:
        return bool(self.value > _plain(other))

    def __ge__(self, other: Any) -> bool:
        return bool(self.value >= _plain(other))

    # A pydantic field.
    @classmethod
    def validate(cls, value: Any, info: Any = None) -> MetricResult:
        """A MetricResult as it is; any other value becomes ``MetricResult(value)``."""
        return value if isinstance(value, cls) else cls(value)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        def serialize(instance: Any, info: core_schema.SerializationInfo) -> Any:
            return instance.__json__() if info.mode == "json" and isinstance(instance, cls) else instance

        return core_schema.no_info_plain_validator_function(
            cls.validate,
            serialization=core_schema.plain_serializer_function_ser_schema(serialize, info_arg=True),
        )


def _plain(other: Any) -> Any:
    return other.value if isinstance(other, _base.MetricResult) else other
