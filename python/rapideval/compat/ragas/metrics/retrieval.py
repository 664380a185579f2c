"""Ragas 0.4.3's retrieval metrics with Ragas's constructors, on :mod:`rapideval.judged.retrieval`, and
the module-level instances ``context_precision``, ``context_recall`` and ``context_entity_recall``."""

from __future__ import annotations

from ....judged import retrieval as _retrieval
from ....llm import JudgeClient
from .._metric import RagasMetric

__all__ = [
    "ContextEntityRecall",
    "ContextPrecision",
    "ContextRecall",
    "ContextRelevance",
    "ContextUtilization",
    "LLMContextPrecisionWithReference",
    "LLMContextPrecisionWithoutReference",
    "LLMContextRecall",
    "context_entity_recall",
    "context_precision",
    "context_recall",
]


class _LLMOnly(RagasMetric):
    """Ragas's ``Metric(llm=None)`` constructor."""

    def __init__(self, llm: JudgeClient | None = None, name: str | None = None) -> None:
        super().__init__(name, judge=llm)  # type: ignore[call-arg]  # the retrieval class's (name, judge)


class LLMContextPrecisionWithReference(_LLMOnly, _retrieval.LLMContextPrecisionWithReference):
    """Ragas 0.4.3 ``LLMContextPrecisionWithReference(llm=None)``."""


class ContextPrecision(_LLMOnly, _retrieval.ContextPrecision):
    """Ragas 0.4.3 ``ContextPrecision(llm=None)``."""


class LLMContextPrecisionWithoutReference(_LLMOnly, _retrieval.LLMContextPrecisionWithoutReference):
    """Ragas 0.4.3 ``LLMContextPrecisionWithoutReference(llm=None)``."""


class ContextUtilization(_LLMOnly, _retrieval.ContextUtilization):
    """Ragas 0.4.3 ``ContextUtilization(llm=None)``."""


class LLMContextRecall(_LLMOnly, _retrieval.LLMContextRecall):
    """Ragas 0.4.3 ``LLMContextRecall(llm=None)`` (``ContextRecall``)."""


ContextRecall = LLMContextRecall


class ContextEntityRecall(_LLMOnly, _retrieval.ContextEntityRecall):
    """Ragas 0.4.3 ``ContextEntityRecall(llm=None)``."""


class ContextRelevance(_LLMOnly, _retrieval.ContextRelevance):
    """Ragas 0.4.3 ``ContextRelevance(llm=None)``."""


context_precision = ContextPrecision()
context_recall = ContextRecall()
context_entity_recall = ContextEntityRecall()
