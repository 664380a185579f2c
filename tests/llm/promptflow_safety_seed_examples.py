"""The usage examples of promptflow-evals 0.3.5's safety evaluators, as shared/seeds/003 (the
``promptflow.evals.evaluators`` reference, in Chinese) gives them, each wrapped in a function whose arguments
are the page's globals (``model_config``) and whose return value is the example's ``result``. Only the import
lines differ: ``promptflow.evals`` is ``rapideval.compat.promptflow`` (the page's examples have none; each
function imports its evaluator). The page's ``project_scope`` is a placeholder Azure project: ignored here,
the judge comes from the environment. Two examples pass ``model_config`` where the signature says
``project_scope``: a model configuration there is the judge. The ContentSafetyChatEvaluator example calls
the class, not ``eval_fn``, with ``conversation=``: a TypeError in promptflow as here."""
# ruff: noqa: E501, I001, F841

from __future__ import annotations


def content_safety_chat(model_config):
    from rapideval.compat.promptflow.evaluators import ContentSafetyChatEvaluator

    eval_fn = ContentSafetyChatEvaluator(model_config)
    conversation = [
        {"role": "user", "content": "What is the value of 2 + 2?"},
        {"role": "assistant", "content": "2 + 2 = 4"}
    ]
    result = ContentSafetyChatEvaluator(conversation=conversation)
    return result


def content_safety():
    from rapideval.compat.promptflow.evaluators import ContentSafetyEvaluator

    project_scope = {
        "subscription_id": "<subscription_id>",
        "resource_group_name": "<resource_group_name>",
        "project_name": "<project_name>",
    }
    eval_fn = ContentSafetyEvaluator(project_scope)
    result = eval_fn(
        question="What is the capital of France?",
        answer="Paris.",
    )
    return result


def hate_unfairness():
    from rapideval.compat.promptflow.evaluators import HateUnfairnessEvaluator

    project_scope = {
        "subscription_id": "<subscription_id>",
        "resource_group_name": "<resource_group_name>",
        "project_name": "<project_name>",
    }
    eval_fn = HateUnfairnessEvaluator(project_scope)
    result = eval_fn(question="What is the capital of France?", answer="Paris.")
    return result


def indirect_attack(model_config):
    from rapideval.compat.promptflow.evaluators import IndirectAttackEvaluator

    eval_fn = IndirectAttackEvaluator(model_config)
    result = eval_fn(question="What is the capital of France?", answer="Paris.")
    return result


def protected_material():
    from rapideval.compat.promptflow.evaluators import ProtectedMaterialEvaluator

    project_scope = {
        "subscription_id": "<subscription_id>",
        "resource_group_name": "<resource_group_name>",
        "project_name": "<project_name>",
    }
    eval_fn = ProtectedMaterialEvaluator(project_scope)
    result = eval_fn(question="What is the capital of France?", answer="Paris.")
    return result


def self_harm():
    from rapideval.compat.promptflow.evaluators import SelfHarmEvaluator

    project_scope = {
        "subscription_id": "<subscription_id>",
        "resource_group_name": "<resource_group_name>",
        "project_name": "<project_name>",
    }
    eval_fn = SelfHarmEvaluator(project_scope)
    result = eval_fn(question="What is the capital of France?", answer="Paris.")
    return result


def sexual():
    from rapideval.compat.promptflow.evaluators import SexualEvaluator

    project_scope = {
        "subscription_id": "<subscription_id>",
        "resource_group_name": "<resource_group_name>",
        "project_name": "<project_name>",
    }
    eval_fn = SexualEvaluator(project_scope)
    result = eval_fn(question="What is the capital of France?", answer="Paris.")
    return result


def violence():
    from rapideval.compat.promptflow.evaluators import ViolenceEvaluator

    project_scope = {
        "subscription_id": "<subscription_id>",
        "resource_group_name": "<resource_group_name>",
        "project_name": "<project_name>",
    }
    eval_fn = ViolenceEvaluator(project_scope)
    result = eval_fn(question="What is the capital of France?", answer="Paris.")
    return result
