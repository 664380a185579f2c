"""LLM-judged metrics on the judge runtime: one module per family, one result type.

    from rapideval.judged import AspectCritic, DiscreteMetric
    from rapideval.llm import JudgeClient

    judge = JudgeClient()                       # or JudgeClient.local() to judge offline
    critic = AspectCritic("maliciousness", "Is the submission meant to harm, deceive or exploit users?")
    result = critic.score(response="The Eiffel Tower is in Paris.", judge=judge)
    result.status, result.value, result.reason  # "ok", 0, "..."; "not_applicable" / "error" never have a value

See :class:`~rapideval.judged.base.MetricResult` and :class:`~rapideval.judged.base.JudgedMetric`; the page
"Write your own metric" of the docs shows the protocol.
"""

from __future__ import annotations

from .agents import IntentResolution, ResponseCompleteness, TaskAdherence, ToolCallAccuracy
from .base import (
    Ask,
    Embed,
    JudgedMetric,
    Lines,
    MetricResult,
    NotApplicable,
    RowMetric,
    SampleMetric,
    Stage,
    delimit,
    material,
    parse_signature,
    score_rows,
)
from .general import (
    ASPECTS,
    AspectCritic,
    DiscreteMetric,
    InstanceRubrics,
    NumericMetric,
    RankingMetric,
    RubricsScore,
    SimpleCriteriaScore,
)
from .nonllm import (
    BleuScore,
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
from .quality import Coherence, Fluency, Groundedness, Relevance, Retrieval, Similarity
from .rag import (
    AnswerCorrectness,
    AnswerRelevancy,
    AnswerSimilarity,
    FactualCorrectness,
    Faithfulness,
    NoiseSensitivity,
    ResponseRelevancy,
    SemanticSimilarity,
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
)
from .safety import HateUnfairness, IndirectAttack, ProtectedMaterial, SelfHarm, Sexual, Violence

__all__ = [
    "ASPECTS",
    "AnswerCorrectness",
    "AnswerRelevancy",
    "AnswerSimilarity",
    "Ask",
    "AspectCritic",
    "BleuScore",
    "ChrfScore",
    "Coherence",
    "ContextEntityRecall",
    "ContextPrecision",
    "ContextRecall",
    "ContextRelevance",
    "ContextUtilization",
    "DiscreteMetric",
    "DistanceMeasure",
    "Embed",
    "ExactMatch",
    "FactualCorrectness",
    "Faithfulness",
    "Fluency",
    "Groundedness",
    "HateUnfairness",
    "IDBasedContextPrecision",
    "IDBasedContextRecall",
    "IndirectAttack",
    "InstanceRubrics",
    "IntentResolution",
    "JudgedMetric",
    "LLMContextPrecisionWithReference",
    "LLMContextPrecisionWithoutReference",
    "LLMContextRecall",
    "Lines",
    "MetricResult",
    "NoiseSensitivity",
    "NonLLMContextPrecisionWithReference",
    "NonLLMContextRecall",
    "NonLLMStringSimilarity",
    "NotApplicable",
    "NumericMetric",
    "ProtectedMaterial",
    "RankingMetric",
    "Relevance",
    "ResponseCompleteness",
    "ResponseRelevancy",
    "Retrieval",
    "RougeScore",
    "RowMetric",
    "RubricsScore",
    "SampleMetric",
    "SelfHarm",
    "SemanticSimilarity",
    "Sexual",
    "Similarity",
    "SimpleCriteriaScore",
    "Stage",
    "StringPresence",
    "TaskAdherence",
    "ToolCallAccuracy",
    "Violence",
    "delimit",
    "material",
    "parse_signature",
    "score_rows",
]
