"""promptflow-evals 0.3.5's safety evaluators on rapideval's judged safety metrics
(:mod:`rapideval.judged.safety`): the same class names, constructors, call keywords and output keys.

promptflow sends every row to Azure's Responsible AI service, which needs an Azure AI project
(``project_scope``) and an Entra credential. These evaluators judge with any OpenAI-compatible model and
rapideval's own rubrics instead: ``project_scope`` and ``credential`` are accepted and ignored. The judge is
the ``model_config=`` keyword when given (an ``AzureOpenAIModelConfiguration`` / ``OpenAIModelConfiguration``,
the same as a dict, or a :class:`~rapideval.llm.JudgeClient`), else the first argument when it is a model
configuration (promptflow's own usage examples pass ``model_config`` there), else the judge from the
environment (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``RAPIDEVAL_JUDGE_MODEL``).

Where promptflow gives NaN (the service failed or returned no label), these raise
:class:`~rapideval.compat.promptflow.base.EvaluatorError` (a ValueError, as promptflow raises for an
empty question or answer), or give it as the row's item in a batch: never a NaN, never a made-up severity.
This module maps names and keys only: prompts, schemas, bands and labels live in the metric layer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ....judged.base import JudgedMetric, MetricResult
from ....judged.safety import (
    HateUnfairness,
    IndirectAttack,
    ProtectedMaterial,
    SelfHarm,
    Sexual,
    Violence,
    conversation_severity,
    severity_label,
)
from .._model_config import is_model_config
from ..base import EvaluatorError, JudgedEvaluator

__all__ = [
    "ContentSafetyChatEvaluator",
    "ContentSafetyEvaluator",
    "HateUnfairnessEvaluator",
    "IndirectAttackEvaluator",
    "ProtectedMaterialEvaluator",
    "SafetyEvaluator",
    "SelfHarmEvaluator",
    "SexualEvaluator",
    "ViolenceEvaluator",
]

# promptflow's output key of each harm metric (``<key>``, ``<key>_score``, ``<key>_reason``), in the order of
# ContentSafetyEvaluator's evaluators.
HARMS: tuple[tuple[type[JudgedMetric], str], ...] = (
    (Violence, "violence"),
    (Sexual, "sexual"),
    (SelfHarm, "self_harm"),
    (HateUnfairness, "hate_unfairness"),
)
_HARM_KEY = {cls.name: key for cls, key in HARMS}


def _judge_config(project_scope: Any, model_config: Any) -> Any:
    """The judge's configuration: ``model_config`` if given, else ``project_scope`` when it is a model
    configuration, else None (the judge from the environment)."""
    if model_config is not None:
        return model_config
    return project_scope if is_model_config(project_scope) else None


def _harm_outputs(result: MetricResult) -> dict[str, Any]:
    key = _HARM_KEY[result.metric]
    return {key: severity_label(result.value), f"{key}_score": result.value, f"{key}_reason": result.reason}


def _check_conversation(conversation: Any) -> list[Mapping[str, Any]]:
    """promptflow's ``_validate_conversation``: a list of ``{"role", "content": str}`` dicts, alternating
    user then assistant, ending with the assistant; ValueError naming the turn (1-based) otherwise."""
    if not isinstance(conversation, list):
        raise ValueError("'conversation' must be a list of dicts with 'role' and 'content'")
    expected = "user"
    for n, turn in enumerate(conversation, 1):
        if not isinstance(turn, dict):
            raise ValueError(f"each turn of 'conversation' must be a dict; turn {n} is a {type(turn).__name__}")
        if "role" not in turn or "content" not in turn:
            raise ValueError(f"each turn of 'conversation' needs 'role' and 'content'; turn {n} lacks one")
        if turn["role"] != expected:
            raise ValueError(f"turn {n} of 'conversation' should have role {expected!r}, got {turn['role']!r}")
        if not isinstance(turn["content"], str):
            raise ValueError(f"the content of turn {n} of 'conversation' must be a str")
        expected = "assistant" if expected == "user" else "user"
    if expected != "user":
        raise ValueError("'conversation' must end with an assistant turn")
    return conversation


class SafetyEvaluator(JudgedEvaluator):
    """Base of the promptflow safety evaluators (and of azure's, which share it): ``project_scope`` and
    ``credential`` accepted and ignored, the judge from ``model_config=``, or from ``project_scope`` when it
    is a model configuration, or the environment."""

    def __init__(self, project_scope: Any = None, credential: Any = None, *, model_config: Any = None) -> None:
        super().__init__(_judge_config(project_scope, model_config))
        # Held as promptflow's evaluators hold them; no request reaches Azure (the judge is rapideval's).
        self.project_scope, self.credential = project_scope, credential


class HarmEvaluator(SafetyEvaluator):
    _METRIC: ClassVar[type[JudgedMetric]]

    def __init__(self, project_scope: Any = None, credential: Any = None, *, model_config: Any = None) -> None:
        super().__init__(project_scope, credential, model_config=model_config)
        self.metrics = (self._METRIC(),)

    def __call__(self, *, question: str, answer: str, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        """Score one (question, answer) pair: ``{<key>: band, <key>_score: 0-7, <key>_reason: str}``."""
        return super().__call__(question=question, answer=answer, **kwargs)

    def outputs(self, results: Sequence[MetricResult]) -> dict[str, Any]:
        return _harm_outputs(results[0])


class ViolenceEvaluator(HarmEvaluator):
    """promptflow-evals 0.3.5 ``ViolenceEvaluator(project_scope, credential=None)``; rapideval adds
    ``model_config=`` (the judge). ``project_scope`` and ``credential`` are accepted and ignored; the judge is
    ``model_config``, else ``project_scope`` when it is a model configuration, else the environment's.

    ``eval_fn(question=..., answer=...)`` -> ``{"violence": "Very low" | "Low" | "Medium" | "High",
    "violence_score": int 0-7, "violence_reason": str}``: :class:`rapideval.judged.safety.Violence` (our
    rubric, scale 0-7, higher = more harmful), one request per row; EvaluatorError where promptflow gives
    NaN or raises (an empty question or answer)."""

    _METRIC = Violence


class SexualEvaluator(HarmEvaluator):
    """promptflow-evals 0.3.5 ``SexualEvaluator(project_scope, credential=None)``; rapideval adds
    ``model_config=``. ``project_scope`` and ``credential`` are accepted and ignored; the judge is
    ``model_config``, else ``project_scope`` when it is a model configuration, else the environment's.

    ``eval_fn(question=..., answer=...)`` -> ``{"sexual": band, "sexual_score": int 0-7, "sexual_reason":
    str}``: :class:`rapideval.judged.safety.Sexual`, scale 0-7, one request per row."""

    _METRIC = Sexual


class SelfHarmEvaluator(HarmEvaluator):
    """promptflow-evals 0.3.5 ``SelfHarmEvaluator(project_scope, credential=None)``; rapideval adds
    ``model_config=``. ``project_scope`` and ``credential`` are accepted and ignored; the judge is
    ``model_config``, else ``project_scope`` when it is a model configuration, else the environment's.

    ``eval_fn(question=..., answer=...)`` -> ``{"self_harm": band, "self_harm_score": int 0-7,
    "self_harm_reason": str}``: :class:`rapideval.judged.safety.SelfHarm`, scale 0-7, one request per row."""

    _METRIC = SelfHarm


class HateUnfairnessEvaluator(HarmEvaluator):
    """promptflow-evals 0.3.5 ``HateUnfairnessEvaluator(project_scope, credential=None)``; rapideval adds
    ``model_config=``. ``project_scope`` and ``credential`` are accepted and ignored; the judge is
    ``model_config``, else ``project_scope`` when it is a model configuration, else the environment's.

    ``eval_fn(question=..., answer=...)`` -> ``{"hate_unfairness": band, "hate_unfairness_score": int 0-7,
    "hate_unfairness_reason": str}``: :class:`rapideval.judged.safety.HateUnfairness`, scale 0-7, one
    request per row."""

    _METRIC = HateUnfairness


class ContentSafetyEvaluator(SafetyEvaluator):
    """promptflow-evals 0.3.5 ``ContentSafetyEvaluator(project_scope, parallel=True, credential=None)``;
    rapideval adds ``model_config=``. ``project_scope`` and ``credential`` are accepted and ignored; the judge
    is ``model_config``, else ``project_scope`` when it is a model configuration, else the environment's.
    ``parallel`` is accepted: the four requests of a row always go out concurrently in one run of the judge,
    within its limits.

    ``eval_fn(question=..., answer=...)`` -> the keys of the four harm evaluators, in promptflow's order
    (violence, sexual, self_harm, hate_unfairness; each ``<key>``, ``<key>_score`` 0-7, ``<key>_reason``).
    Four requests per row, one per harm (the same requests as the single evaluators, so the same values and
    cache entries); one failing harm fails the row (EvaluatorError naming it)."""

    def __init__(
        self, project_scope: Any = None, parallel: bool = True, credential: Any = None, *, model_config: Any = None
    ) -> None:
        super().__init__(project_scope, credential, model_config=model_config)
        self.parallel = parallel
        self.metrics = tuple(cls() for cls, _ in HARMS)

    def __call__(self, *, question: str, answer: str, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        """Score one (question, answer) pair on the four harms."""
        return super().__call__(question=question, answer=answer, **kwargs)

    def outputs(self, results: Sequence[MetricResult]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for r in results:
            out.update(_harm_outputs(r))
        return out


class ContentSafetyChatEvaluator(SafetyEvaluator):
    """promptflow-evals 0.3.5 ``ContentSafetyChatEvaluator(project_scope, eval_last_turn=False, parallel=True,
    credential=None)``; rapideval adds ``model_config=``. ``project_scope`` and ``credential`` are accepted and
    ignored; the judge is ``model_config``, else ``project_scope`` when it is a model configuration, else the
    environment's. ``parallel`` is accepted (every request of a call goes through one run of the judge).

    ``eval_fn(conversation=[{"role": "user", ...}, {"role": "assistant", ...}, ...])``: the conversation must
    alternate user and assistant turns from a user turn to an assistant turn (ValueError otherwise, as
    promptflow); ``eval_last_turn`` keeps its last two messages. Each (user, assistant) pair is judged on the
    four harms (four requests per pair) and the output is promptflow's source's: for each harm ``<key>``
    (the band of the mean), ``<key>_score`` (the mean severity over the turns, a float), then
    ``evaluation_per_turn``: ``{<key>: {"severity": [band...], "score": [int...], "reason": [str...]}}``.
    Where promptflow logs a failed turn and leaves it out, a failed turn here fails the call (EvaluatorError);
    a mean between two bands (1.5) has the lower band's label, where promptflow gives NaN."""

    def __init__(
        self,
        project_scope: Any = None,
        eval_last_turn: bool = False,
        parallel: bool = True,
        credential: Any = None,
        *,
        model_config: Any = None,
    ) -> None:
        super().__init__(project_scope, credential, model_config=model_config)
        self.eval_last_turn, self.parallel = eval_last_turn, parallel
        self.metrics = tuple(cls() for cls, _ in HARMS)

    def __call__(self, *, conversation: list[Any], **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        """Score a conversation: aggregated keys and ``evaluation_per_turn``."""
        return super().__call__(conversation=conversation, **kwargs)

    def _fields(self, kwargs: Mapping[str, Any]) -> list[dict[str, Any]]:
        if "conversation" not in kwargs:
            raise TypeError("ContentSafetyChatEvaluator: missing the keyword 'conversation'")
        turns = _check_conversation(kwargs["conversation"])
        if self.eval_last_turn:
            turns = turns[-2:]
        questions = [t["content"] for t in turns if t["role"] == "user"]
        answers = [t["content"] for t in turns if t["role"] == "assistant"]
        if not questions:
            raise ValueError("'conversation' is empty: there is no turn to judge")
        return [{"user_input": q, "response": a} for q, a in zip(questions, answers, strict=True)]

    def _combine(self, results: Sequence[Sequence[MetricResult]]) -> dict[str, Any] | EvaluatorError:
        flat = [r for row in results for r in row]
        if any(r.status != "ok" for r in flat):
            return EvaluatorError(type(self).__name__, flat)
        out: dict[str, Any] = {}
        per_turn: dict[str, Any] = {}
        for j, (_, key) in enumerate(HARMS):
            scores = [int(turn[j].value) for turn in results]
            out[f"{key}_score"], out[key] = conversation_severity(scores)
            per_turn[key] = {
                "severity": [severity_label(s) for s in scores],
                "score": scores,
                "reason": [turn[j].reason for turn in results],
            }
        out = {k: out[k] for _, key in HARMS for k in (key, f"{key}_score")}
        out["evaluation_per_turn"] = per_turn
        return out


class IndirectAttackEvaluator(SafetyEvaluator):
    """promptflow-evals 0.3.5 ``IndirectAttackEvaluator(project_scope, eval_last_turn=False,
    credential=None)``; rapideval adds ``model_config=``. ``project_scope`` and ``credential`` are accepted and
    ignored; the judge is ``model_config``, else ``project_scope`` when it is a model configuration, else the
    environment's (promptflow's usage example passes ``model_config`` first).

    ``eval_fn(question=..., answer=...)`` as promptflow (the injected instruction is in the question, e.g. a
    pasted document); rapideval also reads ``context=`` (a str or a list of str: the documents the answer
    drew on) and takes ``conversation=`` instead of question and answer (the last message is the answer,
    the earlier ones the question; ``eval_last_turn`` keeps the last two messages; promptflow accepts
    ``eval_last_turn`` and ignores it). Output: ``{"xpia_label": bool, "xpia_reason": str,
    "xpia_manipulated_content": bool, "xpia_intrusion": bool, "xpia_information_gathering": bool}``
    (:class:`rapideval.judged.safety.IndirectAttack`; the label is True when any sub-label is, lower is
    better). One request per row."""

    def __init__(
        self,
        project_scope: Any = None,
        eval_last_turn: bool = False,
        credential: Any = None,
        *,
        model_config: Any = None,
    ) -> None:
        super().__init__(project_scope, credential, model_config=model_config)
        self.eval_last_turn = eval_last_turn
        self.metrics = (IndirectAttack(),)

    def __call__(self, *, question: str | None = None, answer: str | None = None, **kwargs: Any) -> dict[str, Any]:
        """Score a (question, answer) pair, or ``conversation=``: the xpia keys."""
        given = {k: v for k, v in (("question", question), ("answer", answer)) if v is not None}
        return super().__call__(**given, **kwargs)

    def _fields(self, kwargs: Mapping[str, Any]) -> list[dict[str, Any]]:
        conversation = kwargs.get("conversation")
        if conversation is None:
            if "question" not in kwargs and "answer" not in kwargs:
                raise TypeError("IndirectAttackEvaluator: give question and answer, or conversation")
            return [self.fields({k: v for k, v in kwargs.items() if k != "conversation"})]
        if kwargs.get("question") is not None or kwargs.get("answer") is not None:
            raise ValueError("IndirectAttackEvaluator: question and answer are mutually exclusive with conversation")
        turns = _check_conversation(conversation)
        if self.eval_last_turn:
            turns = turns[-2:]
        if not turns:
            raise ValueError("'conversation' is empty: there is no turn to judge")
        messages = [{"role": t["role"], "content": t["content"]} for t in turns[:-1]]
        rest = {k: v for k, v in kwargs.items() if k not in ("conversation", "question", "answer")}
        return [{**self.fields(rest), "user_input": messages, "response": turns[-1]["content"]}]

    def outputs(self, results: Sequence[MetricResult]) -> dict[str, Any]:
        r = results[0]
        return {
            "xpia_label": r.value,
            "xpia_reason": r.reason,
            "xpia_manipulated_content": r.details["manipulated_content"],
            "xpia_intrusion": r.details["intrusion"],
            "xpia_information_gathering": r.details["information_gathering"],
        }


class ProtectedMaterialEvaluator(SafetyEvaluator):
    """promptflow-evals 0.3.5 ``ProtectedMaterialEvaluator(project_scope, credential=None)``; rapideval adds
    ``model_config=``. ``project_scope`` and ``credential`` are accepted and ignored; the judge is
    ``model_config``, else ``project_scope`` when it is a model configuration, else the environment's.

    ``eval_fn(question=..., answer=...)`` -> ``{"protected_material_label": bool,
    "protected_material_reason": str}`` (:class:`rapideval.judged.safety.ProtectedMaterial`: True when the
    answer reproduces a substantial passage of existing text verbatim; a judge cannot check copyright, so
    public-domain text counts too). One request per row."""

    def __init__(self, project_scope: Any = None, credential: Any = None, *, model_config: Any = None) -> None:
        super().__init__(project_scope, credential, model_config=model_config)
        self.metrics = (ProtectedMaterial(),)

    def __call__(self, *, question: str, answer: str, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        """Score one (question, answer) pair: the protected_material keys."""
        return super().__call__(question=question, answer=answer, **kwargs)

    def outputs(self, results: Sequence[MetricResult]) -> dict[str, Any]:
        r = results[0]
        return {"protected_material_label": r.value, "protected_material_reason": r.reason}
