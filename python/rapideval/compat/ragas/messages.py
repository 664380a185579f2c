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

    def to_dict(self, **kwargs: Any) -> dict[str, Any]:
        """Ragas's ``{"content": ..., "type": "ai"}``; with tool calls, the content is ``{"text": ...,
        "tool_calls": [...]}``."""
        calls = [c.model_dump() for c in self.tool_calls] if self.tool_calls is not None else None
        content = self.content if calls is None else {"text": self.content, "tool_calls": calls}
        return {"content": content, "type": self.type}

    def pretty_repr(self) -> str:
        """``AI: <content>`` (left out when the content is empty), then ``Tools:`` and a line per tool call."""
        lines = [f"AI: {self.content}"] if self.content != "" else []
        if self.tool_calls is not None:
            lines += ["Tools:", *(f"  {c.name}: {c.args}" for c in self.tool_calls)]
        return "\n".join(lines)


class ToolMessage(Message):
    """Ragas 0.4.3 ``ToolMessage(content)``: a tool's output."""

    type: Literal["tool"] = "tool"

    def as_message(self) -> dict[str, Any]:
        return {"role": "tool", "content": self.content}

    def pretty_repr(self) -> str:
        return f"ToolOutput: {self.content}"
