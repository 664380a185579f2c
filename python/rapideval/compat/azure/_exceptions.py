"""azure-ai-evaluation 1.18.10's ``azure.ai.evaluation._exceptions``: :class:`EvaluationException` with its
``category`` (:class:`ErrorCategory`), ``blame`` (:class:`ErrorBlame`) and ``target`` (:class:`ErrorTarget`),
the names azure's users catch and read (azure exports them from that module only, so this module keeps its
path: ``from rapideval.compat.azure._exceptions import EvaluationException``).

azure's class derives from azure-core's ``AzureError`` (an ``Exception``); this one derives from ``Exception``
(rapideval does not depend on azure-core). Where the facade raised a built-in type before (``ValueError``,
``TypeError``, ``FileNotFoundError``, ``RuntimeError`` or
:class:`~rapideval.compat.promptflow.base.EvaluatorError`), it now raises a subclass of both
:class:`EvaluationException` and that type (:func:`evaluation_error`), so both ``except`` clauses catch it.
``args[0]`` is the message, and so is ``str()``, as for the built-in types the facade raised before (azure's
``str()`` puts ``"(UserError) "`` or ``"(InternalError) "`` before it)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any

from ...judged.base import MetricResult
from ..promptflow.base import EvaluatorError

__all__ = [
    "ErrorBlame",
    "ErrorCategory",
    "ErrorMessage",
    "ErrorTarget",
    "EvaluationException",
    "EvaluationFileNotFoundError",
    "EvaluationInputError",
    "EvaluationRuntimeError",
    "EvaluationTypeError",
    "EvaluationValueError",
    "evaluation_error",
]


class ErrorMessage(Enum):
    """azure's fixed error messages."""

    MALFORMED_CONVERSATION_HISTORY = (
        "Malformed Conversation History: Query parameter representing conversation history should have exactly one "
        "more user query than agent responses"
    )


class ErrorCategory(Enum):
    """What kind of error (azure's categories and values)."""

    INVALID_VALUE = "INVALID VALUE"
    UNKNOWN_FIELD = "UNKNOWN FIELD"
    MISSING_FIELD = "MISSING FIELD"
    FILE_OR_FOLDER_NOT_FOUND = "FILE OR FOLDER NOT FOUND"
    RESOURCE_NOT_FOUND = "RESOURCE NOT FOUND"
    FAILED_EXECUTION = "FAILED_EXECUTION"
    SERVICE_UNAVAILABLE = "SERVICE UNAVAILABLE"
    MISSING_PACKAGE = "MISSING PACKAGE"
    FAILED_REMOTE_TRACKING = "FAILED REMOTE TRACKING"
    PROJECT_ACCESS_ERROR = "PROJECT ACCESS ERROR"
    UNKNOWN = "UNKNOWN"
    UPLOAD_ERROR = "UPLOAD ERROR"
    NOT_APPLICABLE = "NOT APPLICABLE"


class ErrorBlame(Enum):
    """Whose error it is (azure's values)."""

    USER_ERROR = "UserError"
    SYSTEM_ERROR = "SystemError"
    UNKNOWN = "Unknown"


class ErrorTarget(Enum):
    """The part of the library that raised (azure's names and values)."""

    EVAL_RUN = "EvalRun"
    CODE_CLIENT = "CodeClient"
    RAI_CLIENT = "RAIClient"
    COHERENCE_EVALUATOR = "CoherenceEvaluator"
    COMPLETENESS_EVALUATOR = "CompletenessEvaluator"
    CONTENT_SAFETY_CHAT_EVALUATOR = "ContentSafetyEvaluator"
    ECI_EVALUATOR = "ECIEvaluator"
    F1_EVALUATOR = "F1Evaluator"
    GROUNDEDNESS_EVALUATOR = "GroundednessEvaluator"
    TASK_NAVIGATION_EFFICIENCY_EVALUATOR = "_TaskNavigationEfficiencyEvaluator"
    PROTECTED_MATERIAL_EVALUATOR = "ProtectedMaterialEvaluator"
    INTENT_RESOLUTION_EVALUATOR = "IntentResolutionEvaluator"
    RELEVANCE_EVALUATOR = "RelevanceEvaluator"
    SIMILARITY_EVALUATOR = "SimilarityEvaluator"
    FLUENCY_EVALUATOR = "FluencyEvaluator"
    RETRIEVAL_EVALUATOR = "RetrievalEvaluator"
    TOOL_CALL_SUCCESS_EVALUATOR = "_ToolCallSuccessEvaluator"
    TASK_ADHERENCE_EVALUATOR = "TaskAdherenceEvaluator"
    TASK_COMPLETION_EVALUATOR = "_TaskCompletionEvaluator"
    INDIRECT_ATTACK_EVALUATOR = "IndirectAttackEvaluator"
    INDIRECT_ATTACK_SIMULATOR = "IndirectAttackSimulator"
    ADVERSARIAL_SIMULATOR = "AdversarialSimulator"
    DIRECT_ATTACK_SIMULATOR = "DirectAttackSimulator"
    EVALUATE = "Evaluate"
    CALLBACK_CONVERSATION_BOT = "CallbackConversationBot"
    MODELS = "Models"
    UNKNOWN = "Unknown"
    CONVERSATION = "Conversation"
    TOOL_CALL_ACCURACY_EVALUATOR = "ToolCallAccuracyEvaluator"
    TOOL_SELECTION_EVALUATOR = "_ToolSelectionEvaluator"
    TOOL_INPUT_ACCURACY_EVALUATOR = "_ToolInputAccuracyEvaluator"
    RED_TEAM = "RedTeam"
    AOAI_GRADER = "AoaiGrader"
    CONVERSATION_HISTORY_PARSING = "_get_conversation_history"
    TOOL_OUTPUT_UTILIZATION_EVALUATOR = "ToolOutputUtilizationEvaluator"
    QA_EVALUATOR = "QAEvaluator"
    ROUGE_EVALUATOR = "RougeScoreEvaluator"
    DOCUMENT_RETRIEVAL_EVALUATOR = "DocumentRetrievalEvaluator"
    QUALITY_GRADER_EVALUATOR = "QualityGraderEvaluator"
    CUSTOMER_SATISFACTION_EVALUATOR = "CustomerSatisfactionEvaluator"
    DEFLECTION_RATE_EVALUATOR = "DeflectionRateEvaluator"
    REGEX_MATCH_EVALUATOR = "RegexMatchEvaluator"


class EvaluationException(Exception):
    """azure-ai-evaluation 1.18.10 ``EvaluationException(message, *args, internal_message=None,
    target=ErrorTarget.UNKNOWN, category=ErrorCategory.UNKNOWN, blame=ErrorBlame.UNKNOWN, tsg_link=None,
    properties=None)``: the error azure raises for bad inputs, arguments and data, with its attributes.
    ``message`` is ``args[0]`` and ``str()`` (azure's ``str()`` puts ``(UserError)`` or ``(InternalError)``
    before it); the troubleshooting link, when there is one, follows it."""

    def __init__(
        self,
        message: str,
        *args: Any,
        internal_message: str | None = None,
        target: ErrorTarget = ErrorTarget.UNKNOWN,
        category: ErrorCategory = ErrorCategory.UNKNOWN,
        blame: ErrorBlame = ErrorBlame.UNKNOWN,
        tsg_link: str | None = None,
        properties: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self.message = message
        self.category = category
        self.target = target
        self.blame = blame
        self.internal_message = internal_message
        self.tsg_link = tsg_link
        self.properties = properties
        # Exception's own __init__, not the next class's: a subclass that is also EvaluatorError (whose
        # __init__ takes an evaluator and results) or FileNotFoundError keeps azure's arguments.
        Exception.__init__(self, message, *args)

    def __str__(self) -> str:
        return f"{self.message}\nVisit {self.tsg_link} to troubleshoot this issue." if self.tsg_link else self.message


class EvaluationValueError(EvaluationException, ValueError):
    """An :class:`EvaluationException` where rapideval raised ``ValueError``."""


class EvaluationTypeError(EvaluationException, TypeError):
    """An :class:`EvaluationException` where rapideval raised ``TypeError``."""


class EvaluationFileNotFoundError(EvaluationException, FileNotFoundError):
    """An :class:`EvaluationException` where rapideval raised ``FileNotFoundError`` (a missing data file)."""


class EvaluationRuntimeError(EvaluationException, RuntimeError):
    """An :class:`EvaluationException` where rapideval raised ``RuntimeError`` (``evaluate``'s
    ``fail_on_evaluator_errors``)."""


class EvaluationInputError(EvaluationException, EvaluatorError):
    """An :class:`EvaluationException` where rapideval raised
    :class:`~rapideval.compat.promptflow.base.EvaluatorError` (an input missing, so nothing to judge): a
    ``ValueError`` too. ``results`` holds the row's results where it was judged, else is empty."""

    def __init__(self, message: str, *, results: Sequence[MetricResult] = (), **kwargs: Any) -> None:
        self.results = list(results)
        super().__init__(message, **kwargs)


# The built-in type (or EvaluatorError) raised before -> the EvaluationException that is also one; the first
# base the type derives from wins.
_KINDS: dict[type[Exception], type[EvaluationException]] = {
    EvaluatorError: EvaluationInputError,
    FileNotFoundError: EvaluationFileNotFoundError,
    TypeError: EvaluationTypeError,
    RuntimeError: EvaluationRuntimeError,
    ValueError: EvaluationValueError,
}


def evaluation_error(
    kind: type[Exception],
    message: str,
    *,
    target: ErrorTarget,
    category: ErrorCategory = ErrorCategory.INVALID_VALUE,
    blame: ErrorBlame = ErrorBlame.USER_ERROR,
) -> EvaluationException:
    """azure's ``EvaluationException(message, target=, category=, blame=)`` as the subclass that is also
    ``kind``, the built-in type (or EvaluatorError) rapideval raised in its place before (for a subclass of
    one of them, the one it derives from; for any other type, EvaluationException itself)."""
    cls = next((ours for base, ours in _KINDS.items() if issubclass(kind, base)), EvaluationException)
    return cls(message, target=target, category=category, blame=blame)
