"""azure-ai-evaluation 1.18.10's ``conversation=`` on its evaluators (``EvaluatorBase._derive_conversation_converter``
and ``_aggregate_results``): a conversation ``{"messages": [...], "context": optional}`` is cut into turns (the
n-th user message with the n-th assistant message), each turn is scored as a call with ``query`` and
``response`` would be, and the turns' outputs are combined by azure's rule. Names and rules only: the scores
come from the metric layer."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Literal

from ...judged.base import MetricResult
from ..promptflow.base import EvaluatorError
from ._exceptions import ErrorTarget, evaluation_error

__all__ = ["AzureConversation", "aggregate_turns"]

# azure's single-turn keywords that a conversation replaces.
_TURN_KEYWORDS = ("query", "response", "context", "ground_truth")
# Keys of a non-numeric output that azure keeps in ``evaluation_per_turn`` only.
_PER_TURN_ONLY = ("_total_tokens", "_prompt_tokens", "_completion_tokens", "_finish_reason", "_sample_input",
                  "_sample_output", "_model", "_details")  # fmt: skip


def mean(values: Sequence[float]) -> float:
    """azure's ``list_mean``: ``sum(values) / len(values)`` (Python's sum, left to right)."""
    return sum(values) / len(values)


_AGGREGATORS: dict[str, Callable[[list[Any]], Any]] = {"mean": mean, "max": max}


def aggregate_turns(per_turn: Sequence[Mapping[str, Any]], aggregate: Callable[[list[Any]], Any]) -> dict[str, Any]:
    """azure's ``EvaluatorBase._aggregate_results``: each key whose turn values are all numbers (bools too,
    as Python counts them) is ``aggregate`` of them; any other key takes the last turn's value, except the
    token, model and detail keys; ``evaluation_per_turn`` holds every key's list of values."""
    evaluation_per_turn: dict[str, list[Any]] = {}
    for turn in per_turn:
        for key, value in turn.items():
            evaluation_per_turn.setdefault(key, []).append(value)
    out: dict[str, Any] = {}
    for key, values in evaluation_per_turn.items():
        if all(isinstance(v, (int, float)) for v in values):
            out[key] = aggregate(values)
        elif not key.endswith(_PER_TURN_ONLY):
            out[key] = values[-1]
    out["evaluation_per_turn"] = evaluation_per_turn
    return out


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


class AzureConversation:
    """Mixin for an azure evaluator on the promptflow evaluators' machinery: a call with ``conversation=``
    is one row of fields per turn, built by the evaluator's own single-turn :meth:`_fields` from the turn's
    ``query`` (the user message's content), ``response`` (the assistant's) and, where the evaluator takes
    ``context``, the turn's documents: the conversation's ``context``, the user message's and the
    assistant's, each present one a document. ``eval_last_turn`` keeps the last two messages. One turn's
    output is the call's output; several are combined by :func:`aggregate_turns` by ``AGGREGATION``. A
    failed turn fails the call (azure raises too). A call without ``conversation`` is first checked by
    :meth:`_check_single` (azure's input validators). Errors are azure's
    :class:`~rapideval.compat.azure._exceptions.EvaluationException` (also ``ValueError``): both
    ``conversation`` and single-turn keywords (azure's message); and, where azure goes on with nothing,
    rapideval's: a conversation that is not ``{"messages": [dict, ...]}``, non-text content (azure's
    multi-modal path), no complete (user, assistant) turn (azure returns ``{}``)."""

    # How the turns' numbers combine, by azure's ``_AggregationType`` of the evaluator.
    AGGREGATION: ClassVar[Literal["mean", "max"]] = "mean"
    #: azure's ``ErrorTarget`` of the evaluator's input errors.
    ERROR_TARGET: ClassVar[ErrorTarget] = ErrorTarget.UNKNOWN
    eval_last_turn: bool = False

    def _fields(self, kwargs: Mapping[str, Any]) -> list[dict[str, Any]]:
        conversation = kwargs.get("conversation")
        rest = {k: v for k, v in kwargs.items() if k != "conversation"}
        if conversation is None:
            self._check_single(rest)
            return self._turn_fields(rest)
        if any(kwargs.get(k) is not None for k in _TURN_KEYWORDS):
            raise evaluation_error(ValueError, f"{type(self).__name__}: Cannot provide both 'conversation' and "
                                   f"individual inputs at the same time.", target=ErrorTarget.CONVERSATION)  # fmt: skip
        return [row for turn in self._turns(conversation) for row in self._turn_fields({**rest, **turn})]

    def _check_single(self, kwargs: Mapping[str, Any]) -> None:
        """azure's checks of a single-turn call's keywords: the evaluator's own (the next class's), if any;
        they raise azure's EvaluationException."""
        check = getattr(super(), "_check_single", None)
        if check is not None:
            check(kwargs)

    def _invalid(self, message: str) -> Exception:
        return evaluation_error(ValueError, f"{type(self).__name__}: {message}", target=self.ERROR_TARGET)

    def _turn_fields(self, kwargs: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The rows of fields of one turn's single-turn keywords: the evaluator's own ``_fields``."""
        return super()._fields(kwargs)  # type: ignore[misc, no-any-return]

    def _turns(self, conversation: Any) -> list[dict[str, Any]]:
        """The single-turn keywords of each turn of ``conversation``."""
        messages = conversation.get("messages") if isinstance(conversation, Mapping) else None
        if not isinstance(messages, list) or not all(isinstance(m, Mapping) for m in messages):
            raise self._invalid("'conversation' must be a dict with 'messages', a list of dicts")
        for n, m in enumerate(messages, 1):
            if m.get("role") in ("user", "assistant") and not isinstance(m.get("content"), str):
                raise self._invalid(f"message {n} of 'conversation' has no text content (multi-modal "
                                    f"conversations are not supported)")  # fmt: skip
        if self.eval_last_turn and len(messages) > 1:
            messages = messages[-2:]
        users = [m for m in messages if m.get("role") == "user"]
        assistants = [m for m in messages if m.get("role") == "assistant"]
        if not users or not assistants:
            raise self._invalid("'conversation' has no turn to judge (a user message and an assistant's)")
        takes_context = "context" in inspect.signature(type(self).__call__).parameters
        turns = []
        for user, assistant in zip(users, assistants, strict=False):
            turn: dict[str, Any] = {"query": user["content"], "response": assistant["content"]}
            if takes_context:
                given = (conversation.get("context"), user.get("context"), assistant.get("context"))
                turn["context"] = [_text(c) for c in given if c]
            turns.append(turn)
        return turns

    def _combine(self, results: Sequence[Sequence[MetricResult]]) -> dict[str, Any] | EvaluatorError:
        flat = [r for row in results for r in row]
        if any(r.status != "ok" for r in flat):
            return EvaluatorError(type(self).__name__, flat)
        per_turn = [self.outputs(row) for row in results]  # type: ignore[attr-defined]
        return per_turn[0] if len(per_turn) == 1 else aggregate_turns(per_turn, _AGGREGATORS[self.AGGREGATION])
