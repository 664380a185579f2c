"""Judged metrics of AI agents, as azure-ai-evaluation 1.18.10's agent evaluators measure them:
``ResponseCompleteness``, ``IntentResolution``, ``TaskAdherence`` and ``ToolCallAccuracy``.

Each is one request per row. A row is single-turn (``user_input`` the request, ``response`` the agent's
reply, both text) or an agent run: ``user_input`` a conversation (``{"role": "user" | "assistant" | "tool",
"content": str}`` messages, assistant messages with ``tool_calls``) whose messages after the last user
message are the agent's reply to it, tool calls and tool results included (:func:`split_run`); a
``response`` given with it is the reply's last message. A run whose reply is missing, or ends with a tool call
still waiting for its result (:func:`is_intermediate`, azure's intermediate response), is ``not_applicable``
and costs no request.

Verdicts are pydantic models whose ranges the runtime enforces: a level of 1 to 5 (``ResponseCompleteness``,
``IntentResolution``, ``ToolCallAccuracy``), a material-failure flag (``TaskAdherence``, whose value 0 or 1
is :func:`adherence_score`). A reply outside them (a 9, a 0, ``"yes"``) is re-asked once, then an ``error``
result, never coerced (azure takes ``ResponseCompleteness``'s and ``TaskAdherence``'s numbers unchecked).
``ToolCallAccuracy`` also gives azure's per-tool details, its totals computed from the per-tool verdicts
(:func:`tool_call_summary`). The prompts and rubrics are ours, never azure's; the signature hashes the
requests as sent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from .base import ENTITY_CHARS, REASON_CHARS, Ask, JudgedMetric, NotApplicable, Stage, is_conversation

__all__ = [
    "INTERMEDIATE",
    "IntentResolution",
    "ResponseCompleteness",
    "TaskAdherence",
    "ToolCallAccuracy",
    "adherence_passed",
    "adherence_score",
    "is_intermediate",
    "split_run",
    "tool_call_summary",
    "transcript",
]

INTERMEDIATE = (
    "intermediate response: the agent's last message is a tool call still waiting for its result; "
    "give the agent's final response"
)
"""Why a run that ends with a pending tool call is not judged (azure: "Intermediate response")."""

_NO_REPLY = "the conversation has no reply of the agent after its last user message"
_NO_REQUEST = "the conversation has no user message, so no request to judge the reply against"

# The longest lists of a tool-call verdict: a reply stays bounded even from a judge that loops.
MAX_TOOLS = 10
MAX_CALLS = 100


# Runs ----------------------------------------------------------------------------------------------------


def split_run(conversation: Sequence[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """(history, reply) of an agent run: the messages up to and including the last user message, and the
    agent's messages after it (all of them when no message is the user's)."""
    last = max((i for i, m in enumerate(conversation) if m.get("role") == "user"), default=-1)
    return list(conversation[: last + 1]), list(conversation[last + 1 :])


def is_intermediate(reply: Sequence[Mapping[str, Any]]) -> bool:
    """Whether an agent's reply is not final: its last message is an assistant message that calls tools, whose
    results have not come back."""
    return bool(reply) and reply[-1].get("role") == "assistant" and bool(reply[-1].get("tool_calls"))


def transcript(messages: Sequence[Mapping[str, Any]]) -> str:
    """An agent's messages as text, in order: each message's text, tool call and tool result on a line of its
    own (``assistant: ...``, ``assistant calls the tool <name> with <args JSON>``, ``tool result: ...``)."""
    lines: list[str] = []
    for m in messages:
        role, content = m["role"], m.get("content") or ""
        if role == "tool":
            lines.append(f"tool result: {content}")
            continue
        if content.strip() or not m.get("tool_calls"):
            lines.append(f"{role}: {content}")
        for call in m.get("tool_calls") or ():
            args = json.dumps(call.get("args", {}), ensure_ascii=False, sort_keys=True, default=str)
            lines.append(f"{role} calls the tool {call['name']} with {args}")
    return "\n".join(lines)


def _reply(fields: Mapping[str, Any], needs_request: bool) -> tuple[Any, str] | str:
    """(the request, the agent's reply as text) of a row, or why it is not applicable."""
    request: Any = fields.get("user_input")
    response: Any = fields.get("response")
    if not is_conversation(request):
        return request, response
    history, reply = split_run(request)
    if isinstance(response, str) and response.strip():
        reply.append({"role": "assistant", "content": response})
    if not reply:
        return _NO_REPLY
    if is_intermediate(reply):
        return INTERMEDIATE
    if needs_request and not history:
        return _NO_REQUEST
    return history, transcript(reply)


# Formulas --------------------------------------------------------------------------------------------------


def adherence_score(material_failure: bool) -> int:
    """TaskAdherence's value from its verdict: 0 when the reply has a material failure, else 1 (azure's 0/1
    score)."""
    return 0 if material_failure else 1


def adherence_passed(score: float) -> bool:
    """azure 1.18.10 ``TaskAdherenceEvaluator``'s pass rule: ``score >= 1.0``, whatever its threshold."""
    return score >= 1.0


def tool_call_summary(
    calls_made: int,
    per_tool: Sequence[Mapping[str, Any]],
    excess: Sequence[tuple[str, int]],
    missing: Sequence[tuple[str, int]],
) -> dict[str, Any]:
    """azure's tool-call details from per-tool verdicts (``tool_name``, ``total_calls_required``,
    ``correct_calls_made_by_agent``, ``tool_call_errors``, ``tool_success_result``), the unneeded and the
    missing calls per tool: the totals are sums of the per-tool counts, ``tool_calls_made_by_agent`` the number
    of calls judged, and ``correct_tool_percentage`` a tool's correct calls over its required ones (at most
    1.0; 0.0 for a tool no call of which was required)."""
    details = []
    for t in per_tool:
        required, correct = t["total_calls_required"], t["correct_calls_made_by_agent"]
        share = min(correct, required) / required if required else 0.0
        details.append({"tool_name": t["tool_name"], "total_calls_required": required,
                        "correct_calls_made_by_agent": correct, "correct_tool_percentage": share,
                        "tool_call_errors": t["tool_call_errors"],
                        "tool_success_result": t["tool_success_result"]})  # fmt: skip
    return {
        "tool_calls_made_by_agent": calls_made,
        "correct_tool_calls_made_by_agent": sum(t["correct_calls_made_by_agent"] for t in per_tool),
        "per_tool_call_details": details,
        "excess_tool_calls": {"total": sum(n for _, n in excess),
                              "details": [{"tool_name": name, "excess_count": n} for name, n in excess]},
        "missing_tool_calls": {"total": sum(n for _, n in missing),
                               "details": [{"tool_name": name, "missing_count": n} for name, n in missing]},
    }  # fmt: skip


# Verdicts ---------------------------------------------------------------------------------------------------


class _Level(BaseModel):
    reason: str = Field(max_length=REASON_CHARS, description="one or two sentences on what decided the score")
    score: int = Field(ge=1, le=5, strict=True, description="the level of the scale that fits best, 1 to 5")


class _Adherence(BaseModel):
    reason: str = Field(max_length=REASON_CHARS, description="one or two sentences citing the evidence")
    material_failure: bool = Field(strict=True, description="true if the reply has at least one material failure")


class _ToolVerdict(BaseModel):
    tool_name: str = Field(max_length=ENTITY_CHARS)
    total_calls_required: int = Field(ge=0, le=MAX_CALLS, strict=True)
    correct_calls_made_by_agent: int = Field(ge=0, le=MAX_CALLS, strict=True)
    tool_call_errors: int = Field(ge=0, le=MAX_CALLS, strict=True)
    tool_success_result: Literal["pass", "fail"]


class _ToolCount(BaseModel):
    tool_name: str = Field(max_length=ENTITY_CHARS)
    count: int = Field(ge=1, le=MAX_CALLS, strict=True)


class _ToolCalls(BaseModel):
    reason: str = Field(max_length=REASON_CHARS, description="one or two sentences on what decided the score")
    per_tool: list[_ToolVerdict] = Field(max_length=MAX_TOOLS, description="each tool called or needed")
    excess_calls: list[_ToolCount] = Field(max_length=MAX_TOOLS, description="unneeded calls, per tool")
    missing_calls: list[_ToolCount] = Field(max_length=MAX_TOOLS, description="needed calls not made, per tool")
    score: int = Field(ge=1, le=5, strict=True, description="the level of the scale that fits best, 1 to 5")


# Prompts ---------------------------------------------------------------------------------------------------

_REPLY = "the agent's reply in <response> (its messages, and the tools it called with their results, one line each)"
_REQUEST = (
    "the user's request in <user_input> (a question, or the conversation up to and including the user's "
    "last message, which is the request)"
)
_TOOLS = "when given, the tools the agent could use in <tool_definitions>, one <tool> each"


def _prompt(task: str, given: Sequence[str], levels: Sequence[str], answer: str) -> str:
    scale = "\n".join(f"{n}: {text}" for n, text in enumerate(levels, 1))
    rubric = f"Score on this scale:\n{scale}\n\n" if levels else ""
    return f"{task}\n\nYou are given {'; '.join(given)}.\n\n{rubric}{answer}"


class _AgentMetric(JudgedMetric):
    """One request per row, built by :meth:`_data` (the blocks to show, or why the row is not applicable),
    and its verdict ``SCHEMA``."""

    INSTRUCTIONS: ClassVar[str]
    SCHEMA: ClassVar[type[BaseModel]]
    FIELD: ClassVar[str] = "score"
    scale = (1.0, 5.0)

    def __init__(self, name: str | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.name = name or self.name

    def _data(self, fields: Mapping[str, Any]) -> dict[str, Any] | str:
        raise NotImplementedError

    def _ask(self, fields: Mapping[str, Any]) -> Ask | None:
        data = self._data(fields)
        return Ask(self.INSTRUCTIONS, data, self.SCHEMA, self.FIELD) if isinstance(data, dict) else None

    def stages(self) -> tuple[Stage, ...]:
        return (Stage("verdict", lambda fields, earlier: self._ask(fields)),)

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        if "verdict" not in results:
            raise NotApplicable(str(self._data(fields)))
        r = results["verdict"]
        return int(r.value), r.verdicts[0].reason, {}


class ResponseCompleteness(_AgentMetric):
    """azure-ai-evaluation 1.18.10 ``ResponseCompletenessEvaluator``'s measure: how much of the ground truth's
    information the agent's response states correctly. Fields ``response`` and ``reference`` (the ground
    truth); or ``user_input`` an agent run, whose reply (the messages after the last user message, or all
    of them) is the response, and ``reference``. Scale 1-5 integers, higher = more complete. One request per
    row. Differs from azure: a run ending with a pending tool call is ``not_applicable`` whatever the call's
    format (azure looks for ``function_call`` and MCP approval requests only); a level outside 1-5 is an
    error (azure keeps it: a 9 passes)."""

    name = "response_completeness"
    required: tuple[str, ...] = ("response", "reference")
    multi_turn: tuple[str, ...] | None = ("user_input", "reference")
    SCHEMA = _Level
    INSTRUCTIONS = _prompt(
        "You rate the completeness of an agent's response against a ground truth: how much of the ground "
        "truth's information (its facts, claims and conclusions) the response states, and states correctly. "
        "Go through the statements of the ground truth one by one and check whether the response contains each. "
        "Information in the response that the ground truth does not have counts neither for nor against it.",
        (_REPLY, "the ground truth in <reference>"),
        (
            "none of the ground truth's information is in the response, or it is all stated wrongly",
            "a small part of the ground truth's information is in the response",
            "about half of the ground truth's information is in the response",
            "most of the ground truth's information is in the response, with small omissions",
            "all of the ground truth's information is in the response, correctly",
        ),
        "Give the score that fits best and a short reason.",
    )

    def _data(self, fields: Mapping[str, Any]) -> dict[str, Any] | str:
        found = _reply(fields, needs_request=False)
        return found if isinstance(found, str) else {"response": found[1], "reference": fields.get("reference")}


class _ReplyToRequest(_AgentMetric):
    """A verdict on the agent's reply to the user's request, the tools it could use shown when given."""

    required: tuple[str, ...] = ("user_input", "response")
    optional: tuple[str, ...] = ("tool_definitions",)
    multi_turn: tuple[str, ...] | None = ("user_input",)

    def _data(self, fields: Mapping[str, Any]) -> dict[str, Any] | str:
        found = _reply(fields, needs_request=True)
        if isinstance(found, str):
            return found
        request, reply = found
        return {"user_input": request, "response": reply, "tool_definitions": fields.get("tool_definitions")}


class IntentResolution(_ReplyToRequest):
    """azure-ai-evaluation 1.18.10 ``IntentResolutionEvaluator``'s measure: how well the agent's reply resolves
    what the user asked for in their last message. Fields ``user_input`` (the request, or the agent run) and
    ``response`` (the reply; part of the run when ``user_input`` is one), ``tool_definitions`` shown when
    given. Scale 1-5 integers, higher = better resolved. One request per row. Differs from azure: the judge
    sees the reply's tool calls and results too (azure shows the reply's text only); a run ending with a
    pending tool call of any format is ``not_applicable``."""

    name = "intent_resolution"
    SCHEMA = _Level
    INSTRUCTIONS = _prompt(
        "You rate how well an AI agent resolved what the user wanted. Work out what the user asked for in "
        "their last message, read in the light of the conversation before it, then judge whether the agent's "
        "reply delivers it: whether it answers or carries out the request correctly and fully, or leaves it "
        "unresolved. Judge the outcome for the user, not the style of the reply.",
        (_REQUEST, _REPLY, _TOOLS),
        (
            "the reply ignores or misreads the request, or does nothing towards it",
            "the reply addresses the request but resolves little of it, or resolves it wrongly",
            "the reply resolves the request in part: important parts are missing, vague or unreliable",
            "the reply resolves the request, with small gaps or inaccuracies",
            "the reply resolves the request fully and accurately",
        ),
        "Give the score that fits best and a short reason.",
    )


class TaskAdherence(_ReplyToRequest):
    """azure-ai-evaluation 1.18.10 ``TaskAdherenceEvaluator``'s measure: whether the agent's reply carries out
    the user's task without a material failure (of its goal, of the rules it was given, or of the procedure:
    tools, order, confirmations). Fields as :class:`IntentResolution`'s. Value 0 (a material failure) or 1
    (none): :func:`adherence_score` of the verdict's flag; higher is better. One request per row. Differs from
    azure: the judge gives a flag that is mapped to the score (azure asks for the 0/1 score and takes any
    number it gets); the agent's system message, which a conversation here has no role for, is not shown."""

    name = "task_adherence"
    scale = (0.0, 1.0)
    SCHEMA = _Adherence
    FIELD = "material_failure"
    INSTRUCTIONS = _prompt(
        "You review whether an AI agent carried out the user's task as asked. Look for material failures only: "
        "the reply does not achieve the user's goal, or goes beyond what was asked; it breaks a constraint or "
        "rule set by the user or the conversation (what may be done, disclosed or changed, the format asked "
        "for); it skips a required step, uses tools wrongly or in the wrong order, or acts without a "
        "confirmation it needed; or it reports results the tool outputs do not support. A material failure "
        "makes the outcome unusable, wrong or risky; small flaws of style or detail are not material. When in "
        "doubt, there is no material failure.",
        (_REQUEST, _REPLY, _TOOLS),
        (),
        "Give a short reason citing the evidence, then material_failure: true if the reply has at least one "
        "material failure, false if it has none.",
    )

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        if "verdict" not in results:
            raise NotApplicable(str(self._data(fields)))
        r = results["verdict"]
        return adherence_score(r.value), r.verdicts[0].reason, {"material_failure": r.value}


class ToolCallAccuracy(_AgentMetric):
    """azure-ai-evaluation 1.18.10 ``ToolCallAccuracyEvaluator``'s measure: how well the agent's tool calls serve
    the user's last request: the right tools, arguments that follow their definitions and come from the
    conversation, none missing, none unneeded or repeated, failures recovered. Fields ``user_input`` (the
    request, or the conversation up to the calls), ``tool_calls`` (the calls judged, ``{"name", "args"[,
    "result"]}``) and ``tool_definitions``. Scale 1-5 integers, higher = more accurate. One request per row.
    ``details`` are azure's: per tool the calls required, made correctly and failed, pass or fail, and the
    unneeded and missing calls per tool, the totals from :func:`tool_call_summary`. Differs from azure: those
    totals are computed from the per-tool verdicts (azure asks the judge for them too); a call to a tool
    without a definition is judged as an incorrect call (azure's evaluator does not judge such a row:
    :mod:`rapideval.compat.azure` makes it ``not_applicable`` before asking)."""

    name = "tool_call_accuracy"
    required: tuple[str, ...] = ("user_input", "tool_calls", "tool_definitions")
    multi_turn: tuple[str, ...] | None = ("user_input", "tool_calls", "tool_definitions")
    SCHEMA = _ToolCalls
    INSTRUCTIONS = _prompt(
        "You rate the tool calls an AI agent made to answer the user's last request. Judge the calls in "
        "<tool_calls> together; tool calls earlier in the conversation are context only. Check whether they are "
        "the right tools for the request, whether each call's arguments follow the tool's definition and take "
        "their values from the conversation rather than inventing them, whether a needed call is missing, "
        "whether a call is unneeded or repeats another with the same arguments, and whether failed calls were "
        "retried successfully. A call to a tool that has no definition is an incorrect call.",
        (
            _REQUEST,
            "the calls to judge in <tool_calls>, one <tool> each with its arguments and, when known, its result",
            "the definitions of the tools in <tool_definitions>, one <tool> each",
        ),
        (
            "the calls are irrelevant to the request",
            "the calls are partly relevant, but needed calls are missing or arguments are wrong or invented",
            "the calls are relevant and correct, but some are unneeded or repeated",
            "the calls are relevant and correct; some failed and were retried successfully",
            "the calls are relevant, complete and correct, with correct arguments",
        ),
        "Give a short reason. Then list each tool that was called or should have been: the calls the request "
        "needed, the calls made correctly, the calls that returned errors, and pass or fail for the tool; list "
        "the unneeded calls and the missing calls per tool (empty lists when there are none). Then give the "
        "score that fits best.",
    )

    def _data(self, fields: Mapping[str, Any]) -> dict[str, Any] | str:
        names = ("user_input", "tool_calls", "tool_definitions")
        return {name: fields.get(name) for name in names}

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        r = results["verdict"]
        v = r.verdicts[0]
        details = tool_call_summary(
            len(fields["tool_calls"]),
            [t.model_dump() for t in v.per_tool],
            [(c.tool_name, c.count) for c in v.excess_calls],
            [(c.tool_name, c.count) for c in v.missing_calls],
        )
        return int(r.value), v.reason, details
