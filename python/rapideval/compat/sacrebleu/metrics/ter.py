"""``sacrebleu.metrics.ter`` of sacrebleu 2.6.0: ``TER``, ``TERScore`` and ``TERSignature``.

Scores of text come from the TER kernel (rapideval._core: tercom tokenizer and beam edit distance with
shifts); ``_compute_score_from_stats``, the score of given statistics, repeats sacrebleu's operations
(see :mod:`.base`).
"""

from __future__ import annotations

from typing import Any

from .... import _core
from ....metrics import ter as _ter
from .base import Metric, Rows, Score, Signature, Streams

__all__ = ["TER", "TERScore", "TERSignature"]


class TERSignature(Signature):
    """sacrebleu 2.6.0 ``TERSignature``: ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0``."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._add_fields(
            lambda short: _ter.signature(
                0, args["case_sensitive"], args["normalized"], args["no_punct"], args["asian_support"], short
            )
        )


class TERScore(Score):
    """sacrebleu 2.6.0 ``TERScore``: ``score``, ``num_edits`` (an int) and ``ref_length``."""

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TER(Metric):
    """``sacrebleu.metrics.TER`` of sacrebleu 2.6.0; ``sentence_score``, ``corpus_score`` (with
    ``n_bootstrap``), ``get_signature`` and the statistics methods as there. Scores are bit for bit
    sacrebleu's, on its 0-100 scale."""

    _SIGNATURE_TYPE = TERSignature

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Streams | None = None,
    ) -> None:
        super().__init__()
        self.no_punct = no_punct
        self.normalized = normalized
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.tokenizer_signature = "tercom"
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _options(self) -> _core.TerSettings:
        return _ter.native_settings(self.normalized, self.no_punct, self.asian_support, self.case_sensitive)

    def _compute_score_from_stats(self, stats: Any) -> TERScore:
        """``TER._compute_score_from_stats`` of sacrebleu 2.6.0: ``100 * edits / reference length``;
        100 for edits against empty references, 0 when both are empty."""
        total_edits, sum_ref_lengths = stats[0], stats[1]
        if sum_ref_lengths > 0:
            score = total_edits / sum_ref_lengths
        elif total_edits > 0:
            score = 1.0
        else:
            score = 0.0
        return TERScore(100 * score, total_edits, sum_ref_lengths)

    def _score(self, hypotheses: list[str], rows: Rows) -> TERScore:
        score, num_edits, ref_length = _core.sacrebleu_corpus_ter(hypotheses, rows, self._options())
        return TERScore(score, num_edits, ref_length)

    def _segment_statistics(self, hypotheses: list[str], rows: Rows) -> list[list[Any]]:
        # The corpus kernel on one segment returns its fewest edits and average reference length.
        options = self._options()
        stats: list[list[Any]] = []
        for hyp, row in zip(hypotheses, rows, strict=False):
            _, num_edits, ref_length = _core.sacrebleu_corpus_ter([hyp], [row], options)
            stats.append([num_edits, ref_length])
        return stats
