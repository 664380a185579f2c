"""azure-ai-evaluation 1.18.10's configuration types, as users import them from ``azure.ai.evaluation``:
``AzureOpenAIModelConfiguration`` and ``OpenAIModelConfiguration`` (the judge's model, a dict: the evaluators'
``model_config``), ``AzureAIProject`` (the project ``azure_ai_project`` names, accepted and not used) and
``EvaluatorConfig`` (``evaluate``'s per-evaluator ``column_mapping``). Typed dicts: calling one makes a plain
dict, which the evaluators read (:func:`rapideval.compat.promptflow._model_config.judge_for`)."""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["AzureAIProject", "AzureOpenAIModelConfiguration", "EvaluatorConfig", "OpenAIModelConfiguration"]


class _AzureDeployment(TypedDict):
    azure_deployment: str
    azure_endpoint: str


class AzureOpenAIModelConfiguration(_AzureDeployment, total=False):
    """An Azure OpenAI deployment as the judge: ``azure_deployment``, ``azure_endpoint``, ``api_key`` and
    ``api_version`` (what is missing comes from ``AZURE_OPENAI_ENDPOINT``, ``AZURE_OPENAI_API_KEY``,
    ``OPENAI_API_VERSION``); ``type`` is ``"azure_openai"`` when given."""

    type: Literal["azure_openai"]
    api_key: str
    api_version: str


class _OpenAIModel(TypedDict):
    api_key: str
    model: str


class OpenAIModelConfiguration(_OpenAIModel, total=False):
    """An OpenAI-compatible endpoint as the judge: ``model``, ``api_key``, and ``base_url`` and ``organization``
    when given; ``type`` is ``"openai"`` when given."""

    type: Literal["openai"]
    base_url: str
    organization: str


class AzureAIProject(TypedDict):
    """An Azure AI project (``subscription_id``, ``resource_group_name``, ``project_name``): accepted where azure
    takes one, never used (nothing is logged or uploaded)."""

    subscription_id: str
    resource_group_name: str
    project_name: str


class EvaluatorConfig(TypedDict, total=False):
    """One evaluator's entry of ``evaluate(evaluator_config=...)``: its ``column_mapping``
    (``{input: "${data.<column>}" or "${target.<output>}"}``)."""

    column_mapping: dict[str, str]
