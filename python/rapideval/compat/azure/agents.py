"""azure-ai-evaluation 1.18.10's agent evaluators: ``ResponseCompletenessEvaluator``, ``IntentResolutionEvaluator``,
``TaskAdherenceEvaluator`` and ``ToolCallAccuracyEvaluator``, with azure's constructors (``model_config``,
``threshold``, ``credential`` ignored), call keywords and result keys, on the metrics of
:mod:`rapideval.judged.agents` through the promptflow evaluators' machinery. Names, inputs and output keys
only: the prompts, verdicts and formulas are the metrics'.

Inputs. ``query`` and ``response`` are a text or a list of azure's agent messages (``{"role", "content"}``,
content a text or a list of ``text``/``input_text``/``output_text``, ``tool_call``/``function_call``/
``openapi_call`` and ``tool_result``/``function_call_output``/``openapi_call_output`` items); a list becomes
the metric's conversation (system and developer messages, which a conversation has no role for, are left
out; MCP approval messages too, as azure's ``_preprocess_messages``), the agent's reply after the query.
``ground_truth`` is the metric's ``reference``; ``tool_definitions`` (openapi tools expanded into their
functions) and ``tool_calls`` (``{"name", "args"[, "result"]}``) the metric's fields.

Results: azure's keys in azure's order, ``k``, ``k_score`` (float), ``k_passed``, ``k_result`` ("pass" or
"fail"), ``k_reason``, ``k_status`` ("completed"), ``k_threshold``, ``k_properties`` (token metadata;
``ToolCallAccuracyEvaluator``'s adds the per-tool details and has ``gpt_tool_call_accuracy`` after
``tool_call_accuracy``, and ``_result`` before ``_passed``, as azure). A row the metric finds not applicable
(an intermediate response, no tool calls, ...) gives azure's not-applicable result (``k`` None, ``k_result``
"not_applicable", ``k_status`` "skipped", ``k_reason`` "Not applicable: ...", ``k_properties`` None). Inputs
azure's validators reject raise azure's :class:`~rapideval.compat.azure._exceptions.EvaluationException` with
its message, category and target (also a ``ValueError``, as rapideval raised before); a
judge failure or a verdict out of range raises :class:`~rapideval.compat.promptflow.base.EvaluatorError`
(``rapideval_batch`` gives such rows an exception item).

Left out: ``conversation=`` and ``messages=`` (azure's per-turn form) and tool definitions or tool calls given
as text (azure passes them to its prompt as they are): they raise EvaluationException (also a ValueError).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, ClassVar

from ...judged.agents import (
    IntentResolution,
    ResponseCompleteness,
    TaskAdherence,
    ToolCallAccuracy,
    adherence_passed,
    transcript,
)
from ...judged.base import MetricResult, score_rows
from ..promptflow.base import EvaluatorError
from ..promptflow.evaluators.quality import JudgedQualityEvaluator
from ._exceptions import ErrorCategory, ErrorTarget, evaluation_error
from ._schema import passed, token_metadata, verdict

__all__ = [
    "IntentResolutionEvaluator",
    "ResponseCompletenessEvaluator",
    "TaskAdherenceEvaluator",
    "ToolCallAccuracyEvaluator",
]

# Azure's message content types (_validators/_validation_constants.py ContentType), by what they carry.
_TEXT = ("text", "input_text", "output_text")
_CALLS = ("tool_call", "function_call", "openapi_call")
_RESULTS = ("tool_result", "function_call_output", "openapi_call_output")
_USER_TYPES = ("text", "input_text")
_ASSISTANT_TYPES = ("text", "output_text", "tool_call", "function_call", "mcp_approval_request", "openapi_call")
_TOOL_TYPES = ("tool_result", "function_call_output", "mcp_approval_response", "openapi_call_output")
_CALL_ITEM_TYPES = ("tool_call", "function_call", "openapi_call", "mcp_approval_request")

# Azure AI Agent built-in tools, which azure's ToolCallAccuracy knows without a definition: our own words.
_BUILT_IN = {
    "code_interpreter": "Runs code over the agent's files and data, and makes charts.",
    "bing_grounding": "Searches the web.",
    "bing_custom_search": "Searches a chosen set of websites.",
    "file_search": "Searches the agent's uploaded files; one call may return several results.",
    "azure_ai_search": "Searches an Azure AI Search index.",
    "sharepoint_grounding": "Searches SharePoint document libraries.",
    "fabric_dataagent": "Asks a Microsoft Fabric data agent for data.",
}
_NO_CALLS = "No tool calls found in response or provided tool_calls."
_UNDEFINED = "Tool definitions for all tool calls must be provided."


# Azure's input validators (_common/_validators), as messages ------------------------------------------------

_KIND: dict[type, str] = {str: "string", dict: "dictionary", list: "list"}


class _Role(str, Enum):
    """azure's ``MessageRole``: its validator formats the assistant role from the enum, whose text depends on
    the Python version (``assistant`` up to 3.10, ``MessageRole.ASSISTANT`` from 3.11)."""

    ASSISTANT = "assistant"


_Role.__name__ = _Role.__qualname__ = "MessageRole"


def _need(item: Mapping[str, Any], key: str, kind: type | None, where: str) -> str | None:
    if key not in item:
        return f"Each {where} must contain a '{key}' field."
    if kind is not None and not isinstance(item[key], kind):
        return f"The '{key}' field must be a {_KIND[kind]} in {where}."
    return None


def _text_error(item: Mapping[str, Any], role: Any) -> str | None:
    if "text" not in item:
        return f"Each content item must contain a 'text' field for message with role '{role}'."
    return None if isinstance(item["text"], str) else "The 'text' field must be a string in content items."


def _call_error(item: Mapping[str, Any]) -> str | None:
    if item.get("type") not in _CALL_ITEM_TYPES:
        return f"The content item must be of type {list(_CALL_ITEM_TYPES)} in tool_call content item."
    if item["type"] == "mcp_approval_request":
        return None
    where = "tool_call content items"
    return _need(item, "name", str, where) or _need(item, "arguments", dict, where) or _need(
        item, "tool_call_id", str, where)  # fmt: skip


def _content_error(role: Any, content: list[dict[str, Any]]) -> str | None:
    for item in content:
        kind = item["type"]
        if role in ("user", "system", "developer"):
            if kind not in _USER_TYPES:
                return f"Invalid content type '{kind}' for message with role '{role}'. Must be 'text' or 'input_text'."
            error = _text_error(item, role)
        elif role == "assistant":
            if kind not in _ASSISTANT_TYPES:
                return (f"Invalid content type '{kind}' for message with role 'assistant'. Must be one of "
                        f"{list(_ASSISTANT_TYPES)}.")  # fmt: skip
            error = _text_error(item, _Role.ASSISTANT) if kind in _TEXT else None
            error = error or (_call_error(item) if kind in _CALLS else None)
        else:
            if kind not in _TOOL_TYPES:
                return (f"Invalid content type '{kind}' for message with role 'tool'. Must be one of "
                        f"{list(_TOOL_TYPES)}.")  # fmt: skip
            error = _need(item, kind, None, "content items for role 'tool'") if kind in _RESULTS else None
        if error:
            return error
    return None


def _message_error(m: Mapping[str, Any]) -> str | None:
    if "role" not in m:
        return "Each message must contain a 'role' field."
    if "content" not in m:
        return "Each message must contain a 'content' field."
    role, content = m["role"], m["content"]
    if not isinstance(content, str) and not (
        isinstance(content, list) and all(item and isinstance(item, dict) for item in content)
    ):
        return "The 'content' field must be a string or a list of dictionaries messages."
    if len(content) == 0:
        return "The 'content' field can't be empty."
    if isinstance(content, list) and not all("type" in item for item in content):
        return "Each content item in the 'content' list must contain a 'type' field."
    if role == "tool":
        if not isinstance(content, list):
            return "The 'content' field must be a list of dictionaries messages for role 'tool'."
        error = _need(m, "tool_call_id", str, "content items for role 'tool'")
        if error:
            return error
    if isinstance(content, list) and role in ("user", "system", "developer", "assistant", "tool"):
        return _content_error(role, content)
    return None


def _messages_error(label: str, value: Any) -> tuple[str, bool] | None:
    """azure's ``ConversationValidator._validate_input_messages_list``: the message, and whether the input is
    missing (None, empty) rather than malformed."""
    if value is None:
        return f"{label} is a required input and cannot be None.", True
    if isinstance(value, str):
        return (f"{label} string cannot be empty.", True) if value == "" else None
    if not isinstance(value, list):
        return f"{label} must be a string or a list of messages.", False
    if not value:
        return f"{label} list cannot be empty.", True
    if not all(isinstance(m, dict) for m in value):
        return f"Each message in the {label.lower()} list must be a dictionary.", False
    for m in value:
        error = _message_error(m)
        if error:
            return error, False
    return None


def _definition_error(d: Any) -> str | None:
    if not isinstance(d, dict):
        return "Each tool definition must be a dictionary."
    return _need(d, "name", str, "tool definitions") or _need(d, "parameters", dict, "tool definitions")


def _definitions_error(definitions: Any, required: bool) -> str | None:
    """azure's ``ToolDefinitionsValidator._validate_tool_definitions``."""
    if not definitions:
        return "Tool definitions input is required but not provided." if required else None
    if isinstance(definitions, str):
        return None
    if not isinstance(definitions, list):
        return "Tool definitions must be provided as a list of dictionaries."
    for d in definitions:
        if not isinstance(d, dict):
            return "Each tool definition must be a dictionary."
        if d and d.get("type") == "openapi":
            error = _need(d, "functions", list, "openapi tool definition")
            for f in [] if error else d["functions"]:
                error = error or _definition_error(f)
        else:
            error = _definition_error(d)
        if error:
            return error
    return None


def _calls_error(calls: Any) -> tuple[str, bool] | None:
    """azure's ``ToolCallsValidator._validate_tool_calls``: the message, and whether the calls are missing."""
    if not calls:
        return _NO_CALLS, True
    if isinstance(calls, str):
        return None
    if not isinstance(calls, list):
        return "Tool calls must be provided as a list of dictionaries.", False
    for call in calls:
        if not call or not isinstance(call, dict):
            return "Each tool call must be a dictionary.", False
        error = _call_error(call)
        if error:
            return error, False
    return None


# Azure's messages as the metrics' conversations -----------------------------------------------------------


def _arguments(value: Any) -> dict[str, Any]:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = None
        return dict(parsed) if isinstance(parsed, dict) else {"arguments": value}
    return {} if value is None else {"arguments": value}


def _call(item: Mapping[str, Any]) -> dict[str, Any]:
    """A call item of any of azure's formats (converter ``{name, arguments}``, nested ``tool_call`` or
    ``function_call`` with or without ``function``) as ``{"name", "args"}``."""
    nested = item.get("tool_call") or item.get("function_call")
    source = nested if isinstance(nested, Mapping) else item
    if isinstance(source.get("function"), Mapping):
        source = source["function"]
    name = source.get("name")
    return {"name": name if isinstance(name, str) and name else str(item.get("type")),
            "args": _arguments(source.get("arguments"))}  # fmt: skip


def _result_text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _items(content: Any) -> list[Mapping[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [i for i in content if isinstance(i, Mapping)] if isinstance(content, list) else []


def _assistant(items: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """An assistant message's items in order: texts then the calls after them, a new message at each text that
    follows a call (so a message that ends with calls is one whose calls came last)."""
    out: list[dict[str, Any]] = []
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    for item in items:
        kind = item.get("type")
        if kind in _TEXT:
            if calls:
                out.append({"role": "assistant", "content": "\n".join(texts), "tool_calls": calls})
                texts, calls = [], []
            texts.append(str(item.get("text", "")))
        elif kind in _CALLS:
            calls.append(_call(item))
    if texts or calls or not out:
        out.append({"role": "assistant", "content": "\n".join(texts), **({"tool_calls": calls} if calls else {})})
    return out


def conversation(messages: Sequence[Any], final: bool = False) -> list[dict[str, Any]]:
    """azure's messages as a conversation of the metrics: user texts, assistant texts and calls, tool results;
    system, developer and other roles and MCP approval messages left out. With ``final`` (an agent's
    response), a last message with an MCP approval request that ends with a call or the request keeps that as
    a pending call, as azure finds it an intermediate response. ValueError for a message that is not a dict."""
    out: list[dict[str, Any]] = []
    for n, m in enumerate(messages):
        if not isinstance(m, Mapping):
            raise ValueError(f"message {n} must be a dict with 'role' and 'content', got {type(m).__name__}")
        role, items = m.get("role"), _items(m.get("content"))
        kinds = [i.get("type") for i in items]
        if role == "user":
            out.append({"role": "user", "content": "\n".join(str(i.get("text", "")) for i in items if "text" in i)})
        elif role == "assistant" and "mcp_approval_request" in kinds:
            if final and n == len(messages) - 1 and kinds[-1] in (*_CALLS, "mcp_approval_request"):
                out.append({"role": "assistant", "content": "", "tool_calls": [_call(items[-1])]})
        elif role == "assistant":
            out.extend(_assistant(items))
        elif role == "tool" and "mcp_approval_response" not in kinds:
            results = [_result_text(i.get(str(i.get("type")))) for i in items if i.get("type") in _RESULTS]
            text = m["content"] if isinstance(m.get("content"), str) else "\n".join(results)
            out.append({"role": "tool", "content": text})
    return out


def parse_tool_calls(response: Any) -> list[dict[str, Any]]:
    """azure's ``EvaluatorBase._parse_tools_from_response``: the ``tool_call`` items of the assistant messages
    of a list response, each with the ``tool_result`` of the tool message that answers its ``tool_call_id``
    (the first item of that message, when it is a ``tool_result``)."""
    if not isinstance(response, list):
        return []
    calls: list[dict[str, Any]] = []
    results: dict[Any, Any] = {}
    for m in response:
        if not isinstance(m, Mapping):
            continue
        content = m.get("content")
        if m.get("role") == "assistant" and isinstance(content, list):
            calls += [dict(i) for i in content if isinstance(i, Mapping) and i.get("type") == "tool_call"]
        elif m.get("role") == "tool" and m.get("tool_call_id") and isinstance(content, list) and content:
            first = content[0]
            if isinstance(first, Mapping) and first.get("type") == "tool_result":
                results[m["tool_call_id"]] = first.get("tool_result")
    for call in calls:
        if call.get("tool_call_id") in results:
            call["tool_result"] = results[call["tool_call_id"]]
    return calls


def tool_definitions(definitions: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The definitions as the metric's field: an openapi tool with functions becomes its functions, as azure
    matches calls to them; a definition without a str ``name`` (no call can match it) is left out."""
    out: list[dict[str, Any]] = []
    for d in definitions:
        functions = d.get("functions") if d.get("type") == "openapi" else None
        out += [dict(f) for f in (functions or [d]) if isinstance(f, Mapping) and isinstance(f.get("name"), str)]
    return out


def undefined_calls(calls: Sequence[Any], definitions: Sequence[Mapping[str, Any]]) -> bool:
    """azure's ``_extract_needed_tool_definitions`` failing: a call that is not a ``tool_call`` item with a
    name that a definition (openapi functions included) or a built-in tool has."""
    names = {d["name"] for d in tool_definitions(definitions)} | set(_BUILT_IN)
    return any(not isinstance(c, Mapping) or c.get("type") != "tool_call" or c.get("name") not in names
               for c in calls)  # fmt: skip


def _needed_definitions(calls: Sequence[Mapping[str, Any]], definitions: Sequence[Mapping[str, Any]]) -> list[Any]:
    out = tool_definitions(definitions)
    names = {d["name"] for d in out}
    for call in calls:
        name = call["name"]
        if name in _BUILT_IN and name not in names:
            out.append({"name": name, "type": name, "description": _BUILT_IN[name], "parameters": {}})
            names.add(name)
    return out


def _call_field(call: Mapping[str, Any]) -> dict[str, Any]:
    out = {"name": call["name"], "args": _arguments(call.get("arguments"))}
    return {**out, "result": call["tool_result"]} if "tool_result" in call else out


# The evaluators -------------------------------------------------------------------------------------------


def _missing(value: Any) -> Any:
    """pandas's missing value (a float NaN in a data column) is a missing input."""
    return None if isinstance(value, float) and math.isnan(value) else value


class _AzureAgent(JudgedQualityEvaluator):
    """An azure agent evaluator on one metric of :mod:`rapideval.judged.agents`: :meth:`row` turns a call's
    keywords into the metric's fields (or azure's reason for not judging it); :meth:`outputs` gives azure's
    keys."""

    KEY: ClassVar[str]
    #: azure's ``ErrorTarget`` of the evaluator's input errors.
    ERROR_TARGET: ClassVar[ErrorTarget]

    def __init__(self, model_config: Any = None, *, threshold: float = 3, credential: Any = None,
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(model_config)
        self.threshold = threshold
        self._threshold: float = threshold
        self.credential = credential  # accepted for azure's signature; never used

    def row(self, given: Mapping[str, Any]) -> dict[str, Any] | str:
        """The metric's fields from the call's keywords, or azure's reason for a not-applicable result."""
        raise NotImplementedError

    def _error(self, message: str, missing: bool = False, target: ErrorTarget | None = None) -> Exception:
        """azure's EvaluationException (also a ValueError): ``MISSING_FIELD`` for a missing input, else
        ``INVALID_VALUE``."""
        category = ErrorCategory.MISSING_FIELD if missing else ErrorCategory.INVALID_VALUE
        return evaluation_error(ValueError, message, target=target or self.ERROR_TARGET, category=category)

    def is_pass(self, score: float) -> bool:
        return passed(score, self._threshold, higher_is_better=True)

    def outputs(self, results: Sequence[MetricResult]) -> dict[str, Any]:
        (r,) = results
        score = float(r.value)
        ok, k = self.is_pass(score), self.KEY
        return {k: score, f"{k}_score": score, f"{k}_passed": ok, f"{k}_result": verdict(ok), f"{k}_reason": r.reason,
                f"{k}_status": "completed", f"{k}_threshold": self._threshold,
                f"{k}_properties": token_metadata(r, self.judge)}  # fmt: skip

    def not_applicable(self, reason: str) -> dict[str, Any]:
        """azure's ``not_applicable_result``."""
        k = self.KEY
        return {k: None, f"{k}_score": None, f"{k}_passed": None, f"{k}_result": "not_applicable",
                f"{k}_reason": f"Not applicable: {reason}", f"{k}_status": "skipped", f"{k}_threshold": self._threshold,
                f"{k}_properties": None}  # fmt: skip

    def _given(self, kwargs: Mapping[str, Any]) -> dict[str, Any]:
        name = type(self).__name__
        if not isinstance(kwargs, Mapping):
            raise TypeError(f"{name}: a row is a dict of keywords, got {type(kwargs).__name__}")
        if kwargs.get("conversation") is not None or kwargs.get("messages") is not None:
            raise self._error(f"{name}: 'conversation' and 'messages' are not supported here: give "
                             f"{' and '.join(self.KEYWORDS)}")  # fmt: skip
        return {k: _missing(kwargs.get(k)) for k in self.KEYWORDS}

    async def _ascore(self, calls: Sequence[Mapping[str, Any]], strict: bool) -> list[dict[str, Any] | Exception]:
        items: list[dict[str, Any]] = []
        outcome: list[int | dict[str, Any] | Exception] = []
        for kwargs in calls:
            try:
                fields = self.row(self._given(kwargs))
            except (TypeError, ValueError) as e:
                if strict:
                    raise
                outcome.append(e)
                continue
            if isinstance(fields, str):
                outcome.append(self.not_applicable(fields))
            else:
                outcome.append(len(items))
                items.append(fields)
        scored = await score_rows(self.metrics, items, judge=self.judge, strict=strict) if items else []
        return [self._result(scored[o][0]) if isinstance(o, int) else o for o in outcome]

    def _result(self, r: MetricResult) -> dict[str, Any] | Exception:
        if r.status == "not_applicable":
            return self.not_applicable(r.reason)
        return self.outputs([r]) if r.status == "ok" else EvaluatorError(type(self).__name__, [r])


def _run(query: Any, response: Any) -> dict[str, Any]:
    """``user_input`` and ``response`` of a query and a response, texts or lists of messages: a list makes the
    row a run (the query's messages, then the response's)."""
    if isinstance(query, str) and isinstance(response, str):
        return {"user_input": query, "response": response}
    asked = [{"role": "user", "content": query}] if isinstance(query, str) else conversation(query)
    if isinstance(response, str):
        return {"user_input": asked, "response": response}
    return {"user_input": [*asked, *conversation(response, final=True)]}


def _definitions_field(name: str, definitions: Any, target: ErrorTarget) -> dict[str, Any]:
    if not definitions:
        return {}
    if isinstance(definitions, str):
        raise evaluation_error(ValueError, f"{name}: tool_definitions given as text are not supported here: give a "
                               f"list of dicts", target=target)  # fmt: skip
    return {"tool_definitions": tool_definitions(definitions)}


class ResponseCompletenessEvaluator(_AzureAgent):
    """azure-ai-evaluation 1.18.10 ``ResponseCompletenessEvaluator(model_config, *, threshold=3, credential=None)``:
    :class:`~rapideval.judged.agents.ResponseCompleteness` of ``response`` (a text, or a list of agent
    messages) against ``ground_truth``, scale 1.0-5.0, pass when ``response_completeness >= threshold``. Keys
    ``response_completeness``, ``_score``, ``_passed``, ``_result``, ``_reason``, ``_status``, ``_threshold``,
    ``_properties``. One judge request per row; none for an intermediate response (not applicable). A
    missing ``response`` or ``ground_truth`` raises ValueError, as azure raises."""

    METRICS = (ResponseCompleteness,)
    KEY = _RESULT_KEY = "response_completeness"
    ERROR_TARGET = ErrorTarget.COMPLETENESS_EVALUATOR
    _DEFAULT_COMPLETENESS_THRESHOLD = 3

    def __call__(self, *, response: Any = None, ground_truth: Any = None, **kwargs: Any) -> dict[str, Any]:
        return super().__call__(response=response, ground_truth=ground_truth, **kwargs)

    def row(self, given: Mapping[str, Any]) -> dict[str, Any] | str:
        response, truth = given["response"], given["ground_truth"]
        if response is None or truth is None:
            raise self._error(
                f"{type(self).__name__}: Either 'conversation' or individual inputs must be provided.",
                target=ErrorTarget.CONVERSATION,
            )
        reference = transcript(conversation(truth)) if isinstance(truth, list) else truth
        if isinstance(response, list):
            return {"user_input": conversation(response, final=True), "reference": reference}
        return {"response": response, "reference": reference}


class _AzureReplyToRequest(_AzureAgent):
    """azure's ``ToolDefinitionsValidator`` on ``query``, ``response`` and the optional ``tool_definitions``."""

    def __call__(
        self, *, query: Any = None, response: Any = None, tool_definitions: Any = None, **kwargs: Any
    ) -> dict[str, Any]:
        return super().__call__(query=query, response=response, tool_definitions=tool_definitions, **kwargs)

    def row(self, given: Mapping[str, Any]) -> dict[str, Any] | str:
        query, response, definitions = given["query"], given["response"], given["tool_definitions"]
        for label, value in (("Query", query), ("Response", response)):
            error = _messages_error(label, value)
            if error:
                raise self._error(*error)
        message = _definitions_error(definitions, required=False)
        if message:
            raise self._error(message)
        return {**_run(query, response), **_definitions_field(type(self).__name__, definitions, self.ERROR_TARGET)}


class IntentResolutionEvaluator(_AzureReplyToRequest):
    """azure-ai-evaluation 1.18.10 ``IntentResolutionEvaluator(model_config, *, threshold=3, credential=None)``:
    :class:`~rapideval.judged.agents.IntentResolution` of ``response`` to ``query`` (each a text or a list of
    agent messages; ``tool_definitions`` optional), scale 1.0-5.0, pass when ``intent_resolution >=
    threshold``. Keys ``intent_resolution``, ``_score``, ``_passed``, ``_result``, ``_reason``, ``_status``,
    ``_threshold``, ``_properties``. One judge request per row; none for an intermediate response (not
    applicable). Inputs azure's validator rejects raise ValueError with its message."""

    METRICS = (IntentResolution,)
    KEY = _RESULT_KEY = "intent_resolution"
    ERROR_TARGET = ErrorTarget.INTENT_RESOLUTION_EVALUATOR


class TaskAdherenceEvaluator(_AzureReplyToRequest):
    """azure-ai-evaluation 1.18.10 ``TaskAdherenceEvaluator(model_config, *, threshold=0, credential=None)``:
    :class:`~rapideval.judged.agents.TaskAdherence` of ``response`` to ``query`` (each a text or a list of
    agent messages; ``tool_definitions`` optional), 0.0 (a material failure) or 1.0, pass when the score is
    1.0 (:func:`~rapideval.judged.agents.adherence_passed`): as azure, ``threshold`` is kept as
    ``self.threshold`` and changes nothing, and ``task_adherence_threshold`` is 3. Keys ``task_adherence``,
    ``_score``, ``_passed``, ``_result``, ``_reason``, ``_status``, ``_threshold``, ``_properties``. One judge
    request per row; none for an intermediate response (not applicable)."""

    METRICS = (TaskAdherence,)
    KEY = _RESULT_KEY = "task_adherence"
    ERROR_TARGET = ErrorTarget.TASK_ADHERENCE_EVALUATOR
    # azure passes no threshold to its base class, whose default (3) is the one it reports.
    REPORTED_THRESHOLD = 3

    def __init__(self, model_config: Any = None, *, threshold: float = 0, credential: Any = None,
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(model_config, threshold=threshold, credential=credential, **kwargs)
        self._threshold = self.REPORTED_THRESHOLD

    def is_pass(self, score: float) -> bool:
        return adherence_passed(score)


class ToolCallAccuracyEvaluator(_AzureAgent):
    """azure-ai-evaluation 1.18.10 ``ToolCallAccuracyEvaluator(model_config, *, threshold=3, credential=None)``:
    :class:`~rapideval.judged.agents.ToolCallAccuracy` of the ``tool_calls`` (or, when ``response`` has any,
    the ``tool_call`` items of ``response`` with their results) for ``query``, against ``tool_definitions``,
    scale 1.0-5.0, pass when ``tool_call_accuracy >= threshold``. Keys ``tool_call_accuracy``,
    ``gpt_tool_call_accuracy``, ``_score``, ``_result``, ``_passed``, ``_reason``, ``_status``, ``_threshold``,
    ``_properties`` (the per-tool details, then the token metadata). Not applicable, without a request, when
    there is no tool call (a text ``response`` is not read for calls, where azure judges the text) or a call
    has no definition (built-in agent tools need none). One judge request per row."""

    METRICS = (ToolCallAccuracy,)
    KEY = _RESULT_KEY = "tool_call_accuracy"
    ERROR_TARGET = ErrorTarget.TOOL_CALL_ACCURACY_EVALUATOR
    # azure's messages, under the names its users (and its tests) read them by.
    _NO_TOOL_CALLS_MESSAGE = _NO_CALLS
    _NO_TOOL_DEFINITIONS_MESSAGE = "Tool definitions input is required but not provided"
    _TOOL_DEFINITIONS_MISSING_MESSAGE = _UNDEFINED
    _DEFAULT_TOOL_CALL_ACCURACY_SCORE = 3
    _DETAILS = ("tool_calls_made_by_agent", "correct_tool_calls_made_by_agent", "per_tool_call_details",
                "excess_tool_calls", "missing_tool_calls")  # fmt: skip

    def __call__(
        self, *, query: Any = None, tool_definitions: Any = None, tool_calls: Any = None, response: Any = None,
        **kwargs: Any
    ) -> dict[str, Any]:  # fmt: skip
        return super().__call__(query=query, tool_definitions=tool_definitions, tool_calls=tool_calls,
                                response=response, **kwargs)  # fmt: skip

    def row(self, given: Mapping[str, Any]) -> dict[str, Any] | str:
        query, definitions, calls, response = (given[k] for k in ("query", "tool_definitions", "tool_calls",
                                                                  "response"))  # fmt: skip
        bad_query = _messages_error("Query", query)
        if bad_query:
            raise self._error(*bad_query)
        bad_definitions = _definitions_error(definitions, required=True)
        if bad_definitions:
            raise self._error(bad_definitions, missing=not definitions)
        bad_response, bad_calls = _messages_error("Response", response), _calls_error(calls)
        if bad_response and bad_calls:
            raise self._error(*(bad_calls if bad_response[1] else bad_response))
        calls = parse_tool_calls(response) or calls
        if isinstance(calls, Mapping):
            calls = [calls]
        if not calls or isinstance(calls, str):
            calls = []
        if isinstance(definitions, str):
            raise self._error(f"{type(self).__name__}: tool_definitions given as text are not supported here: give "
                              f"a list of dicts")  # fmt: skip
        if isinstance(definitions, Mapping):
            definitions = [definitions]
        if calls and undefined_calls(calls, definitions):
            return _UNDEFINED
        asked = query if isinstance(query, str) else conversation(query)
        return {"user_input": asked, "tool_calls": [_call_field(c) for c in calls],
                "tool_definitions": _needed_definitions(calls, definitions)}  # fmt: skip

    def outputs(self, results: Sequence[MetricResult]) -> dict[str, Any]:
        (r,) = results
        score = float(r.value)
        ok, k = self.is_pass(score), self.KEY
        properties = {**{key: r.details[key] for key in self._DETAILS}, **token_metadata(r, self.judge)}
        return {k: score, f"gpt_{k}": score, f"{k}_score": score, f"{k}_result": verdict(ok), f"{k}_passed": ok,
                f"{k}_reason": r.reason, f"{k}_status": "completed", f"{k}_threshold": self._threshold,
                f"{k}_properties": properties}  # fmt: skip
