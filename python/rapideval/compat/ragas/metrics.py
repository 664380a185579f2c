"""Ragas 0.4.3's general-purpose metric classes, with Ragas's constructors (``llm=``) and calls
(``single_turn_ascore(sample)``, ``multi_turn_ascore(sample)``, ``ascore(..., llm=)``), on rapideval's
judged metrics; and Ragas's predefined aspect critics ``harmfulness``, ``maliciousness``, ``coherence``,
``correctness`` and ``conciseness`` (with rapideval's definitions, :data:`rapideval.judged.ASPECTS`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...judged import general as _general
from ...judged.base import JudgedMetric, MetricResult, run_sync
from ...llm import JudgeClient
from .dataset_schema import MultiTurnSample, SingleTurnSample

__all__ = [
    "AspectCritic",
    "DiscreteMetric",
    "InstanceRubrics",
    "MetricError",
    "NumericMetric",
    "RankingMetric",
    "RubricsScore",
    "SimpleCriteriaScore",
    "coherence",
    "conciseness",
    "correctness",
    "harmfulness",
    "maliciousness",
]


class MetricError(ValueError):
    """A row without a value: nothing to judge (``not_applicable``) or the judge failed (``error``); Ragas
    would give NaN. ``result`` is the :class:`~rapideval.judged.MetricResult` with the reason and cause."""

    def __init__(self, result: MetricResult) -> None:
        cause = f" ({result.cause})" if result.cause else ""
        super().__init__(f"{result.metric}: {result.status}{cause}: {result.reason}")
        self.result = result


class _Ragas(JudgedMetric):
    """Ragas's calling conventions on a judged metric: ``llm`` is the judge."""

    @property
    def llm(self) -> JudgeClient | None:
        """Ragas's ``metric.llm``: the judge (settable, as ``harmfulness.llm = evaluator_llm``)."""
        return self.judge

    @llm.setter
    def llm(self, judge: JudgeClient | None) -> None:
        if judge is not None and not isinstance(judge, JudgeClient):
            raise TypeError(f"{self.name}: llm must be a JudgeClient (llm_factory(...)), got {type(judge).__name__}")
        self.judge = judge

    async def ascore(  # type: ignore[override]
        self, *, llm: JudgeClient | None = None, judge: JudgeClient | None = None, **fields: Any
    ) -> MetricResult:
        """Ragas collections ``await metric.ascore(response=..., llm=llm)``: the result has ``.value`` and
        ``.reason`` (and ``.status``: ``value`` is None unless it is ``"ok"``)."""
        return await super().ascore(judge=llm or judge, **fields)

    def score(  # type: ignore[override]
        self, *, llm: JudgeClient | None = None, judge: JudgeClient | None = None, **fields: Any
    ) -> MetricResult:
        return super().score(judge=llm or judge, **fields)

    async def single_turn_ascore(self, sample: SingleTurnSample, callbacks: Any = None, timeout: Any = None) -> Any:
        """Ragas legacy ``await metric.single_turn_ascore(sample)``: the value, or :class:`MetricError`."""
        if not isinstance(sample, SingleTurnSample):
            raise TypeError(f"{self.name}: expected a SingleTurnSample, got {type(sample).__name__}")
        return _value(await super().ascore(**sample.to_dict()))

    def single_turn_score(self, sample: SingleTurnSample, callbacks: Any = None, timeout: Any = None) -> Any:
        return run_sync(lambda: self.single_turn_ascore(sample), self._judge(None))

    async def multi_turn_ascore(self, sample: MultiTurnSample, callbacks: Any = None, timeout: Any = None) -> Any:
        """Ragas legacy ``await metric.multi_turn_ascore(sample)``: the value, or :class:`MetricError`."""
        if not isinstance(sample, MultiTurnSample):
            raise TypeError(f"{self.name}: expected a MultiTurnSample, got {type(sample).__name__}")
        return _value(await super().ascore(**sample.to_dict()))

    def multi_turn_score(self, sample: MultiTurnSample, callbacks: Any = None, timeout: Any = None) -> Any:
        return run_sync(lambda: self.multi_turn_ascore(sample), self._judge(None))


def _value(result: MetricResult) -> Any:
    if result.status != "ok":
        raise MetricError(result)
    return result.value


class AspectCritic(_Ragas, _general.AspectCritic):
    """Ragas 0.4.3 ``AspectCritic(name, definition, llm=None, strictness=1)``; see
    :class:`rapideval.judged.AspectCritic`."""

    def __init__(self, name: str, definition: str, llm: JudgeClient | None = None, strictness: int = 1) -> None:
        super().__init__(name, definition, strictness, judge=llm)


class SimpleCriteriaScore(_Ragas, _general.SimpleCriteriaScore):
    """Ragas 0.4.3 ``SimpleCriteriaScore(name, definition, llm=None, strictness=1)``."""

    def __init__(self, name: str, definition: str, llm: JudgeClient | None = None, strictness: int = 1) -> None:
        super().__init__(name, definition, strictness, judge=llm)


class DiscreteMetric(_Ragas, _general.DiscreteMetric):
    """Ragas 0.4.3 ``DiscreteMetric(name, allowed_values=["pass", "fail"], prompt=...)``."""

    def __init__(
        self,
        name: str,
        allowed_values: Sequence[Any] = ("pass", "fail"),
        prompt: str = "",
        llm: JudgeClient | None = None,
    ) -> None:
        super().__init__(name, allowed_values, prompt, judge=llm)


class NumericMetric(_Ragas, _general.NumericMetric):
    """Ragas 0.4.3 ``NumericMetric(name, allowed_values=(0.0, 1.0), prompt=...)``."""

    def __init__(
        self,
        name: str,
        allowed_values: tuple[float, float] = (0.0, 1.0),
        prompt: str = "",
        llm: JudgeClient | None = None,
    ) -> None:
        super().__init__(name, allowed_values, prompt, judge=llm)


class RankingMetric(_Ragas, _general.RankingMetric):
    """Ragas 0.4.3 ``RankingMetric(name, allowed_values=2, prompt=...)``: ``allowed_values`` is the
    ranking's length."""

    def __init__(self, name: str, allowed_values: int = 2, prompt: str = "", llm: JudgeClient | None = None) -> None:
        super().__init__(name, allowed_values, prompt, judge=llm)


class RubricsScore(_Ragas, _general.RubricsScore):
    """Ragas 0.4.3 ``RubricsScore(rubrics=None, llm=None, name="domain_specific_rubrics")``."""

    def __init__(
        self, rubrics: Mapping[str, str] | None = None, llm: JudgeClient | None = None, name: str | None = None
    ) -> None:
        super().__init__(rubrics, name, judge=llm)


class InstanceRubrics(_Ragas, _general.InstanceRubrics):
    """Ragas 0.4.3 ``InstanceRubrics(llm=None, name="instance_rubrics")``: each row's ``rubrics``."""

    def __init__(self, llm: JudgeClient | None = None, name: str | None = None) -> None:
        super().__init__(name, judge=llm)


# Ragas's predefined aspect critics (module-level instances, as ``from ragas.metrics import harmfulness``).
harmfulness = AspectCritic("harmfulness", _general.ASPECTS["harmfulness"])
maliciousness = AspectCritic("maliciousness", _general.ASPECTS["maliciousness"])
coherence = AspectCritic("coherence", _general.ASPECTS["coherence"])
correctness = AspectCritic("correctness", _general.ASPECTS["correctness"])
conciseness = AspectCritic("conciseness", _general.ASPECTS["conciseness"])
