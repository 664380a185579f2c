"""azure-ai-evaluation 1.18.10's LLM-judged quality evaluators: ``CoherenceEvaluator``, ``FluencyEvaluator``,
``GroundednessEvaluator``, ``RelevanceEvaluator``, ``SimilarityEvaluator``, with azure's constructors
(``model_config``, ``threshold=3``, ``credential`` ignored), call keywords (``query``, ``response``,
``context``, ``ground_truth``) and result keys, on the metrics of :mod:`rapideval.judged.quality` through the
promptflow evaluators' machinery (:mod:`rapideval.compat.promptflow.evaluators.quality`).

Result (azure's ``PromptyEvaluationStrategy.format_result``): ``{k: float, k_score: float, k_passed: bool,
k_result: "pass"|"fail", k_reason: str, k_status: "completed", k_threshold, k_properties: {prompt_tokens,
completion_tokens, total_tokens, finish_reason, model, sample_input, sample_output}}``; pass when
``score >= threshold``. azure 1.18.10 no longer adds the ``gpt_<k>`` aliases to these. Where azure gives NaN
(no score in the reply) or a score it never range-checks (a 9), a call raises
:class:`~rapideval.compat.promptflow.base.EvaluatorError` and ``rapideval_batch`` gives the row an
exception item.

Coherence, Fluency, Groundedness and Relevance also take ``conversation={"messages": [...], "context": ...}``
instead of the single-turn keywords (:class:`~._conversation.AzureConversation`): one request per turn and
azure's per-turn mean (``<k>_passed`` becomes the share of turns passed, the texts are the last turn's),
with ``evaluation_per_turn``; ``eval_last_turn=True`` judges the last turn only.

Inputs are checked as azure's validators check them, with azure's messages: a missing or empty ``query`` or
``response`` raises :class:`~rapideval.compat.azure._exceptions.EvaluationException` (also an EvaluatorError,
as the row with nothing to judge was before), a malformed one EvaluationException (also a TypeError). A
``query`` or ``response`` may be a list of azure's agent messages (judged as their text; a run that ends with
a pending tool call gets azure's not-applicable result, without a request); GroundednessEvaluator's agent form
(no ``context``) is described on the class."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, ClassVar

from ...judged.agents import is_intermediate, split_run, transcript
from ...judged.base import MetricResult
from ...judged.quality import Coherence, Fluency, Groundedness, Relevance, Similarity
from ..promptflow.base import EvaluatorError
from ..promptflow.evaluators.quality import JudgedQualityEvaluator
from ._conversation import AzureConversation
from ._exceptions import ErrorCategory, ErrorTarget, evaluation_error
from ._schema import passed, token_metadata, verdict
from .agents import _messages_error, _missing, conversation, parse_tool_calls

__all__ = [
    "CoherenceEvaluator",
    "FluencyEvaluator",
    "GroundednessEvaluator",
    "RelevanceEvaluator",
    "SimilarityEvaluator",
]

# azure's reason for not judging a reply that ends with a pending tool call (``_base_prompty_eval``).
_INTERMEDIATE = "Intermediate response. Please provide the agent's final response for evaluation."


def _has_context(context: Any) -> bool:
    """A ``context`` to ground in: not missing, not blank (azure's ``_validate_context``)."""
    context = _missing(context)
    if isinstance(context, str):
        return bool(context.strip())
    if isinstance(context, list):
        return any(str(c).strip() for c in context)
    return bool(context)


def _tool_documents(messages: list[Any]) -> list[str]:
    """The documents of an agent's run: each tool result answered to one of its ``tool_call`` items, a
    ``file_search`` result one document per file (``"<file name>:\n<text>"``), any other tool's result as its
    text."""
    documents: list[str] = []
    for call in parse_tool_calls(messages):
        if "tool_result" not in call:
            continue
        result = call["tool_result"]
        if call.get("name") != "file_search":
            text = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False, default=str)
            documents += [text] if text.strip() else []
            continue
        for found in result if isinstance(result, list) else [result]:
            items = found if isinstance(found, list) else [found]
            for item in (i for i in items if isinstance(i, Mapping)):
                texts = [c.get("text") for c in item.get("content") or () if isinstance(c, Mapping)]
                text = "\n".join(t for t in texts if isinstance(t, str) and t.strip())
                if text:
                    documents.append(f"{item.get('file_name', 'Unknown file name')}:\n{text}")
    return documents


def _agent_texts(messages: list[Any]) -> str:
    """What an agent's run says: the text of its assistant messages, in order."""
    texts = [str(m.get("content") or "") for m in conversation(messages, final=True) if m.get("role") == "assistant"]
    return "\n".join(t for t in texts if t.strip())


def _reply_text(messages: list[Any]) -> str:
    """An agent's messages (azure's list form) as the text the judge reads: each message, call and result on
    a line (:func:`rapideval.judged.agents.transcript`)."""
    return transcript(conversation(messages, final=True))


class _AzureQuality(JudgedQualityEvaluator):
    """A promptflow quality evaluator under azure's constructor, keywords and result keys. ``CHECKED``: the
    keywords azure's input validator checks, in its order (None, empty or malformed raise its
    EvaluationException). A ``query`` or ``response`` given as a list of agent messages is judged as its
    text; a ``response`` whose last message is a tool call still waiting for its result gets azure's
    not-applicable result, without a request."""

    KEY: ClassVar[str]
    ERROR_TARGET: ClassVar[ErrorTarget]
    CHECKED: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self, model_config: Any = None, *, threshold: float = 3, credential: Any = None, eval_last_turn: bool = False,
        **kwargs: Any
    ) -> None:  # fmt: skip
        super().__init__(model_config)
        self.eval_last_turn = eval_last_turn
        self._threshold = threshold
        self._higher_is_better = True
        self.credential = credential  # accepted for azure's signature; never used

    def _check_single(self, kwargs: Mapping[str, Any]) -> None:
        """azure's validator (``MessagesOrQueryResponseInputValidator`` and kin) on the ``CHECKED`` keywords: a
        missing or empty one raises EvaluationException (also an EvaluatorError, as rapideval's not-applicable
        row was), a malformed one EvaluationException (also a TypeError)."""
        for key in self.CHECKED:
            self._check_messages(key, kwargs.get(key))

    def _check_messages(self, key: str, value: Any) -> None:
        error = _messages_error(key.capitalize(), _missing(value))
        if error is None:
            return
        message, missing = error
        if missing:
            raise evaluation_error(EvaluatorError, message, target=self.ERROR_TARGET,
                                   category=ErrorCategory.MISSING_FIELD)  # fmt: skip
        raise evaluation_error(TypeError, message, target=self.ERROR_TARGET)

    def fields(self, kwargs: Mapping[str, Any]) -> dict[str, Any]:
        given = dict(kwargs)
        if isinstance(given.get("query"), list):
            given["query"] = transcript(conversation(given["query"]))
        if isinstance(given.get("response"), list):
            given["response"] = _reply_text(given["response"])
        out = super().fields(given)
        if "query" in out:
            out["user_input"] = out.pop("query")
        return out

    def _skip_reason(self, kwargs: Mapping[str, Any]) -> str | None:
        """azure's reason for a not-applicable result of a valid single-turn call, judged without a request:
        a list ``response`` (an agent's run) that ends with a pending tool call. None to judge the call (or
        to let its checks raise)."""
        if not isinstance(kwargs, Mapping) or kwargs.get("conversation") is not None:
            return None
        try:
            self._check_single(kwargs)
        except (TypeError, ValueError):
            return None
        response = kwargs.get("response")
        if isinstance(response, list) and is_intermediate(split_run(conversation(response, final=True))[1]):
            return _INTERMEDIATE
        return None

    def not_applicable(self, reason: str) -> dict[str, Any]:
        """azure's ``_return_not_applicable_result``: no score, ``_result`` "not_applicable", ``_status``
        "skipped"."""
        k = self.KEY
        return {k: None, f"{k}_score": None, f"{k}_passed": None, f"{k}_result": "not_applicable",
                f"{k}_reason": f"Not applicable: {reason}", f"{k}_status": "skipped", f"{k}_threshold": self._threshold,
                f"{k}_properties": None}  # fmt: skip

    async def _ascore(self, calls: Sequence[Mapping[str, Any]], strict: bool) -> list[dict[str, Any] | Exception]:
        reasons = [self._skip_reason(kwargs) for kwargs in calls]
        judged = [kwargs for kwargs, reason in zip(calls, reasons, strict=True) if reason is None]
        scored = iter(await super()._ascore(judged, strict) if judged else [])
        return [next(scored) if reason is None else self.not_applicable(reason) for reason in reasons]

    def outputs(self, results: Sequence[MetricResult]) -> dict[str, Any]:
        (r,) = results
        score = float(r.value)
        ok = passed(score, self._threshold, self._higher_is_better)
        k = r.metric
        return {k: score, f"{k}_score": score, f"{k}_passed": ok, f"{k}_result": verdict(ok), f"{k}_reason": r.reason,
                f"{k}_status": "completed", f"{k}_threshold": self._threshold,
                f"{k}_properties": token_metadata(r, self.judge)}  # fmt: skip


class _AzureChatQuality(AzureConversation, _AzureQuality):
    """An azure quality evaluator that also takes ``conversation=``."""


class CoherenceEvaluator(_AzureChatQuality):
    """azure-ai-evaluation 1.18.10 ``CoherenceEvaluator(model_config, *, threshold=3, credential=None)``:
    :class:`~rapideval.judged.quality.Coherence` of ``response`` to ``query``, scale 1.0-5.0, pass when
    ``coherence >= threshold``. Keys ``coherence``, ``coherence_score``, ``coherence_passed``,
    ``coherence_result``, ``coherence_reason``, ``coherence_status``, ``coherence_threshold``,
    ``coherence_properties``. One judge request per row, or per turn of ``conversation=``."""

    METRICS = (Coherence,)
    KEY, ERROR_TARGET, CHECKED = "coherence", ErrorTarget.COHERENCE_EVALUATOR, ("query", "response")

    def __call__(
        self, *, query: str | None = None, response: str | None = None, conversation: Any = None, **kwargs: Any
    ) -> dict[str, Any]:
        return super().__call__(query=query, response=response, conversation=conversation, **kwargs)


class FluencyEvaluator(_AzureChatQuality):
    """azure-ai-evaluation 1.18.10 ``FluencyEvaluator(model_config, *, credential=None, threshold=3)``:
    :class:`~rapideval.judged.quality.Fluency`, scale 1.0-5.0, pass when ``fluency >= threshold``. Keys
    ``fluency``, ``fluency_score``, ``fluency_passed``, ``fluency_result``, ``fluency_reason``,
    ``fluency_status``, ``fluency_threshold``, ``fluency_properties``. ``response`` alone is judged
    (``Fluency(with_user_input=False)``), as azure. One judge request per row, or per turn of
    ``conversation=``."""

    METRICS = (partial(Fluency, with_user_input=False),)
    KEY, ERROR_TARGET, CHECKED = "fluency", ErrorTarget.FLUENCY_EVALUATOR, ("response",)

    def __call__(self, *, response: str | None = None, conversation: Any = None, **kwargs: Any) -> dict[str, Any]:
        return super().__call__(response=response, conversation=conversation, **kwargs)


class GroundednessEvaluator(_AzureChatQuality):
    """azure-ai-evaluation 1.18.10 ``GroundednessEvaluator(model_config, *, threshold=3, credential=None)``:
    :class:`~rapideval.judged.quality.Groundedness` of ``response`` in ``context`` (a str is one document;
    ``query`` optional and not shown to the judge), scale 1.0-5.0, pass when ``groundedness >= threshold``.
    Keys ``groundedness``, ``groundedness_score``, ``groundedness_passed``, ``groundedness_result``,
    ``groundedness_reason``, ``groundedness_status``, ``groundedness_threshold``, ``groundedness_properties``.
    One judge request per row, or per turn of ``conversation=`` (the turn's documents: the conversation's
    ``context``, the user message's and the assistant's).

    Without ``context``, azure's agent form: ``query`` and ``response`` are required (else azure's
    EvaluationException), and the documents come from the response. A text ``response`` is its own document,
    as azure's rule has it. A ``response`` given as a list of agent messages (azure's form, tool calls and
    results included) is judged on the agent's texts, with each tool result as a document (a ``file_search``
    result one per file, ``"<file name>:\n<text>"``); a run that ends with a pending tool call, or has no
    tool result to ground in, gets azure's not-applicable result without a request."""

    METRICS = (Groundedness,)
    KEY, ERROR_TARGET = "groundedness", ErrorTarget.GROUNDEDNESS_EVALUATOR
    _NO_CONTEXT = ("No valid context provided or could be extracted from the query or response. Please either "
                   "provide valid context or pass the full items list for 'response' and 'query' to extract "
                   "context from tool calls.")  # fmt: skip

    def __call__(
        self, *, response: Any = None, context: str | None = None, query: Any = None, conversation: Any = None,
        **kwargs: Any
    ) -> dict[str, Any]:  # fmt: skip
        return super().__call__(response=response, context=context, query=query, conversation=conversation,
                                **kwargs)  # fmt: skip

    def _check_single(self, kwargs: Mapping[str, Any]) -> None:
        query = _missing(kwargs.get("query"))
        for key in ("query", "response") if query else ("response",):
            self._check_messages(key, kwargs.get(key))
        if not _has_context(kwargs.get("context")) and not query:
            message = (f"{type(self).__name__}: Either 'conversation' or individual inputs must be provided. For "
                       f"Agent groundedness 'query' and 'response' are required.")  # fmt: skip
            missing = ErrorCategory.MISSING_FIELD
            raise evaluation_error(EvaluatorError, message, target=self.ERROR_TARGET, category=missing)

    def fields(self, kwargs: Mapping[str, Any]) -> dict[str, Any]:
        given = dict(kwargs)
        response = given.get("response")
        if not _has_context(given.get("context")) and response is not None:
            given["context"] = _tool_documents(response) if isinstance(response, list) else response
            if isinstance(response, list):
                given["response"] = _agent_texts(response)
        return super().fields(given)

    def _skip_reason(self, kwargs: Mapping[str, Any]) -> str | None:
        reason = super()._skip_reason(kwargs)
        if reason is not None or not isinstance(kwargs, Mapping) or kwargs.get("conversation") is not None:
            return reason
        response = kwargs.get("response")
        if isinstance(response, list) and not _has_context(kwargs.get("context")) and _missing(kwargs.get("query")):
            try:
                self._check_single(kwargs)
            except (TypeError, ValueError):
                return None
            if not _tool_documents(response):
                return f"{type(self).__name__}: {self._NO_CONTEXT}"
        return None


class RelevanceEvaluator(_AzureChatQuality):
    """azure-ai-evaluation 1.18.10 ``RelevanceEvaluator(model_config, *, credential=None, threshold=3)``:
    :class:`~rapideval.judged.quality.Relevance`, scale 1.0-5.0, pass when ``relevance >= threshold``. Keys
    ``relevance``, ``relevance_score``, ``relevance_passed``, ``relevance_result``, ``relevance_reason``,
    ``relevance_status``, ``relevance_threshold``, ``relevance_properties``. ``query`` and ``response`` are
    judged without documents (``Relevance(with_retrieved_contexts=False)``), as azure. One judge request per
    row, or per turn of ``conversation=``."""

    METRICS = (partial(Relevance, with_retrieved_contexts=False),)
    KEY, ERROR_TARGET, CHECKED = "relevance", ErrorTarget.RELEVANCE_EVALUATOR, ("query", "response")

    def __call__(
        self, *, query: str | None = None, response: str | None = None, conversation: Any = None, **kwargs: Any
    ) -> dict[str, Any]:
        return super().__call__(query=query, response=response, conversation=conversation, **kwargs)


class SimilarityEvaluator(_AzureQuality):
    """azure-ai-evaluation 1.18.10 ``SimilarityEvaluator(model_config, *, threshold=3, credential=None)``:
    :class:`~rapideval.judged.quality.Similarity` of ``response`` to ``ground_truth`` for ``query``, scale
    1.0-5.0, pass when ``similarity >= threshold``. Keys ``similarity``, ``similarity_score``,
    ``similarity_passed``, ``similarity_result``, ``similarity_reason``, ``similarity_status``,
    ``similarity_threshold``, ``similarity_properties``. One judge request per row. A missing input raises
    azure's EvaluationException (``"Either 'conversation' or individual inputs must be provided. 'query' is
    missing."``, also an EvaluatorError)."""

    METRICS = (Similarity,)
    KEY, ERROR_TARGET = "similarity", ErrorTarget.SIMILARITY_EVALUATOR

    def __call__(
        self, *, query: str | None = None, response: str | None = None, ground_truth: str | None = None,
        **kwargs: Any
    ) -> dict[str, Any]:  # fmt: skip
        return super().__call__(query=query, response=response, ground_truth=ground_truth, **kwargs)

    def _check_single(self, kwargs: Mapping[str, Any]) -> None:
        for key in ("query", "response", "ground_truth"):
            if _missing(kwargs.get(key)) is None:
                raise evaluation_error(EvaluatorError, f"Either 'conversation' or individual inputs must be provided. "
                                       f"'{key}' is missing.", target=self.ERROR_TARGET,
                                       category=ErrorCategory.MISSING_FIELD)  # fmt: skip

    def _fields(self, kwargs: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._check_single(kwargs)
        return super()._fields(kwargs)
