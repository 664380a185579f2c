"""Ragas's calling conventions on rapideval's metrics (``llm=``, ``single_turn_ascore``,
``multi_turn_ascore``, ``ascore(..., llm=)``) and :class:`MetricError`, where Ragas would give NaN."""

from __future__ import annotations

from typing import Any

from ...judged.base import MetricResult, SampleMetric
from ...llm import JudgeClient
from ...llm.sync import run_sync
from .dataset_schema import MultiTurnSample, SingleTurnSample

__all__ = ["MetricError", "RagasMetric", "check_embeddings"]


def check_embeddings(embeddings: Any) -> None:
    """Ragas's ``embeddings=``: None or a JudgeClient, which embeds through its endpoint."""
    if embeddings is not None and not isinstance(embeddings, JudgeClient):
        raise TypeError(
            f"embeddings must be a JudgeClient (llm_factory(...) with embedding_model=...), got "
            f"{type(embeddings).__name__}: rapideval embeds through a judge's endpoint"
        )


class MetricError(ValueError):
    """A row without a value: nothing to judge (``not_applicable``) or the judge failed (``error``); Ragas
    would give NaN. ``result`` is the :class:`~rapideval.judged.MetricResult` with the reason and cause."""

    def __init__(self, result: MetricResult) -> None:
        cause = f" ({result.cause})" if result.cause else ""
        super().__init__(f"{result.metric}: {result.status}{cause}: {result.reason}")
        self.result = result


class RagasMetric(SampleMetric):
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

    @property
    def embeddings(self) -> JudgeClient | None:
        """Ragas's ``metric.embeddings``: the client the metric embeds through (None: its judge)."""
        return self.embedder

    @embeddings.setter
    def embeddings(self, embedder: JudgeClient | None) -> None:
        check_embeddings(embedder)
        self.embedder = embedder

    async def ascore(
        self, *, llm: JudgeClient | None = None, judge: JudgeClient | None = None, **fields: Any
    ) -> MetricResult:
        """Ragas collections ``await metric.ascore(response=..., llm=llm)``: the result has ``.value`` and
        ``.reason`` (and ``.status``: ``value`` is None unless it is ``"ok"``). Without any llm, Ragas's
        default: a judge from the environment (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``,
        ``RAPIDEVAL_JUDGE_MODEL``), opened for this call."""
        chosen = llm or judge or self.judge
        if chosen is None and self.uses_judge:
            async with JudgeClient() as default:
                return await super().ascore(judge=default, **fields)
        return await super().ascore(judge=chosen, **fields)

    def score(self, *, llm: JudgeClient | None = None, judge: JudgeClient | None = None, **fields: Any) -> MetricResult:
        """Sync :meth:`ascore`; also inside a running event loop."""
        chosen = llm or judge or self.judge
        scored = run_sync(lambda: self.ascore(judge=chosen, **fields), chosen, self.embedder)
        return scored

    async def single_turn_ascore(self, sample: SingleTurnSample, callbacks: Any = None, timeout: Any = None) -> Any:
        """Ragas legacy ``await metric.single_turn_ascore(sample)``: the value, or :class:`MetricError`."""
        if not isinstance(sample, SingleTurnSample):
            raise TypeError(f"{self.name}: expected a SingleTurnSample, got {type(sample).__name__}")
        return _value(await self.ascore(**sample.to_dict()))

    def single_turn_score(self, sample: SingleTurnSample, callbacks: Any = None, timeout: Any = None) -> Any:
        return run_sync(lambda: self.single_turn_ascore(sample), self.judge, self.embedder)

    async def multi_turn_ascore(self, sample: MultiTurnSample, callbacks: Any = None, timeout: Any = None) -> Any:
        """Ragas legacy ``await metric.multi_turn_ascore(sample)``: the value, or :class:`MetricError`."""
        if not isinstance(sample, MultiTurnSample):
            raise TypeError(f"{self.name}: expected a MultiTurnSample, got {type(sample).__name__}")
        return _value(await self.ascore(**sample.to_dict()))

    def multi_turn_score(self, sample: MultiTurnSample, callbacks: Any = None, timeout: Any = None) -> Any:
        return run_sync(lambda: self.multi_turn_ascore(sample), self.judge, self.embedder)


def _value(result: MetricResult) -> Any:
    if result.status != "ok":
        raise MetricError(result)
    return result.value
