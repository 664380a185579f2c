"""``ragas.metrics.collections``: Ragas 0.4.3's collections API. Its LLM metrics take Ragas's collections
constructors: ``llm`` comes first and is required (a :class:`~rapideval.llm.JudgeClient` from
``llm_factory``; anything else, None included, raises :class:`ClientTypeError`, a ``ValueError`` as in
Ragas), then the collections' own parameters in their order (``Faithfulness(llm, name="faithfulness")``,
``NoiseSensitivity(llm, name=..., mode=...)``, ...). ``SemanticSimilarity`` requires ``embeddings`` (a
JudgeClient); ``AnswerRelevancy`` and ``AnswerCorrectness`` take it optionally (without it the judge
embeds). The non-LLM metrics and the names only the legacy API has are the classes of
:mod:`rapideval.compat.ragas.metrics`. Each class is a subclass of the legacy class of the same metric."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from ....judged import general as _general
from ....llm import JudgeClient
from . import (
    AnswerSimilarity,
    AspectCritic,
    BleuScore,
    CHRFScore,
    ChrfScore,
    DiscreteMetric,
    DistanceMeasure,
    ExactMatch,
    IDBasedContextPrecision,
    IDBasedContextRecall,
    InstanceRubrics,
    LLMContextPrecisionWithoutReference,
    LLMContextPrecisionWithReference,
    LLMContextRecall,
    MetricError,
    MetricResult,
    NonLLMContextPrecisionWithReference,
    NonLLMContextRecall,
    NonLLMStringSimilarity,
    NumericMetric,
    RankingMetric,
    ResponseRelevancy,
    RougeScore,
    RubricsScore,
    SimpleCriteriaScore,
    StringPresence,
    answer_correctness,
    answer_relevancy,
    answer_similarity,
    coherence,
    conciseness,
    context_entity_recall,
    context_precision,
    context_recall,
    correctness,
    faithfulness,
    harmfulness,
    maliciousness,
    noise_sensitivity,
)
from . import rag as _rag
from . import retrieval as _retrieval

__all__ = [
    "AnswerCorrectness",
    "AnswerRelevancy",
    "AnswerSimilarity",
    "AspectCritic",
    "BleuScore",
    "CHRFScore",
    "ChrfScore",
    "ClientTypeError",
    "ContextEntityRecall",
    "ContextPrecision",
    "ContextPrecisionWithReference",
    "ContextPrecisionWithoutReference",
    "ContextRecall",
    "ContextRelevance",
    "ContextUtilization",
    "DiscreteMetric",
    "DistanceMeasure",
    "DomainSpecificRubrics",
    "ExactMatch",
    "FactualCorrectness",
    "Faithfulness",
    "IDBasedContextPrecision",
    "IDBasedContextRecall",
    "InstanceRubrics",
    "InstanceSpecificRubrics",
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
    "RubricsScoreWithReference",
    "RubricsScoreWithoutReference",
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


class ClientTypeError(TypeError, ValueError):
    """A collections metric's ``llm`` (or ``embeddings``) is not a JudgeClient; Ragas raises ValueError."""


def _client(metric: str, role: str, client: Any) -> JudgeClient:
    if not isinstance(client, JudgeClient):
        raise ClientTypeError(
            f"{metric}: {role} must be a JudgeClient, from llm_factory('gpt-4o-mini', client=openai_client), where "
            f"Ragas's collections metrics take a modern InstructorLLM; got {type(client).__name__}"
        )
    return client


class Faithfulness(_rag.Faithfulness):
    """Ragas 0.4.3 collections ``Faithfulness(llm, name="faithfulness")``."""

    def __init__(self, llm: JudgeClient, name: str = "faithfulness") -> None:
        super().__init__(_client("Faithfulness", "llm", llm), name)


class AnswerRelevancy(_rag.ResponseRelevancy):
    """Ragas 0.4.3 collections ``AnswerRelevancy(llm, embeddings, name="answer_relevancy", strictness=3)``;
    without ``embeddings`` the judge embeds."""

    def __init__(
        self, llm: JudgeClient, embeddings: Any = None, name: str = "answer_relevancy", strictness: int = 3
    ) -> None:
        super().__init__(_client("AnswerRelevancy", "llm", llm), embeddings, strictness, name)


class AnswerCorrectness(_rag.AnswerCorrectness):
    """Ragas 0.4.3 collections ``AnswerCorrectness(llm, embeddings=None, name="answer_correctness",
    weights=[0.75, 0.25], beta=1.0)``; without ``embeddings`` the judge embeds."""

    def __init__(
        self,
        llm: JudgeClient,
        embeddings: Any = None,
        name: str = "answer_correctness",
        weights: Sequence[float] = (0.75, 0.25),
        beta: float = 1.0,
    ) -> None:
        super().__init__(_client("AnswerCorrectness", "llm", llm), embeddings, weights, beta, None, name)


class FactualCorrectness(_rag.FactualCorrectness):
    """Ragas 0.4.3 collections ``FactualCorrectness(llm, mode="f1", beta=1.0, atomicity="low",
    coverage="low", name="factual_correctness")``."""

    def __init__(
        self,
        llm: JudgeClient,
        mode: Literal["precision", "recall", "f1"] = "f1",
        beta: float = 1.0,
        atomicity: Literal["low", "high"] = "low",
        coverage: Literal["low", "high"] = "low",
        name: str = "factual_correctness",
    ) -> None:
        super().__init__(_client("FactualCorrectness", "llm", llm), mode, beta, atomicity, coverage, name)


class NoiseSensitivity(_rag.NoiseSensitivity):
    """Ragas 0.4.3 collections ``NoiseSensitivity(llm, name="noise_sensitivity", mode="relevant")``."""

    def __init__(
        self, llm: JudgeClient, name: str = "noise_sensitivity", mode: Literal["relevant", "irrelevant"] = "relevant"
    ) -> None:
        super().__init__(_client("NoiseSensitivity", "llm", llm), mode, name)


class SemanticSimilarity(_rag.SemanticSimilarity):
    """Ragas 0.4.3 collections ``SemanticSimilarity(embeddings, name="semantic_similarity",
    threshold=None)``: ``embeddings`` is a JudgeClient, which embeds through its endpoint."""

    def __init__(self, embeddings: Any, name: str = "semantic_similarity", threshold: float | None = None) -> None:
        super().__init__(_client("SemanticSimilarity", "embeddings", embeddings), threshold, name)


class ContextPrecisionWithReference(_retrieval.LLMContextPrecisionWithReference):
    """Ragas 0.4.3 collections ``ContextPrecisionWithReference(llm, name="context_precision_with_reference")``."""

    def __init__(self, llm: JudgeClient, name: str = "context_precision_with_reference") -> None:
        super().__init__(_client("ContextPrecisionWithReference", "llm", llm), name)


class ContextPrecision(ContextPrecisionWithReference):
    """Ragas 0.4.3 collections ``ContextPrecision(llm)``: :class:`ContextPrecisionWithReference` named
    ``context_precision``."""

    def __init__(self, llm: JudgeClient, name: str = "context_precision") -> None:
        super().__init__(llm, name)


class ContextPrecisionWithoutReference(_retrieval.LLMContextPrecisionWithoutReference):
    """Ragas 0.4.3 collections ``ContextPrecisionWithoutReference(llm,
    name="context_precision_without_reference")``."""

    def __init__(self, llm: JudgeClient, name: str = "context_precision_without_reference") -> None:
        super().__init__(_client("ContextPrecisionWithoutReference", "llm", llm), name)


class ContextUtilization(ContextPrecisionWithoutReference):
    """Ragas 0.4.3 collections ``ContextUtilization(llm)``: :class:`ContextPrecisionWithoutReference` named
    ``context_utilization``."""

    def __init__(self, llm: JudgeClient, name: str = "context_utilization") -> None:
        super().__init__(llm, name)


class ContextRecall(_retrieval.LLMContextRecall):
    """Ragas 0.4.3 collections ``ContextRecall(llm, name="context_recall")``."""

    def __init__(self, llm: JudgeClient, name: str = "context_recall") -> None:
        super().__init__(_client("ContextRecall", "llm", llm), name)


class ContextEntityRecall(_retrieval.ContextEntityRecall):
    """Ragas 0.4.3 collections ``ContextEntityRecall(llm, name="context_entity_recall")``."""

    def __init__(self, llm: JudgeClient, name: str = "context_entity_recall") -> None:
        super().__init__(_client("ContextEntityRecall", "llm", llm), name)


class ContextRelevance(_retrieval.ContextRelevance):
    """Ragas 0.4.3 collections ``ContextRelevance(llm, name="context_relevance", max_retries=5)``;
    ``max_retries`` is accepted and unused (the judge's retry policy applies)."""

    def __init__(self, llm: JudgeClient, name: str = "context_relevance", max_retries: int = 5) -> None:
        super().__init__(_client("ContextRelevance", "llm", llm), name)


class InstanceSpecificRubrics(InstanceRubrics):
    """Ragas 0.4.3 collections ``InstanceSpecificRubrics(llm, name="instance_specific_rubrics")``."""

    def __init__(self, llm: JudgeClient, name: str = "instance_specific_rubrics") -> None:
        super().__init__(_client("InstanceSpecificRubrics", "llm", llm), name)


class DomainSpecificRubrics(RubricsScore):
    """Ragas 0.4.3 collections ``DomainSpecificRubrics(llm, rubrics=None, with_reference=False,
    name="domain_specific_rubrics")``: the reference is shown to the judge (and required) only with
    ``with_reference=True``."""

    def __init__(
        self,
        llm: JudgeClient,
        rubrics: Mapping[str, str] | None = None,
        with_reference: bool = False,
        name: str = "domain_specific_rubrics",
    ) -> None:
        judge = _client(type(self).__name__, "llm", llm)
        _general.RubricsScore.__init__(self, rubrics, name, with_reference, judge=judge)


class RubricsScoreWithReference(DomainSpecificRubrics):
    """Ragas 0.4.3 collections ``RubricsScoreWithReference(llm, rubrics=None,
    name="rubrics_score_with_reference")``."""

    def __init__(
        self, llm: JudgeClient, rubrics: Mapping[str, str] | None = None, name: str = "rubrics_score_with_reference"
    ) -> None:
        super().__init__(llm, rubrics, True, name)


class RubricsScoreWithoutReference(DomainSpecificRubrics):
    """Ragas 0.4.3 collections ``RubricsScoreWithoutReference(llm, rubrics=None,
    name="rubrics_score_without_reference")``."""

    def __init__(
        self, llm: JudgeClient, rubrics: Mapping[str, str] | None = None, name: str = "rubrics_score_without_reference"
    ) -> None:
        super().__init__(llm, rubrics, False, name)
