"""promptflow's ``model_config`` (``AzureOpenAIModelConfiguration`` / ``OpenAIModelConfiguration``, or the
same as a dict) as a :class:`~rapideval.llm.JudgeClient`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...llm import JudgeClient

__all__ = ["is_model_config", "judge_for"]

_AZURE_KEYS = ("azure_deployment", "azure_endpoint", "api_version", "api_key")
_OPENAI_KEYS = ("model", "base_url", "api_key", "organization")


def _settings(config: Any) -> dict[str, Any]:
    """The configuration's fields as a dict (a dict, or a promptflow configuration object)."""
    if isinstance(config, Mapping):
        return dict(config)
    return {k: getattr(config, k) for k in (*_AZURE_KEYS, *_OPENAI_KEYS, "connection", "type") if hasattr(config, k)}


def is_model_config(config: Any) -> bool:
    """True for an OpenAI or Azure OpenAI model configuration (promptflow's object or dict) or a JudgeClient;
    False for anything else, such as an Azure AI ``project_scope`` dict."""
    if isinstance(config, JudgeClient):
        return True
    settings = _settings(config) if config is not None else {}
    return bool(settings.get("azure_deployment") or settings.get("model"))


def judge_for(model_config: Any, who: str) -> JudgeClient:
    """The judge of ``model_config``: a JudgeClient as it is; an Azure configuration (``azure_deployment``,
    ``azure_endpoint``, ``api_version``, ``api_key``) a judge on that deployment; an OpenAI one (``model``,
    ``base_url``, ``api_key``, ``organization``) a judge on that endpoint; None the judge from the
    environment (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``RAPIDEVAL_JUDGE_MODEL``). ``who`` names the
    evaluator in errors."""
    if isinstance(model_config, JudgeClient):
        return model_config
    if model_config is None:
        return JudgeClient()
    settings = _settings(model_config)
    if settings.get("connection"):
        raise ValueError(f"{who}: a promptflow connection ({settings['connection']!r}) cannot be read here: "
                         f"give azure_endpoint and api_key (or model, base_url and api_key) instead")  # fmt: skip
    if settings.get("azure_deployment"):
        return JudgeClient.azure(settings["azure_deployment"], endpoint=settings.get("azure_endpoint"),
                                 api_version=settings.get("api_version"), api_key=settings.get("api_key"))  # fmt: skip
    if settings.get("model"):
        return JudgeClient(settings["model"], base_url=settings.get("base_url"), api_key=settings.get("api_key"))
    raise TypeError(f"{who}: model_config must be an AzureOpenAIModelConfiguration or OpenAIModelConfiguration "
                    f"(or a dict with azure_deployment, or with model), got {type(model_config).__name__}")  # fmt: skip
