"""Drop-in replacement for sacrebleu 2.6.0 BLEU: ``from rapideval.compat.sacrebleu import corpus_bleu``.

``sentence_bleu``, ``corpus_bleu``, ``raw_corpus_bleu`` and ``BLEU`` take the arguments of
``sacrebleu.compat`` / ``sacrebleu.metrics.bleu`` 2.6.0 (references as *streams*: a list of reference
documents, each holding one string, or ``None``, per hypothesis) and return a ``BLEUScore`` whose
fields and ``str()`` are sacrebleu's, bit for bit, for the tokenizers ``13a``, ``intl``, ``char`` and
``none``. Differences: other tokenizers (``zh``, ``ja-mecab``, ``ko-mecab``, ``spm``, ``flores*``) and
bootstrap resampling are not available (``ValueError``); streams whose length differs from the
hypotheses raise ``ValueError`` instead of being silently truncated by ``zip``; a segment whose
references are all ``None`` raises ``ValueError`` (sacrebleu: ``TypeError``) unless its hypothesis is
empty.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Optional, Union

from ..metrics.sacrebleu import SMOOTH_DEFAULTS, corpus_parts, signature

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu"]

Number = Union[int, float]


class BLEUScore:
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
        self.name = "BLEU"
        self.score = score
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

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        """``Score.format`` of sacrebleu 2.6.0 (no confidence interval: bootstrap is not available)."""
        sc = f"{self.score:.{width}f}"
        if score_only:
            return sc
        if is_json:
            d: dict[str, Any] = {
                "name": self.name,
                "score": float(sc),
                "signature": signature,
                "verbose_score": self._verbose,
            }
            for param in signature.split("|"):
                key, value = param.split(":")
                d[key] = value
            return json.dumps(d, indent=1, ensure_ascii=False)
        head = f"{self.name}|{signature}" if signature else self.name
        return f"{head} = {sc} {self._verbose}"

    def __repr__(self) -> str:
        return self.format()


class BLEUSignature:
    """sacrebleu 2.6.0 ``BLEUSignature``: ``format(short=False)`` and ``str()``."""

    def __init__(self, metric: BLEU) -> None:
        if not hasattr(metric, "num_refs"):
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        self._metric = metric

    def format(self, short: bool = False) -> str:
        m = self._metric
        nrefs = "var" if m.num_refs == -1 else m.num_refs
        return signature(nrefs, m.lowercase, m.effective_order, m.tokenize, m.smooth_method, m.smooth_value, short)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


class BLEU:
    """``sacrebleu.metrics.BLEU`` of sacrebleu 2.6.0 with the tokenizers ``13a`` (default), ``intl``,
    ``char`` and ``none``; ``sentence_score``, ``corpus_score`` and ``get_signature`` as there."""

    SMOOTH_DEFAULTS = SMOOTH_DEFAULTS
    TOKENIZERS = ("none", "13a", "intl", "char")
    TOKENIZER_DEFAULT = "13a"

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: Optional[str] = None,
        smooth_method: str = "exp",
        smooth_value: Optional[float] = None,
        max_ngram_order: int = 4,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
    ) -> None:
        if smooth_method not in SMOOTH_DEFAULTS:
            raise AssertionError(f"Unknown smooth_method {smooth_method!r}")
        if tokenize is None:
            if trg_lang in ("zh", "ja", "ko"):
                raise ValueError(f"sacrebleu picks a {trg_lang!r} tokenizer here, which rapideval does not provide")
            tokenize = self.TOKENIZER_DEFAULT
        if tokenize not in self.TOKENIZERS:
            raise ValueError(f"tokenizer {tokenize!r} is not available; expected one of {', '.join(self.TOKENIZERS)}")
        self.lowercase = lowercase
        self.force = force
        self.tokenize = tokenize
        self.smooth_method = smooth_method
        self.smooth_value = smooth_value
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        self.trg_lang = trg_lang
        self._ref_rows: Optional[list[list[str]]] = None
        if references is not None:
            self._ref_rows = self._cache_references(references)

    def _cache_references(self, references: Sequence[Sequence[Optional[str]]]) -> list[list[str]]:
        """Streams to rows, ``None`` dropped; sets ``num_refs`` (-1 when it varies) as sacrebleu does."""
        lengths = {len(stream) for stream in references}
        if len(lengths) > 1:
            raise ValueError(f"reference streams have different lengths: {sorted(lengths)}")
        rows = [[r for r in segment if r is not None] for segment in zip(*references)]
        sizes = {len(row) for row in rows}
        self.num_refs = sizes.pop() if len(sizes) == 1 else -1
        return rows

    def _score(self, hypotheses: list[str], rows: list[list[str]]) -> BLEUScore:
        if len(hypotheses) != len(rows):
            raise ValueError(f"{len(hypotheses)} hypotheses but the reference streams have {len(rows)} segments")
        score, counts, totals, precisions, bp, sys_len, ref_len = corpus_parts(
            hypotheses, rows, self.tokenize, self.lowercase, self.smooth_method, self.smooth_value,
            self.effective_order, self.max_ngram_order,
        )  # fmt: skip
        return BLEUScore(score, list(counts), list(totals), list(precisions), bp, sys_len, ref_len)

    def _rows(self, references: Optional[Sequence[Sequence[Optional[str]]]]) -> list[list[str]]:
        if references:
            return self._cache_references(references)
        if self._ref_rows:
            return self._ref_rows
        raise RuntimeError("No references provided and the cache is empty.")

    def sentence_score(self, hypothesis: str, references: Sequence[Optional[str]]) -> BLEUScore:
        """BLEU of one hypothesis against one or more references (``None`` entries ignored)."""
        if not isinstance(hypothesis, str):
            raise TypeError("BLEU: The argument `hyp` should be a string.")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise TypeError("BLEU: The argument `refs` should be a sequence of strings.")
        if not isinstance(references[0], str) and references[0] is not None:
            raise TypeError("BLEU: Each element of `refs` should be a string.")
        return self._score([hypothesis], self._rows([[r] for r in references]))

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[Optional[str]]]],
        n_bootstrap: int = 1,
    ) -> BLEUScore:
        """Corpus BLEU; ``references`` is a list of streams (or ``None`` to use the cached ones)."""
        if n_bootstrap > 1:
            raise ValueError("bootstrap resampling is not available in rapideval.compat.sacrebleu")
        if not isinstance(hypotheses, Sequence):
            raise TypeError("BLEU: `hyps` should be a sequence of strings.")
        if not isinstance(hypotheses[0], str):
            raise TypeError("BLEU: Each element of `hyps` should be a string.")
        if any(h is None for h in hypotheses):
            raise TypeError("BLEU: Undefined line in hypotheses stream!")
        if references is not None:
            if not isinstance(references, Sequence):
                raise TypeError("BLEU: `refs` should be a sequence of sequence of strings.")
            if not isinstance(references[0], Sequence):
                raise TypeError("BLEU: Each element of `refs` should be a sequence of strings.")
            if not isinstance(references[0][0], str) and references[0][0] is not None:
                raise TypeError("BLEU: `refs` should be a sequence of sequence of strings.")
        return self._score(list(hypotheses), self._rows(references))

    def get_signature(self) -> BLEUSignature:
        """The reproducibility signature (available once references were seen)."""
        return BLEUSignature(self)


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = False,
) -> BLEUScore:
    """``sacrebleu.corpus_bleu`` of sacrebleu 2.6.0 (references as streams)."""
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize, smooth_method=smooth_method,
                  smooth_value=smooth_value, effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    smooth_value: Optional[float] = SMOOTH_DEFAULTS["floor"],
) -> BLEUScore:
    """``sacrebleu.raw_corpus_bleu`` of sacrebleu 2.6.0: no tokenization, floor smoothing, effective order."""
    return corpus_bleu(hypotheses, references, smooth_method="floor", smooth_value=smooth_value, force=True,
                       tokenize="none", use_effective_order=True)


def sentence_bleu(
    hypothesis: str,
    references: Sequence[Optional[str]],
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = True,
) -> BLEUScore:
    """``sacrebleu.sentence_bleu`` of sacrebleu 2.6.0."""
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=False, smooth_method=smooth_method,
                  smooth_value=smooth_value, effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)
