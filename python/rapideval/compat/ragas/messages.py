"""Ragas 0.4.3 ``ragas.messages``: ``HumanMessage``, ``AIMessage`` (with ``tool_calls``), ``ToolMessage`` and
``ToolCall``, the turns of a ``MultiTurnSample``. ``as_message()`` gives the role/content form that
:mod:`rapideval.judged` reads (user / assistant / tool)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

__all__ = ["AIMessage", "HumanMessage", "Message", "ToolCall", "ToolMessage"]


class ToolCall(BaseModel):
    """Ragas 0.4.3 ``ToolCall(name, args)``."""

    name: str
    args: dict[str, Any] = {}


class Message(BaseModel):
    content: str
    metadata: dict[str, Any] | None = None


class HumanMessage(Message):
    """Ragas 0.4.3 ``HumanMessage(content)``: a user turn."""

    type: Literal["human"] = "human"

    def as_message(self) -> dict[str, Any]:
        return {"role": "user", "content": self.content}

    def pretty_repr(self) -> str:
        return f"Human: {self.content}"


class AIMessage(Message):
    """Ragas 0.4.3 ``AIMessage(content, tool_calls=None)``: an assistant turn."""

    type: Literal["ai"] = "ai"
    tool_calls: list[ToolCall] | None = None

    def as_message(self) -> dict[str, Any]:
        calls = [{"name": c.name, "args": c.args} for c in self.tool_calls or ()]
        return {"role": "assistant", "content": self.content, **({"tool_calls": calls} if calls else {})}

    def pretty_repr(self) -> str:
        calls = "".join(f"\nTool call: {c.name}({c.args})" for c in self.tool_calls or ())
        return f"AI: {self.content}{calls}"


class ToolMessage(Message):
    """Ragas 0.4.3 ``ToolMessage(content)``: a tool's output."""

    type: Literal["tool"] = "tool"

    def as_message(self) -> dict[str, Any]:
        return {"role": "tool", "content": self.content}

    def pretty_repr(self) -> str:
        return f"ToolOutput: {self.content}"
