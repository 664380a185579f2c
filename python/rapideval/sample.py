"""The fields of a sample, as every layer names them (Ragas's names): their Python types, the roles of a
conversation's messages, and Ragas's v1 column names for them. Imports nothing heavy: the evaluation engine
reads it before it knows whether a run needs the judged metrics."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["FIELDS", "ROLES", "TOOL_FIELDS", "V1_NAMES"]

# The fields of a sample and the Python types each one takes. ``user_input`` is a str, or for a multi-turn row
# a conversation: a list of messages ``{"role", "content"[, "tool_calls"]}``.
FIELDS: Mapping[str, tuple[type, ...]] = MappingProxyType(
    {
        "user_input": (str, list, tuple),
        "response": (str,),
        "reference": (str,),
        "retrieved_contexts": (list, tuple),
        "reference_contexts": (list, tuple),
        "retrieved_context_ids": (list, tuple),
        "reference_context_ids": (list, tuple),
        "multi_responses": (list, tuple),
        "rubrics": (dict, Mapping),
        "reference_topics": (list, tuple),
        "tool_definitions": (list, tuple),
        "tool_calls": (list, tuple),
    }
)
# The list fields whose items are objects: a tool ``{"name": str, ...}`` (definition or call), not a str.
TOOL_FIELDS = ("tool_definitions", "tool_calls")

# The roles of a conversation's messages (OpenAI's names; Ragas's HumanMessage, AIMessage, ToolMessage).
ROLES = ("user", "assistant", "tool")

# Ragas's v1 column names (promptflow's keywords for the first three) -> the fields they hold. ``ground_truths``
# is a list of reference answers.
V1_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "question": "user_input",
        "answer": "response",
        "ground_truth": "reference",
        "contexts": "retrieved_contexts",
        "ground_truths": "reference",
    }
)
