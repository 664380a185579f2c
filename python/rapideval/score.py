"""Score columns of responses against references with several deterministic metrics at once.

The registry below is the one list of metrics the CLI and :func:`score` know, with the reference each
one reproduces; the metric functions themselves live in :mod:`rapideval.metrics`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


@dataclasses.dataclass(frozen=True)
class Metric:
    name: str
    reference: str
    compute: Callable[[list[Any], list[Any]], np.ndarray]
    #: Scored when no metrics are named (the README's main command).
    default: bool = True
    #: False for an error rate (TER): a lower value is better.
    higher_is_better: bool = True


def _bleu(responses: list[Any], references: list[Any]) -> np.ndarray:
    from .metrics.bleu import bleu

    return bleu(responses, references)


def _gleu(responses: list[Any], references: list[Any]) -> np.ndarray:
    from .metrics.gleu import gleu

    return gleu(responses, references)


def _f1(responses: list[Any], references: list[Any]) -> np.ndarray:
    from .metrics.f1 import f1

    return f1(responses, references)


def _exact_match(responses: list[Any], references: list[Any]) -> np.ndarray:
    from .metrics.f1 import exact_match

    return exact_match(responses, references)


def _sacrebleu(responses: list[Any], references: list[Any]) -> np.ndarray:
    from .metrics.sacrebleu import sacrebleu_bleu

    return sacrebleu_bleu(responses, references)


def _rouge(rouge_type: str) -> Callable[[list[Any], list[Any]], np.ndarray]:
    def compute(responses: list[Any], references: list[Any]) -> np.ndarray:
        from .metrics.rouge import rouge

        return rouge(responses, references, rouge_types=[rouge_type])[rouge_type].fmeasure

    return compute


def _meteor(responses: list[Any], references: list[Any]) -> np.ndarray:
    from .metrics.meteor import meteor

    return meteor(responses, references)


def _chrf(responses: list[Any], references: list[Any]) -> np.ndarray:
    from .metrics.chrf import chrf

    return chrf(responses, references)


def _ter(responses: list[Any], references: list[Any]) -> np.ndarray:
    from .metrics.ter import ter

    return ter(responses, references)


METRICS: dict[str, Metric] = {
    m.name: m
    for m in [
        Metric("bleu", "promptflow-evals 0.3.5 BleuScoreEvaluator (nltk sentence_bleu, method4)", _bleu),
        Metric("gleu", "promptflow-evals 0.3.5 GleuScoreEvaluator (nltk sentence_gleu)", _gleu),
        Metric("f1", "promptflow-evals 0.3.5 F1ScoreEvaluator (SQuAD token F1)", _f1),
        Metric("exact_match", "SQuAD exact match (promptflow normalisation)", _exact_match),
        Metric("sacrebleu", "sacrebleu 2.6.0 sentence_bleu / 100", _sacrebleu),
        Metric("rouge1", "promptflow-evals 0.3.5 RougeScoreEvaluator(rouge1) f1 (rouge-score 0.1.2)", _rouge("rouge1")),
        Metric("rouge2", "promptflow-evals 0.3.5 RougeScoreEvaluator(rouge2) f1 (rouge-score 0.1.2)", _rouge("rouge2")),
        Metric("rougeL", "promptflow-evals 0.3.5 RougeScoreEvaluator(rougeL) f1 (rouge-score 0.1.2)", _rouge("rougeL")),
        Metric(
            "rougeLsum", "rouge-score 0.1.2 rougeLsum f1 (one sentence per line)", _rouge("rougeLsum"), default=False
        ),
        Metric("meteor", "promptflow-evals 0.3.5 MeteorScoreEvaluator (nltk meteor_score)", _meteor),
        Metric("chrf", "sacrebleu 2.6.0 sentence_chrf / 100", _chrf),
        Metric("ter", "sacrebleu 2.6.0 sentence_ter / 100 (lower is better)", _ter, higher_is_better=False),
    ]
}

DEFAULT_METRICS: tuple[str, ...] = tuple(m.name for m in METRICS.values() if m.default)


def score(
    responses: Sequence[Any], references: Sequence[Any], metrics: Sequence[str] = DEFAULT_METRICS
) -> dict[str, np.ndarray]:
    """Per-row scores of every named metric, as ``{name: float64 array}``."""
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise ValueError(f"unknown metric(s) {unknown}; available: {sorted(METRICS)}")
    responses, references = list(responses), list(references)
    return {m: METRICS[m].compute(responses, references) for m in metrics}
