"""``sacrebleu.metrics.bleu`` of sacrebleu 2.6.0: ``BLEU``, ``BLEUScore`` and ``BLEUSignature``.

Scores of text come from the BLEU kernel (rapideval._core, bit for bit with sacrebleu for the
tokenizers ``13a``, ``intl``, ``char``, ``none``, and ``zh``: the ``zh`` tokenizer runs in Python, see
:mod:`..tokenizers.tokenizer_zh`, and the kernel then reads its output untokenized). ``compute_bleu``,
the score of given statistics, repeats sacrebleu's operations one for one (see :mod:`.base`).
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from .... import _core
from ....metrics.sacrebleu import SMOOTH_DEFAULTS, corpus_parts, native_settings, signature
from .._helpers import my_log
from ..tokenizers.tokenizer_zh import TokenizerZh
from .base import Metric, Rows, Score, Signature, Streams

__all__ = ["BLEU", "MAX_NGRAM_ORDER", "BLEUScore", "BLEUSignature"]

#: sacrebleu's default maximum n-gram order.
MAX_NGRAM_ORDER = 4

Number = int | float


class BLEUSignature(Signature):
    """sacrebleu 2.6.0 ``BLEUSignature``: ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._add_fields(
            lambda short: signature(
                0,
                args["lowercase"],
                args["effective_order"],
                args["tokenizer_signature"],
                args["smooth_method"],
                args["smooth_value"],
                short,
            )
        )


class BLEUScore(Score):
    """sacrebleu 2.6.0 ``BLEUScore``: ``score``, ``counts``, ``totals``, ``precisions``, ``bp``,
    ``sys_len``, ``ref_len``, ``prec_str``, ``ratio``, and ``format()`` / ``str()`` as sacrebleu prints
    them (``BLEU = 12.34 45.0/20.0/10.0/5.0 (BP = 1.000 ratio = 1.000 hyp_len = 9 ref_len = 9)``)."""

    def __init__(
        self,
        score: float,
        counts: list[Number],
        totals: list[Number],
        precisions: list[float],
        bp: float,
        sys_len: int,
        ref_len: int,
    ) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.prec_str = "/".join(f"{p:.1f}" for p in precisions)
        self.ratio = sys_len / ref_len if ref_len else 0
        self._verbose = (
            f"{self.prec_str} (BP = {bp:.3f} ratio = {self.ratio:.3f} hyp_len = {sys_len:d} ref_len = {ref_len:d})"
        )


class BLEU(Metric):
    """``sacrebleu.metrics.BLEU`` of sacrebleu 2.6.0 with the tokenizers ``13a`` (default), ``intl``,
    ``char``, ``none`` and ``zh`` (also picked by ``trg_lang="zh"``); ``sentence_score``,
    ``corpus_score`` (with ``n_bootstrap``), ``get_signature``, ``compute_bleu`` and the statistics
    methods as there. Scores are bit for bit sacrebleu's, on its 0-100 scale."""

    SMOOTH_DEFAULTS = SMOOTH_DEFAULTS
    TOKENIZERS = ("none", "zh", "13a", "intl", "char")
    TOKENIZER_DEFAULT = "13a"
    _TOKENIZER_MAP: ClassVar[dict[str, str]] = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
    _SIGNATURE_TYPE = BLEUSignature

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = MAX_NGRAM_ORDER,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Streams | None = None,
    ) -> None:
        super().__init__()
        if smooth_method not in SMOOTH_DEFAULTS:
            raise AssertionError(f"Unknown smooth_method {smooth_method!r}")
        if tokenize is None:
            tokenize = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        if tokenize not in self.TOKENIZERS:
            raise ValueError(f"tokenizer {tokenize!r} is not available; expected one of {', '.join(self.TOKENIZERS)}")
        self._force = force
        self.force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        self.tokenize = tokenize
        self.tokenizer_signature = tokenize
        self._zh = TokenizerZh() if tokenize == "zh" else None
        if references is not None:
            self._ref_cache = self._cache_references(references)

    @staticmethod
    def compute_bleu(
        correct: Any,
        total: Any,
        sys_len: int,
        ref_len: int,
        smooth_method: str = "none",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_ngram_order: int = MAX_NGRAM_ORDER,
    ) -> BLEUScore:
        """``BLEU.compute_bleu`` of sacrebleu 2.6.0: BLEU (0-100) of sufficient statistics (matches and
        totals per order, system and reference lengths) with smoothing ``none``, ``floor`` (default
        0.1), ``add-k`` (default 1) or ``exp``. As in sacrebleu, add-k adds to ``correct`` and ``total``
        in place. Bit for bit sacrebleu's, for lists and numpy arrays alike (the same operations in the
        same order: this is the one place the score is computed from given statistics, not from text)."""
        if smooth_method not in SMOOTH_DEFAULTS:
            raise AssertionError(f"Unknown smooth_method {smooth_method!r}")
        if smooth_value is None:
            smooth_value = SMOOTH_DEFAULTS[smooth_method]
        bp = 1.0
        if sys_len < ref_len:
            bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
        precisions = [0.0] * max_ngram_order
        if not any(correct):
            return BLEUScore(0.0, correct, total, precisions, bp, sys_len, ref_len)
        smooth_mteval = 1.0
        eff_order = max_ngram_order
        for n in range(1, len(precisions) + 1):
            if smooth_method == "add-k" and n > 1:
                correct[n - 1] += smooth_value
                total[n - 1] += smooth_value
            if total[n - 1] == 0:
                break
            if effective_order:
                eff_order = n
            if correct[n - 1] == 0:
                if smooth_method == "exp":
                    smooth_mteval *= 2
                    precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
                elif smooth_method == "floor":
                    precisions[n - 1] = 100.0 * smooth_value / total[n - 1]  # type: ignore[operator]
            else:
                precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
        score = bp * math.exp(sum([my_log(p) for p in precisions[:eff_order]]) / eff_order)
        return BLEUScore(score, correct, total, precisions, bp, sys_len, ref_len)

    def _compute_score_from_stats(self, stats: Any) -> BLEUScore:
        """``BLEU._compute_score_from_stats`` of sacrebleu 2.6.0: ``compute_bleu`` of summed statistics
        ``[sys_len, ref_len, correct_1..N, total_1..N]`` with this metric's options."""
        return self.compute_bleu(
            correct=stats[2 : 2 + self.max_ngram_order],
            total=stats[2 + self.max_ngram_order :],
            sys_len=int(stats[0]),
            ref_len=int(stats[1]),
            smooth_method=self.smooth_method,
            smooth_value=self.smooth_value,
            effective_order=self.effective_order,
            max_ngram_order=self.max_ngram_order,
        )

    def _kernel_inputs(self, hypotheses: list[str], rows: Rows) -> tuple[list[str], Rows, str, bool]:
        """The kernel's texts, tokenizer and lowercase flag. ``zh`` has no kernel: its output (of the
        lower-cased, right-stripped segment, as ``BLEU._preprocess_segment``) goes to the kernel as
        ``none``, which leaves it as it is (it is already stripped and single-spaced)."""
        zh = self._zh
        if zh is None:
            return hypotheses, rows, self.tokenize, self.lowercase
        lowercase = self.lowercase

        def pre(sent: str) -> str:
            return zh((sent.lower() if lowercase else sent).rstrip())

        return [pre(h) for h in hypotheses], [[pre(r) for r in row] for row in rows], "none", False

    def _score(self, hypotheses: list[str], rows: Rows) -> BLEUScore:
        hyps, rows, tokenize, lowercase = self._kernel_inputs(hypotheses, rows)
        score, counts, totals, precisions, bp, sys_len, ref_len = corpus_parts(
            hyps,
            rows,
            tokenize,
            lowercase,
            self.smooth_method,
            self.smooth_value,
            self.effective_order,
            self.max_ngram_order,
        )
        return BLEUScore(score, list(counts), list(totals), list(precisions), bp, sys_len, ref_len)

    def _segment_statistics(self, hypotheses: list[str], rows: Rows) -> list[list[Any]]:
        # The corpus kernel on one segment without smoothing returns that segment's counts and totals
        # unchanged (only add-k changes them).
        hyps, rows, tokenize, lowercase = self._kernel_inputs(hypotheses, rows)
        settings = native_settings(tokenize, lowercase, "none", None, False, self.max_ngram_order)
        stats = []
        for hyp, row in zip(hyps, rows, strict=False):
            _, counts, totals, _, _, sys_len, ref_len = _core.sacrebleu_corpus_bleu([hyp], [row], settings)
            stats.append([sys_len, ref_len, *map(int, counts), *map(int, totals)])
        return stats
