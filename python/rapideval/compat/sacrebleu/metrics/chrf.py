"""``sacrebleu.metrics.chrf`` of sacrebleu 2.6.0: ``CHRF`` (chrF and chrF++), ``CHRFScore`` and
``CHRFSignature``.

Scores of text come from the chrF kernel (rapideval._core); ``_compute_f_score``, the score of given
statistics (resamples and shuffles in ``significance``), repeats sacrebleu's operations one for one
(see :mod:`.base`).
"""

from __future__ import annotations

from typing import Any

from .... import _core
from ....metrics import chrf as _chrf
from .base import Metric, Rows, Score, Signature, Streams

__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]

Number = int | float


class CHRFSignature(Signature):
    """sacrebleu 2.6.0 ``CHRFSignature``: ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._add_fields(
            lambda short: _chrf.signature(
                0,
                args["lowercase"],
                args["eps_smoothing"],
                args["char_order"],
                args["word_order"],
                args["whitespace"],
                short,
            )
        )


class CHRFScore(Score):
    """sacrebleu 2.6.0 ``CHRFScore``: ``score``, ``char_order``, ``word_order``, ``beta``; named
    ``chrF2`` (``chrF2++`` for word order 2)."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: Number) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class CHRF(Metric):
    """``sacrebleu.metrics.CHRF`` of sacrebleu 2.6.0 (chrF, and chrF++ with ``word_order=2``);
    ``sentence_score``, ``corpus_score`` (with ``n_bootstrap``), ``get_signature`` and the statistics
    methods as there. Scores are bit for bit sacrebleu's, on its 0-100 scale."""

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2
    _SIGNATURE_TYPE = CHRFSignature

    def __init__(
        self,
        char_order: int = CHAR_ORDER,
        word_order: int = WORD_ORDER,
        beta: Number = BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Streams | None = None,
    ) -> None:
        super().__init__()
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.order = char_order + word_order
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        self._config = _chrf.config(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _compute_f_score(self, statistics: Any) -> Any:
        """``CHRF._compute_f_score`` of sacrebleu 2.6.0: chrF (0-100) of ``[hyp, ref, match]`` counts per
        order, with effective-order averaging or ``eps_smoothing``; sacrebleu's operations in its
        order, so numpy (float32) statistics give its numpy results."""
        eps = 1e-16
        score: Any = 0.0
        effective_order = 0
        factor = self.beta**2
        avg_prec: Any = 0.0
        avg_rec: Any = 0.0
        for i in range(self.order):
            n_hyp, n_ref, n_match = statistics[3 * i : 3 * i + 3]
            prec = n_match / n_hyp if n_hyp > 0 else eps
            rec = n_match / n_ref if n_ref > 0 else eps
            denom = factor * prec + rec
            score += ((1 + factor) * prec * rec / denom) if denom > 0 else eps
            if n_hyp > 0 and n_ref > 0:
                avg_prec += prec
                avg_rec += rec
                effective_order += 1
        if self.eps_smoothing:
            return 100 * score / self.order
        if effective_order == 0:
            avg_prec = avg_rec = 0.0
        else:
            avg_prec /= effective_order
            avg_rec /= effective_order
        if avg_prec + avg_rec:
            score = (1 + factor) * avg_prec * avg_rec
            score /= (factor * avg_prec) + avg_rec
            return 100 * score
        return 0.0

    def _compute_score_from_stats(self, stats: Any) -> CHRFScore:
        """``CHRF._compute_score_from_stats`` of sacrebleu 2.6.0."""
        return CHRFScore(self._compute_f_score(stats), self.char_order, self.word_order, self.beta)

    def _score(self, hypotheses: list[str], rows: Rows) -> CHRFScore:
        score, _ = _core.sacrebleu_corpus_chrf(hypotheses, rows, self._config)
        return CHRFScore(score, self.char_order, self.word_order, self.beta)

    def _segment_statistics(self, hypotheses: list[str], rows: Rows) -> list[list[Any]]:
        # The corpus kernel on one segment returns the statistics of its best reference.
        config = self._config
        return [
            list(_core.sacrebleu_corpus_chrf([hyp], [row], config)[1])
            for hyp, row in zip(hypotheses, rows, strict=False)
        ]
