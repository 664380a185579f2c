"""``ragas.metrics``: Ragas 0.4.3's metric classes (the RAG ones from :mod:`.rag`, :mod:`.retrieval` and :mod:`.nonllm`;
the general-purpose ones here), with Ragas's constructors (``llm=``) and calls
(``single_turn_ascore(sample)``, ``multi_turn_ascore(sample)``, ``ascore(..., llm=)``), on rapideval's
judged metrics; and Ragas's predefined aspect critics ``harmfulness``, ``maliciousness``, ``coherence``,
``correctness`` and ``conciseness`` (with rapideval's definitions, :data:`rapideval.judged.ASPECTS`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ....judged import general as _general
from ....llm import JudgeClient
from .._metric import MetricError, MetricResult, RagasMetric
from .nonllm import (
    BleuScore,
    CHRFScore,
    ChrfScore,
    DistanceMeasure,
    ExactMatch,
    IDBasedContextPrecision,
    IDBasedContextRecall,
    NonLLMContextPrecisionWithReference,
    NonLLMContextRecall,
    NonLLMStringSimilarity,
    RougeScore,
    StringPresence,
)
from .rag import (
    AnswerCorrectness,
    AnswerRelevancy,
    AnswerSimilarity,
    FactualCorrectness,
    Faithfulness,
    NoiseSensitivity,
    ResponseRelevancy,
    SemanticSimilarity,
    answer_correctness,
    answer_relevancy,
    answer_similarity,
    faithfulness,
    noise_sensitivity,
)
from .retrieval import (
    ContextEntityRecall,
    ContextPrecision,
    ContextRecall,
    ContextRelevance,
    ContextUtilization,
    LLMContextPrecisionWithoutReference,
    LLMContextPrecisionWithReference,
    LLMContextRecall,
    context_entity_recall,
    context_precision,
    context_recall,
)

__all__ = [
    "AnswerCorrectness",
    "AnswerRelevancy",
    "AnswerSimilarity",
    "AspectCritic",
    "BleuScore",
    "CHRFScore",
    "ChrfScore",
    "ContextEntityRecall",
    "ContextPrecision",
    "ContextRecall",
    "ContextRelevance",
    "ContextUtilization",
    "DiscreteMetric",
    "DistanceMeasure",
    "ExactMatch",
    "FactualCorrectness",
    "Faithfulness",
    "IDBasedContextPrecision",
    "IDBasedContextRecall",
    "InstanceRubrics",
    "LLMContextPrecisionWithReference",
    "LLMContextPrecisionWithoutReference",
    "LLMContextRecall",
    "MetricError",
    "MetricResult",
    "NoiseSensitivity",
    "NonLLMContextPrecisionWithReference",
    "NonLLMContextRecall",
    "NonLLMStringSimilarity",
    "NumericMetric",
    "RankingMetric",
    "ResponseRelevancy",
    "RougeScore",
    "RubricsScore",
    "SemanticSimilarity",
    "SimpleCriteriaScore",
    "StringPresence",
    "answer_correctness",
    "answer_relevancy",
    "answer_similarity",
    "coherence",
    "conciseness",
    "context_entity_recall",
    "context_precision",
    "context_recall",
    "correctness",
    "faithfulness",
    "harmfulness",
    "maliciousness",
    "noise_sensitivity",
]


class AspectCritic(RagasMetric, _general.AspectCritic):
    """Ragas 0.4.3 ``AspectCritic(name, definition, llm=None, strictness=1)``; see
    :class:`rapideval.judged.AspectCritic`."""

    def __init__(self, name: str, definition: str, llm: JudgeClient | None = None, strictness: int = 1) -> None:
        super().__init__(name, definition, strictness, judge=llm)


class SimpleCriteriaScore(RagasMetric, _general.SimpleCriteriaScore):
    """Ragas 0.4.3 ``SimpleCriteriaScore(name, definition, llm=None, strictness=1)``."""

    def __init__(self, name: str, definition: str, llm: JudgeClient | None = None, strictness: int = 1) -> None:
        super().__init__(name, definition, strictness, judge=llm)


class DiscreteMetric(RagasMetric, _general.DiscreteMetric):
    """Ragas 0.4.3 ``DiscreteMetric(name, allowed_values=["pass", "fail"], prompt=...)``."""

    def __init__(
        self,
        name: str,
        allowed_values: Sequence[Any] = ("pass", "fail"),
        prompt: str = "",
        llm: JudgeClient | None = None,
    ) -> None:
        super().__init__(name, allowed_values, prompt, judge=llm)


class NumericMetric(RagasMetric, _general.NumericMetric):
    """Ragas 0.4.3 ``NumericMetric(name, allowed_values=(0.0, 1.0), prompt=...)``."""

    def __init__(
        self,
        name: str,
        allowed_values: tuple[float, float] = (0.0, 1.0),
        prompt: str = "",
        llm: JudgeClient | None = None,
    ) -> None:
        super().__init__(name, allowed_values, prompt, judge=llm)


class RankingMetric(RagasMetric, _general.RankingMetric):
    """Ragas 0.4.3 ``RankingMetric(name, allowed_values=2, prompt=...)``: ``allowed_values`` is the
    ranking's length."""

    def __init__(self, name: str, allowed_values: int = 2, prompt: str = "", llm: JudgeClient | None = None) -> None:
        super().__init__(name, allowed_values, prompt, judge=llm)


class RubricsScore(RagasMetric, _general.RubricsScore):
    """Ragas 0.4.3 ``RubricsScore(rubrics=None, llm=None, name="domain_specific_rubrics")``."""

    def __init__(
        self, rubrics: Mapping[str, str] | None = None, llm: JudgeClient | None = None, name: str | None = None
    ) -> None:
        super().__init__(rubrics, name, judge=llm)


class InstanceRubrics(RagasMetric, _general.InstanceRubrics):
    """Ragas 0.4.3 ``InstanceRubrics(llm=None, name="instance_rubrics")``: each row's ``rubrics``."""

    def __init__(self, llm: JudgeClient | None = None, name: str | None = None) -> None:
        super().__init__(name, judge=llm)


# Ragas's predefined aspect critics (module-level instances, as ``from ragas.metrics import harmfulness``).
harmfulness = AspectCritic("harmfulness", _general.ASPECTS["harmfulness"])
maliciousness = AspectCritic("maliciousness", _general.ASPECTS["maliciousness"])
coherence = AspectCritic("coherence", _general.ASPECTS["coherence"])
correctness = AspectCritic("correctness", _general.ASPECTS["correctness"])
conciseness = AspectCritic("conciseness", _general.ASPECTS["conciseness"])
