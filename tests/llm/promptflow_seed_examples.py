"""The usage examples of promptflow-evals 0.3.5's quality evaluators (shared/seeds/003: Coherence,
Fluency, Groundedness, Relevance, Similarity, QA and Chat), each wrapped in a function whose arguments are
the page's globals and whose return value is the page's ``result``. The code is the page's, verbatim; only
the import lines are added (``promptflow.evals.evaluators`` is ``rapideval.compat.promptflow.evaluators``).
The QA example calls ``qa_eval``, a name the page never defines (it builds ``eval_fn``; promptflow's own
docstring has the same slip), so ``qa_eval`` is an argument like ``model_config``."""
# ruff: noqa: E501, I001, F841

from __future__ import annotations


def coherence(model_config):
    from rapideval.compat.promptflow.evaluators import CoherenceEvaluator

    eval_fn = CoherenceEvaluator(model_config)
    result = eval_fn(
        question="What is the capital of Japan?",
        answer="The capital of Japan is Tokyo.")
    return result


def fluency(model_config):
    from rapideval.compat.promptflow.evaluators import FluencyEvaluator

    eval_fn = FluencyEvaluator(model_config)
    result = eval_fn(
        question="What is the capital of Japan?",
        answer="The capital of Japan is Tokyo.")
    return result


def groundedness(model_config):
    from rapideval.compat.promptflow.evaluators import GroundednessEvaluator

    eval_fn = GroundednessEvaluator(model_config)
    result = eval_fn(
        answer="The capital of Japan is Tokyo.",
        context="Tokyo is Japan's capital, known for its blend of traditional culture                 and technological advancements.")
    return result


def relevance(model_config):
    from rapideval.compat.promptflow.evaluators import RelevanceEvaluator

    eval_fn = RelevanceEvaluator(model_config)
    result = eval_fn(
        question="What is the capital of Japan?",
        answer="The capital of Japan is Tokyo.",
        context="Tokyo is Japan's capital, known for its blend of traditional culture                 and technological advancements.")
    return result


def similarity(model_config):
    from rapideval.compat.promptflow.evaluators import SimilarityEvaluator

    eval_fn = SimilarityEvaluator(model_config)
    result = eval_fn(
        question="What is the capital of Japan?",
        answer="The capital of Japan is Tokyo.",
        ground_truth="Tokyo is Japan's capital.")
    return result


def qa(model_config, qa_eval):
    from rapideval.compat.promptflow.evaluators import QAEvaluator

    eval_fn = QAEvaluator(model_config)
    result = qa_eval(
        question="Tokyo is the capital of which country?",
        answer="Japan",
        context="Tokyo is the capital of Japan.",
        ground_truth="Japan"
    )
    return result


def chat(model_config):
    from rapideval.compat.promptflow.evaluators import ChatEvaluator

    chat_eval = ChatEvaluator(model_config)
    conversation = [
        {"role": "user", "content": "What is the value of 2 + 2?"},
        {"role": "assistant", "content": "2 + 2 = 4", "context": {
            "citations": [
                    {"id": "math_doc.md", "content": "Information about additions: 1 + 2 = 3, 2 + 2 = 4"}
                    ]
            }
        }
    ]
    result = chat_eval(conversation=conversation)
    return result
