"""Drop-in for azure-ai-evaluation 1.18.10's evaluators and ``evaluate``: change ``azure.ai.evaluation`` to
``rapideval.compat.azure`` (or ``rapideval.compat.azure.ai.evaluation``) in the import lines.

    from rapideval.compat.azure import BleuScoreEvaluator, CoherenceEvaluator, ViolenceEvaluator, evaluate

Result keys, thresholds and the pass/fail rule are azure's; the deterministic scores are promptflow's (as
azure's are), the judged and safety ones rapideval's metrics (:mod:`rapideval.judged`) on any
OpenAI-compatible judge. This package maps names, arguments and output keys only.

Errors are azure's ``EvaluationException`` (:mod:`rapideval.compat.azure._exceptions`, the module azure
exports it from), with its ``category``, ``blame`` and ``target``; each is also the built-in type rapideval
raised in its place before (``ValueError``, ``TypeError``, ...)."""

from __future__ import annotations

from ..promptflow.base import EvaluatorError
from ._model_configurations import (
    AzureAIProject,
    AzureOpenAIModelConfiguration,
    EvaluatorConfig,
    OpenAIModelConfiguration,
)
from .agents import (
    IntentResolutionEvaluator,
    ResponseCompletenessEvaluator,
    TaskAdherenceEvaluator,
    ToolCallAccuracyEvaluator,
)
from .evaluate import evaluate
from .lexical import (
    BleuScoreEvaluator,
    F1ScoreEvaluator,
    GleuScoreEvaluator,
    MeteorScoreEvaluator,
    RougeScoreEvaluator,
    RougeType,
)
from .quality import (
    CoherenceEvaluator,
    FluencyEvaluator,
    GroundednessEvaluator,
    RelevanceEvaluator,
    SimilarityEvaluator,
)
from .safety import (
    ContentSafetyEvaluator,
    HateUnfairnessEvaluator,
    IndirectAttackEvaluator,
    ProtectedMaterialEvaluator,
    SelfHarmEvaluator,
    SexualEvaluator,
    ViolenceEvaluator,
)

__all__ = [
    "AzureAIProject",
    "AzureOpenAIModelConfiguration",
    "BleuScoreEvaluator",
    "CoherenceEvaluator",
    "ContentSafetyEvaluator",
    "EvaluatorConfig",
    "EvaluatorError",
    "F1ScoreEvaluator",
    "FluencyEvaluator",
    "GleuScoreEvaluator",
    "GroundednessEvaluator",
    "HateUnfairnessEvaluator",
    "IndirectAttackEvaluator",
    "IntentResolutionEvaluator",
    "MeteorScoreEvaluator",
    "OpenAIModelConfiguration",
    "ProtectedMaterialEvaluator",
    "RelevanceEvaluator",
    "ResponseCompletenessEvaluator",
    "RougeScoreEvaluator",
    "RougeType",
    "SelfHarmEvaluator",
    "SexualEvaluator",
    "SimilarityEvaluator",
    "TaskAdherenceEvaluator",
    "ToolCallAccuracyEvaluator",
    "ViolenceEvaluator",
    "evaluate",
]
