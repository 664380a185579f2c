"""The examples of shared/seeds/002 (Ragas's `evaluate` over the fiqa columns question / answer / contexts /
ground_truths) and shared/seeds/004 (NoiseSensitivity: the collections API, sync ``score`` and the legacy
``single_turn_ascore``), each wrapped in a function whose arguments are the page's globals and whose
return values are what the page prints. Only the import lines differ (``ragas`` is
``rapideval.compat.ragas``); the dataset of 002 is the shipped tests/data/fiqa_ragas_eval_baseline.jsonl
instead of a download, and 004's elided ``retrieved_contexts=[...]`` is the list of the examples above it."""
# ruff: noqa: E501, I001

from __future__ import annotations

import pathlib

FIQA = pathlib.Path(__file__).resolve().parents[1] / "data" / "fiqa_ragas_eval_baseline.jsonl"


def load_fiqa():
    """``load_dataset("explodinggradients/fiqa", "ragas_eval")``, from the shipped file."""
    from datasets import load_dataset

    return load_dataset("json", data_files={"baseline": str(FIQA)})


def fiqa_evaluate(fiqa_eval):
    from rapideval.compat.ragas.metrics import (
    answer_relevancy,
    faithfulness,
    context_recall,
    context_precision,
    )
    from rapideval.compat.ragas import evaluate
    result = evaluate(
    fiqa_eval["baseline"].select(range(3)), # selecting only 3
    metrics=[
    context_precision,
    faithfulness,
    answer_relevancy,
    context_recall,
    ],
    )
    return result


USER_INPUT = "What is the Life Insurance Corporation of India (LIC) known for?"
RESPONSE = "The Life Insurance Corporation of India (LIC) is the largest insurance company in India, known for its vast portfolio of investments. LIC contributes to the financial stability of the country."
REFERENCE = "The Life Insurance Corporation of India (LIC) is the largest insurance company in India, established in 1956 through the nationalization of the insurance industry. It is known for managing a large portfolio of investments."
CONTEXTS = [
        "The Life Insurance Corporation of India (LIC) was established in 1956 following the nationalization of the insurance industry in India.",
        "LIC is the largest insurance company in India, with a vast network of policyholders and huge investments.",
        "As the largest institutional investor in India, LIC manages substantial funds, contributing to the financial stability of the country.",
        "The Indian economy is one of the fastest-growing major economies in the world, thanks to sectors like finance, technology, manufacturing etc."
    ]


async def noise_sensitivity_collections():
    """The collections API in both modes, then the sync ``score``; returns the three results."""
    from openai import AsyncOpenAI
    from rapideval.compat.ragas.llms import llm_factory
    from rapideval.compat.ragas.metrics.collections import NoiseSensitivity

    # Setup LLM
    client = AsyncOpenAI()
    llm = llm_factory("gpt-4o-mini", client=client)

    # Create metric
    scorer = NoiseSensitivity(llm=llm)

    # Evaluate
    result = await scorer.ascore(
        user_input="What is the Life Insurance Corporation of India (LIC) known for?",
        response="The Life Insurance Corporation of India (LIC) is the largest insurance company in India, known for its vast portfolio of investments. LIC contributes to the financial stability of the country.",
        reference="The Life Insurance Corporation of India (LIC) is the largest insurance company in India, established in 1956 through the nationalization of the insurance industry. It is known for managing a large portfolio of investments.",
        retrieved_contexts=[
            "The Life Insurance Corporation of India (LIC) was established in 1956 following the nationalization of the insurance industry in India.",
            "LIC is the largest insurance company in India, with a vast network of policyholders and huge investments.",
            "As the largest institutional investor in India, LIC manages substantial funds, contributing to the financial stability of the country.",
            "The Indian economy is one of the fastest-growing major economies in the world, thanks to sectors like finance, technology, manufacturing etc."
        ]
    )
    relevant = result

    scorer = NoiseSensitivity(llm=llm, mode="irrelevant")
    result = await scorer.ascore(
        user_input="What is the Life Insurance Corporation of India (LIC) known for?",
        response="The Life Insurance Corporation of India (LIC) is the largest insurance company in India, known for its vast portfolio of investments. LIC contributes to the financial stability of the country.",
        reference="The Life Insurance Corporation of India (LIC) is the largest insurance company in India, established in 1956 through the nationalization of the insurance industry. It is known for managing a large portfolio of investments.",
        retrieved_contexts=[
            "The Life Insurance Corporation of India (LIC) was established in 1956 following the nationalization of the insurance industry in India.",
            "LIC is the largest insurance company in India, with a vast network of policyholders and huge investments.",
            "As the largest institutional investor in India, LIC manages substantial funds, contributing to the financial stability of the country.",
            "The Indian economy is one of the fastest-growing major economies in the world, thanks to sectors like finance, technology, manufacturing etc."
        ]
    )
    irrelevant = result

    result = scorer.score(
        user_input="What is the Life Insurance Corporation of India (LIC) known for?",
        response="The Life Insurance Corporation of India (LIC) is the largest insurance company in India...",
        reference="The Life Insurance Corporation of India (LIC) is the largest insurance company...",
        retrieved_contexts=CONTEXTS
    )
    await llm.aclose_connections()
    return relevant, irrelevant, result


async def noise_sensitivity_legacy(evaluator_llm):
    from rapideval.compat.ragas.dataset_schema import SingleTurnSample
    from rapideval.compat.ragas.metrics import NoiseSensitivity

    sample = SingleTurnSample(
        user_input="What is the Life Insurance Corporation of India (LIC) known for?",
        response="The Life Insurance Corporation of India (LIC) is the largest insurance company in India, known for its vast portfolio of investments. LIC contributes to the financial stability of the country.",
        reference="The Life Insurance Corporation of India (LIC) is the largest insurance company in India, established in 1956 through the nationalization of the insurance industry. It is known for managing a large portfolio of investments.",
        retrieved_contexts=[
            "The Life Insurance Corporation of India (LIC) was established in 1956 following the nationalization of the insurance industry in India.",
            "LIC is the largest insurance company in India, with a vast network of policyholders and huge investments.",
            "As the largest institutional investor in India, LIC manages substantial funds, contributing to the financial stability of the country.",
            "The Indian economy is one of the fastest-growing major economies in the world, thanks to sectors like finance, technology, manufacturing etc."
        ]
    )

    scorer = NoiseSensitivity(llm=evaluator_llm)
    relevant = await scorer.single_turn_ascore(sample)

    scorer = NoiseSensitivity(mode="irrelevant")
    irrelevant = await scorer.single_turn_ascore(sample)
    return relevant, irrelevant
