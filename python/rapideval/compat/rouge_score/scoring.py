"""rouge-score 0.1.2 ``scoring``: the ``Score`` and ``AggregateScore`` tuples, ``BaseScorer``,
``BootstrapAggregator`` (same resampling, same numpy random stream, so the same intervals for the
same seed) and ``fmeasure``."""

from __future__ import annotations

import abc
import collections
from typing import Any

import numpy as np

__all__ = ["AggregateScore", "BaseScorer", "BootstrapAggregator", "Score", "fmeasure"]


class Score(collections.namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Precision, recall and F-measure."""


class AggregateScore(collections.namedtuple("AggregateScore", ["low", "mid", "high"])):
    """Confidence interval bounds (``low``, ``high``) and the mean (``mid``) of scores."""


class BaseScorer(metaclass=abc.ABCMeta):
    """Base class of scorers: ``score(target, prediction)`` returns ``{score_type: Score}``."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """The scores of ``prediction`` against ``target``."""


class BootstrapAggregator:
    """Confidence intervals of the mean of added scores by bootstrap resampling, as rouge-score's
    (and the original ROUGE perl script): ``n_samples`` resamples with replacement drawn with
    ``np.random.choice`` from numpy's global random state, percentiles of the resampled means."""

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000) -> None:
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._scores: dict[Any, list[Any]] = collections.defaultdict(list)

    def add_scores(self, scores: dict[Any, Any]) -> None:
        """Add one sample: ``{score_type: Score-like tuple}``."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> dict[Any, AggregateScore]:
        """``{score_type: AggregateScore(low, mid, high)}``, each bound of the added tuples' type."""
        result = {}
        for score_type, scores in self._scores.items():
            low, mid, high = self._bootstrap_resample(np.vstack(tuple(scores)))
            cls = scores[0].__class__
            result[score_type] = AggregateScore(low=cls(*low), mid=cls(*mid), high=cls(*high))
        return result

    def _bootstrap_resample(self, matrix: np.ndarray) -> np.ndarray:
        """Rows low, mid, high of the percentiles of the resampled means, one column per measure."""
        rows = matrix.shape[0]
        means = np.zeros((self._n_samples, matrix.shape[1]))
        population = np.arange(rows)
        for i in range(self._n_samples):
            # One draw per resample, as the reference: the random stream stays identical.
            picked = np.random.choice(population, size=rows)
            means[i, :] = np.mean(matrix[picked, :], axis=0)
        delta = (1 - self._confidence_interval) / 2
        bounds: np.ndarray = np.percentile(means, 100 * np.array([delta, 0.5, 1 - delta]), axis=0)
        return bounds


def fmeasure(precision: float, recall: float) -> float:
    """``2 * precision * recall / (precision + recall)``, or ``0.0`` when both are 0."""
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0
