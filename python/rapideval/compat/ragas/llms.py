"""Ragas 0.4.3 ``llm_factory``: the judge model as a :class:`~rapideval.llm.JudgeClient`."""

from __future__ import annotations

from typing import Any

import openai

from ...llm import JudgeClient

__all__ = ["llm_factory"]


def llm_factory(
    model: str = "gpt-4o-mini", provider: str = "openai", client: Any = None, **model_args: Any
) -> JudgeClient:
    """Ragas 0.4.3 ``llm_factory(model, provider="openai", client=AsyncOpenAI(...))``: a judge on
    ``model`` at ``client``'s endpoint, with its key, base URL, organization, project and headers (an
    ``OpenAI`` or ``AsyncOpenAI``; an ``AsyncAzureOpenAI`` is used as it is). Other keyword arguments are
    :class:`~rapideval.llm.JudgeClient`'s."""
    if provider != "openai":
        raise ValueError(f"llm_factory: provider {provider!r} is not available; 'openai' takes any compatible endpoint")
    if client is None:
        return JudgeClient(model, **model_args)
    if isinstance(client, openai.AsyncAzureOpenAI):
        return JudgeClient(model, client=client, **model_args)
    if isinstance(client, openai.AzureOpenAI) or not isinstance(client, (openai.OpenAI, openai.AsyncOpenAI)):
        kind = type(client).__name__
        raise TypeError(f"llm_factory: client must be an openai.AsyncOpenAI, OpenAI or AsyncAzureOpenAI, got {kind}")
    # A fresh client with the same settings for each event loop the judge runs in, so that the connections
    # of one loop are closed with it (a client's pool belongs to the loop that first used it).
    settings: dict[str, Any] = {
        "api_key": client.api_key,
        "base_url": str(client.base_url),
        "organization": client.organization,
        "project": client.project,
        "default_headers": _custom_headers(client),
    }
    return JudgeClient(model, client=lambda: openai.AsyncOpenAI(**settings), **model_args)


def _custom_headers(client: openai.OpenAI | openai.AsyncOpenAI) -> dict[str, str]:
    """The headers the user gave ``client`` (``default_headers=``): those of its public ``default_headers``
    that a client of the same class built without them does not send."""
    bare = type(client)(api_key="-", base_url=client.base_url).default_headers
    return {k: v for k, v in client.default_headers.items() if isinstance(v, str) and bare.get(k) != v}
