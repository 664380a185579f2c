"""Structured judge output: pydantic models as strict JSON-schema ``response_format``, tolerant extraction
of a JSON object from free text, and validation that rejects out-of-range values.

Endpoints differ in what they accept, so there are three modes, tried in order and remembered per client
and model: ``json_schema`` (strict schema, OpenAI / Azure / vLLM), ``json_object`` (JSON mode, many
OpenAI-compatible servers), ``text`` (no response_format). In the last two the schema is stated in an
extra system message, and the reply is searched for its first JSON object (code fences and prose around
it are tolerated).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

__all__ = [
    "FormatMode",
    "OutputError",
    "extract_json",
    "parse_output",
    "reply_token_bound",
    "response_format",
    "strict_schema",
]

FormatMode = Literal["json_schema", "json_object", "text"]
MODES: tuple[FormatMode, ...] = ("json_schema", "json_object", "text")


class OutputError(ValueError):
    """The reply is not a JSON object valid under the schema; the message says why (used in the repair)."""


@functools.lru_cache(maxsize=256)
def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema in the form OpenAI's strict mode requires: every object closed
    (``additionalProperties: false``) with all its properties required, and no defaults."""
    schema = model.model_json_schema()
    _close(schema)
    return schema


def _close(node: Any) -> None:
    if isinstance(node, dict):
        node.pop("default", None)
        if node.get("type") == "object" and "properties" in node:
            node["additionalProperties"] = False
            node["required"] = list(node["properties"])
        for value in node.values():
            _close(value)
    elif isinstance(node, list):
        for value in node:
            _close(value)


def reply_token_bound(model: type[BaseModel]) -> int | None:
    """The most tokens a reply valid under the model's schema can take, or None where a string or a list of
    it has no bound (``maxLength``, ``maxItems``, an enum). Counted as one token per character of string
    content (the worst case of BPE vocabularies on ASCII text) and per structural character, key and
    separator, plus one of whitespace between any two of them (what a grammar-constrained server allows)."""
    root = strict_schema(model)
    size = _reply_size(root, root.get("$defs", {}), 0)
    return None if size is None else size + 16


def _reply_size(node: Mapping[str, Any], defs: Mapping[str, Any], depth: int) -> int | None:
    if depth > 16:
        return None
    if "$ref" in node:
        return _reply_size(defs.get(node["$ref"].rsplit("/", 1)[-1], {}), defs, depth + 1)
    for key in ("anyOf", "oneOf"):
        if key in node:
            options = [_reply_size(n, defs, depth + 1) for n in node[key]]
            return None if None in options else max(o for o in options if o is not None)
    choices = node.get("enum", [node["const"]] if "const" in node else None)
    if choices is not None:
        return 2 + max(len(json.dumps(c)) for c in choices)
    kind = node.get("type")
    if kind == "object":
        total = 4
        for key, value in node.get("properties", {}).items():
            inner = _reply_size(value, defs, depth + 1)
            if inner is None:
                return None
            total += len(key) + 6 + inner  # quotes, colon, comma, whitespace
        return total
    if kind == "array":
        items, most = _reply_size(node.get("items", {}), defs, depth + 1), node.get("maxItems")
        return None if items is None or most is None else 4 + most * (items + 2)
    if kind == "string":
        most = node.get("maxLength")
        return None if most is None else most + 4
    return 24  # a number (any digits a bounded one needs), a boolean or null


def response_format(model: type[BaseModel], mode: FormatMode) -> dict[str, Any] | None:
    if mode == "json_schema":
        name = re.sub(r"[^a-zA-Z0-9_-]", "_", model.__name__)[:64]
        return {"type": "json_schema", "json_schema": {"name": name, "schema": strict_schema(model), "strict": True}}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def schema_instruction(model: type[BaseModel]) -> dict[str, str]:
    """The system message that states the schema when the endpoint cannot enforce it."""
    schema = json.dumps(strict_schema(model), separators=(",", ":"))
    return {
        "role": "system",
        "content": f"Reply with a single JSON object, and nothing else, that is valid under this JSON schema: {schema}",
    }


def with_instruction(messages: Sequence[Mapping[str, Any]], model: type[BaseModel]) -> list[Mapping[str, Any]]:
    return [*messages, schema_instruction(model)]


_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


def extract_json(text: str) -> Any:
    """The reply parsed as JSON if it is JSON; else the first fenced block that is a JSON object; else the
    first balanced ``{...}`` that parses. Raises :class:`OutputError` when there is none."""
    stripped = text.strip()
    try:
        return json.loads(stripped)
    except ValueError:
        pass
    for block in _FENCE.findall(text):
        try:
            return json.loads(block)
        except ValueError:
            continue
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            obj, _ = decoder.raw_decode(text, start)
            return obj
        except ValueError:
            start = text.find("{", start + 1)
    raise OutputError("the reply contains no JSON object")


def parse_output(text: str | None, model: type[BaseModel]) -> BaseModel:
    """Extract and validate one reply; out-of-range or missing fields raise :class:`OutputError`."""
    if not text:
        raise OutputError("the reply is empty")
    obj = extract_json(text)
    if not isinstance(obj, dict):
        raise OutputError(f"expected a JSON object, got {type(obj).__name__}")
    try:
        return model.model_validate(obj)
    except ValidationError as e:
        problems = "; ".join(
            f"{'.'.join(map(str, err['loc'])) or '(root)'}: {err['msg']}" for err in e.errors(include_url=False)
        )
        raise OutputError(problems) from None


REPAIR_PROMPT = "Your reply could not be used: {error}. Reply again with only the JSON object, valid under the schema."


def repair_messages(messages: Sequence[Mapping[str, Any]], reply: str | None, error: str) -> list[Mapping[str, Any]]:
    """The conversation for the one repair re-ask: the bad reply, then what was wrong with it."""
    return [
        *messages,
        {"role": "assistant", "content": reply or ""},
        {"role": "user", "content": REPAIR_PROMPT.format(error=error)},
    ]
