"""``sacrebleu.significance`` of sacrebleu 2.6.0: ``PairedTest`` (paired bootstrap resampling ``bs`` and
paired approximate randomisation ``ar`` of several systems against a baseline), ``Result``,
``estimate_ci`` and the bootstrap behind ``corpus_score(..., n_bootstrap=N)``.

Same seed, same numbers: the random draws are sacrebleu's (``numpy.random.default_rng(seed)``, seed
from ``SACREBLEU_SEED``, default 12345, ``none`` for OS entropy; the same ``choice`` and ``integers``
calls in the same order), the segment statistics are sacrebleu's (from rapideval's kernels, see
:mod:`.metrics.base`), and the statistics of each resample or shuffle are summed and scored with
sacrebleu's numpy operations (float32 sums for bootstrap resamples, integer or float64 matrix products
for shuffles), so p-values, means and confidence intervals equal sacrebleu's bit for bit.

Differences: ``n_jobs`` is recorded as sacrebleu computes it but the comparisons run one after another
in this process (sacrebleu forks a worker pool; the results are the same); nothing is logged; a
bootstrap resample is gathered one at a time rather than all at once (the same sums, without holding
``n_samples`` copies of the corpus statistics).
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from .metrics.base import Metric, Score, Signature, Streams

__all__ = ["PairedTest", "Result", "estimate_ci"]

IS_WINDOWS = os.name == "nt"


class Result:
    """sacrebleu 2.6.0 ``Result``: a system's ``score``, and from a paired test its ``p_value`` against
    the baseline and the ``mean`` and 95% ``ci`` of its bootstrap scores (``None`` where not computed)."""

    def __init__(
        self,
        score: float,
        p_value: float | None = None,
        mean: float | None = None,
        ci: float | None = None,
    ) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join([f"{k}={v!s}" for k, v in self.__dict__.items()])


def estimate_ci(scores: Any) -> tuple[Any, Any]:
    """``estimate_ci`` of sacrebleu 2.6.0: the mean of the scores (numpy) and half the width of their
    95% interval (sorted scores ``n // 40`` and ``n - n // 40 - 1``)."""
    scores = np.sort(scores)
    n = len(scores)
    lower_idx = n // 40
    upper_idx = n - lower_idx - 1
    lower, upper = scores[lower_idx], scores[upper_idx]
    ci = 0.5 * (upper - lower)
    return (scores.mean(), ci)


def _env_seed() -> tuple[str, int | None]:
    """``SACREBLEU_SEED`` as sacrebleu reads it: the string (default ``12345``) and the seed (``None``
    for ``none`` in any case: OS entropy)."""
    seed = os.environ.get("SACREBLEU_SEED", "12345")
    return seed, None if seed.lower() == "none" else int(seed)


def _resampled_scores(metric: Metric, stats: Any, idxs: Any) -> list[Any]:
    """``[metric._compute_score_from_stats(_s.sum(0)) for _s in stats[idxs]]`` of sacrebleu, one
    resample at a time: ``stats[row]`` is the same C-contiguous array as ``stats[idxs][i]``, so its sum
    is the same, bit for bit."""
    return [metric._compute_score_from_stats(stats[row].sum(0)) for row in idxs]


def _bootstrap_resample(
    stats: list[list[int | float]], metric: Metric, n_samples: int = 1000
) -> tuple[str, list[Score]]:
    """``_bootstrap_resample`` of sacrebleu 2.6.0: ``n_samples`` resamples of the segments (with
    replacement, ``default_rng(SACREBLEU_SEED).choice``), each scored from its float32 summed
    statistics. Returns the seed as sacrebleu prints it and the resample scores."""
    seed, _seed = _env_seed()
    rng = np.random.default_rng(_seed)
    idxs = rng.choice(len(stats), size=(n_samples, len(stats)), replace=True)
    stats_np = np.array(stats, dtype="float32")
    return str(seed).lower(), _resampled_scores(metric, stats_np, idxs)


def _compute_p_value(stats: Any, real_difference: float) -> float:
    """``_compute_p_value`` of sacrebleu 2.6.0 (multeval's): ``(#{stats > real_difference} + 1) /
    (len(stats) + 1)``."""
    c: int = np.sum(stats > real_difference).item()
    return (c + 1) / (len(stats) + 1)


def _integers_exact_in_float64(stats: Any) -> bool:
    """Integer statistics whose column sums of magnitudes stay below 2**52: any sum of any of their
    values is then an integer that float64 holds exactly, whatever the order of the additions."""
    if stats.ndim != 2 or stats.dtype.kind not in "iu" or stats.size == 0:
        return False
    return float(np.abs(stats).astype(np.float64).sum(0).max()) < 2.0**52


def _selected_sums(sel: Any, stats: Any, rows: int = 1024) -> Any:
    """``sel @ stats`` for a boolean ``sel`` and integer ``stats`` that pass
    :func:`_integers_exact_in_float64`: the products in float64 (BLAS, a few rows of ``sel`` at a time)
    are exact integers, so they equal numpy's integer product, which has no BLAS path and is slow."""
    values = stats.astype(np.float64)
    out = np.empty((sel.shape[0], stats.shape[1]), dtype=stats.dtype)
    for start in range(0, sel.shape[0], rows):
        out[start : start + rows] = (sel[start : start + rows].astype(np.float64) @ values).astype(stats.dtype)
    return out


def _shuffled_sums(pos_sel: Any, neg_sel: Any, bl_stats: Any, sys_stats: Any) -> tuple[Any, Any]:
    """sacrebleu's shuffled systems, ``pos_sel @ bl + neg_sel @ sys`` and ``neg_sel @ bl + pos_sel @
    sys``. Integer statistics (BLEU, chrF) take exact float64 products and ``neg_sel @ x = x.sum(0) -
    pos_sel @ x``: the same integers; others (TER's average lengths) sacrebleu's own expressions."""
    bl, sy = np.asarray(bl_stats), np.asarray(sys_stats)
    if _integers_exact_in_float64(bl) and _integers_exact_in_float64(sy) and bl.shape == sy.shape:
        pos_bl, pos_sys = _selected_sums(pos_sel, bl), _selected_sums(pos_sel, sy)
        return pos_bl + (sy.sum(0) - pos_sys), (bl.sum(0) - pos_bl) + pos_sys
    return pos_sel @ bl_stats + neg_sel @ sys_stats, neg_sel @ bl_stats + pos_sel @ sys_stats


def _paired_ar_test(
    baseline_info: dict[str, tuple[Any, Result]],
    sys_name: str,
    hypotheses: Sequence[str],
    references: Streams | None,
    metrics: dict[str, Metric],
    n_samples: int = 10000,
    n_ar_confidence: int = -1,
    seed: int | None = None,
) -> tuple[str, dict[str, Result]]:
    """``_paired_ar_test`` of sacrebleu 2.6.0: paired two-sided approximate randomisation of one system
    against the baseline (``n_samples`` trials that swap each segment's statistics with probability
    1/2), with a bootstrap confidence interval when ``n_ar_confidence > 0``."""
    rng = np.random.default_rng(seed)
    pos_sel = rng.integers(2, size=(n_samples, len(hypotheses)), dtype=bool)
    neg_sel = ~pos_sel
    if n_ar_confidence > 0:
        bs_idxs = rng.choice(len(hypotheses), size=(n_ar_confidence, len(hypotheses)), replace=True)
    results = {}
    for name, metric in metrics.items():
        bl_stats, bl_result = baseline_info[name]
        sys_stats: Any = metric._extract_corpus_statistics(hypotheses, references)
        sys_score = metric._aggregate_and_compute(sys_stats)
        diff = abs(bl_result.score - sys_score.score)
        shuf_a, shuf_b = _shuffled_sums(pos_sel, neg_sel, bl_stats, sys_stats)
        scores_a = np.array([metric._aggregate_and_compute(x).score for x in shuf_a[:, None]])
        scores_b = np.array([metric._aggregate_and_compute(x).score for x in shuf_b[:, None]])
        p = _compute_p_value(np.abs(np.array(scores_a) - np.array(scores_b)), diff)
        res = Result(sys_score.score, p)
        if n_ar_confidence > 0:
            sys_stats = np.array(sys_stats, dtype="float32")
            sys_scores = np.array([s.score for s in _resampled_scores(metric, sys_stats, bs_idxs)])
            res.mean, res.ci = estimate_ci(sys_scores)
        results[name] = res
    return sys_name, results


def _paired_bs_test(
    baseline_info: dict[str, tuple[Any, Result]],
    sys_name: str,
    hypotheses: Sequence[str],
    references: Streams | None,
    metrics: dict[str, Metric],
    n_samples: int = 1000,
    n_ar_confidence: int = -1,
    seed: int | None = None,
) -> tuple[str, dict[str, Result]]:
    """``_paired_bs_test`` of sacrebleu 2.6.0 (Moses' ``bootstrap-hypothesis-difference-significance.pl``):
    ``n_samples`` paired resamples of the segments; the p-value of the observed score difference against
    the mean-centred resampled differences, and the system's bootstrap mean and 95% interval."""
    rng = np.random.default_rng(seed)
    results = {}
    idxs = rng.choice(len(hypotheses), size=(n_samples, len(hypotheses)), replace=True)
    for name, metric in metrics.items():
        bl_stats, bl_result = baseline_info[name]
        sys_stats: Any = metric._extract_corpus_statistics(hypotheses, references)
        sys_score = metric._aggregate_and_compute(sys_stats)
        sys_stats = np.array(sys_stats, dtype="float32")
        bl_stats = np.array(bl_stats, dtype="float32")
        diff = abs(bl_result.score - sys_score.score)
        scores_bl = np.array([s.score for s in _resampled_scores(metric, bl_stats, idxs)])
        scores_sys = np.array([s.score for s in _resampled_scores(metric, sys_stats, idxs)])
        sys_mean, sys_ci = estimate_ci(scores_sys)
        sample_diffs = np.abs(scores_sys - scores_bl)
        stats = sample_diffs - sample_diffs.mean()
        p = _compute_p_value(stats, diff)
        results[name] = Result(sys_score.score, p, sys_mean, sys_ci)
    return sys_name, results


class PairedTest:
    """sacrebleu 2.6.0 ``PairedTest(named_systems, metrics, references, test_type='ar', n_samples=0,
    n_ar_confidence=-1, n_jobs=1)``: the first of ``named_systems`` (``(name, hypotheses)`` pairs) is
    the baseline; ``test_type`` is ``ar`` (approximate randomisation, 10,000 trials by default) or
    ``bs`` (paired bootstrap, 1,000 resamples by default); ``references=None`` uses each metric's cached
    references. Calling it returns ``(signatures, scores)`` as sacrebleu does: per metric name the
    signature (with ``seed`` and ``bs``/``ar``), and a table ``{'System': names, metric name: [Result,
    ...]}``. Seeded from ``SACREBLEU_SEED`` (default 12345) and equal to sacrebleu's results bit for
    bit; ``n_jobs`` does not change them (the comparisons run in this process, one after another)."""

    _DEFAULT_SAMPLES: ClassVar[dict[str, int]] = {"ar": 10000, "bs": 1000}

    def __init__(
        self,
        named_systems: list[tuple[str, Sequence[str]]],
        metrics: Mapping[str, Metric],
        references: Streams | None,
        test_type: str = "ar",
        n_samples: int = 0,
        n_ar_confidence: int = -1,
        n_jobs: int = 1,
    ) -> None:
        if test_type not in ("ar", "bs"):
            raise AssertionError(f"Unknown test type {test_type!r}")
        self.test_type = test_type
        self._fn: Callable[..., tuple[str, dict[str, Result]]] = (
            _paired_ar_test if test_type == "ar" else _paired_bs_test
        )
        self._seed = _env_seed()[1]
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = named_systems
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else self._DEFAULT_SAMPLES["bs"]
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[self.test_type]
        self.n_systems = len(named_systems) - 1
        if IS_WINDOWS:
            self.n_jobs = 1
        elif self.n_jobs == 0:
            n_max_jobs = mp.cpu_count() // 2
            self.n_jobs = 1 if n_max_jobs == 0 else min(n_max_jobs, self.n_systems)

        self._signatures: dict[str, Signature] = {}
        self._baseline_info: dict[str, tuple[Any, Result]] = {}
        self.metrics: dict[str, Metric] = {}
        _bl_name, bl_hyps = self.named_systems[0]
        for metric in metrics.values():
            bl_stats = metric._extract_corpus_statistics(bl_hyps, self.references)
            bl_score = metric._aggregate_and_compute(bl_stats)
            confidence_n = self.n_samples if self.test_type == "bs" else self.n_ar_confidence
            bl_mean, bl_ci = None, None
            if confidence_n > 0:
                _, bl_scores = _bootstrap_resample(bl_stats, metric, confidence_n)
                bl_mean, bl_ci = estimate_ci(np.array([x.score for x in bl_scores]))
            result = Result(bl_score.score, mean=bl_mean, ci=bl_ci)
            self._baseline_info[bl_score.name] = (bl_stats, result)
            self.metrics[bl_score.name] = metric
            sig = metric.get_signature()
            sig.update("seed", str(self._seed).lower())
            sig.update(self.test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                sig.update("bs", self.n_ar_confidence)
            self._signatures[bl_score.name] = sig

    def __call__(self) -> tuple[dict[str, Signature], dict[str, list[str | Result]]]:
        """Runs the test of every system against the baseline."""
        scores: dict[str, list[str | Result]] = {}
        scores["System"] = [ns[0] for ns in self.named_systems]
        for metric, (_, result) in self._baseline_info.items():
            scores[metric] = [result]
        seed = self._seed if self._seed else None
        for name, hyps in self.named_systems[1:]:
            _, sys_results = self._fn(
                self._baseline_info, name, hyps, self.references, self.metrics, self.n_samples,
                self.n_ar_confidence, seed,
            )  # fmt: skip
            for metric, _result in sys_results.items():
                scores[metric].append(_result)
        return self._signatures, scores
