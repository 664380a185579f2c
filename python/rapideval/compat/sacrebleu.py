"""Drop-in replacement for sacrebleu 2.6.0 BLEU, chrF and TER: ``from rapideval.compat.sacrebleu import
corpus_bleu``.

``sentence_bleu``, ``corpus_bleu``, ``raw_corpus_bleu``, ``BLEU``, ``sentence_chrf``, ``corpus_chrf``,
``CHRF``, ``sentence_ter``, ``corpus_ter`` and ``TER`` take the arguments of ``sacrebleu.compat`` /
``sacrebleu.metrics`` 2.6.0 (references as *streams*: a list of reference documents, each holding one
string, or ``None``, per hypothesis) and return score objects whose fields and ``str()`` are
sacrebleu's, bit for bit (BLEU for the tokenizers ``13a``, ``intl``, ``char`` and ``none``).
Differences: other BLEU tokenizers (``zh``, ``ja-mecab``, ``ko-mecab``, ``spm``, ``flores*``) and
bootstrap resampling are not available (``ValueError``); streams whose length differs from the
hypotheses raise ``ValueError`` instead of being silently truncated by ``zip``; a segment whose
references are all ``None`` raises ``ValueError`` (sacrebleu: ``TypeError`` or ``ZeroDivisionError``)
unless it is BLEU's with an empty hypothesis; chrF orders must be integers from 0 to 1000, not both 0.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Optional, Union

from .. import _core
from ..metrics import chrf as _chrf
from ..metrics import ter as _ter
from ..metrics.sacrebleu import SMOOTH_DEFAULTS, corpus_parts, signature

__all__ = [
    "BLEU",
    "CHRF",
    "TER",
    "BLEUScore",
    "BLEUSignature",
    "CHRFScore",
    "CHRFSignature",
    "TERScore",
    "TERSignature",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]

Number = Union[int, float]
Streams = Sequence[Sequence[Optional[str]]]


class Score:
    """sacrebleu 2.6.0 ``Score``: ``name``, ``score``, and ``format()`` / ``str()`` as sacrebleu prints
    them (no confidence interval: bootstrap is not available)."""

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        """``Score.format`` of sacrebleu 2.6.0."""
        sc = f"{self.score:.{width}f}"
        if score_only:
            return sc
        if is_json:
            d: dict[str, Any] = {"name": self.name, "score": float(sc), "signature": signature}
            if self._verbose:
                d["verbose_score"] = self._verbose
            for param in signature.split("|"):
                key, value = param.split(":")
                d[key] = value
            return json.dumps(d, indent=1, ensure_ascii=False)
        head = f"{self.name}|{signature}" if signature else self.name
        full = f"{head} = {sc}"
        return f"{full} {self._verbose}" if self._verbose else full

    def __repr__(self) -> str:
        return self.format()


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


class CHRFScore(Score):
    """sacrebleu 2.6.0 ``CHRFScore``: ``score``, ``char_order``, ``word_order``, ``beta``; named
    ``chrF2`` (``chrF2++`` for word order 2)."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: Number) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class TERScore(Score):
    """sacrebleu 2.6.0 ``TERScore``: ``score``, ``num_edits`` and ``ref_length``."""

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class _Signature:
    """sacrebleu 2.6.0 ``Signature``: ``format(short=False)`` and ``str()``, available once the metric
    has seen references."""

    def __init__(self, metric: _Metric) -> None:
        if not hasattr(metric, "num_refs"):
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        self._metric = metric

    def format(self, short: bool = False) -> str:
        m = self._metric
        return m._signature("var" if m.num_refs == -1 else m.num_refs, short)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


class BLEUSignature(_Signature):
    """sacrebleu 2.6.0 ``BLEUSignature``."""


class CHRFSignature(_Signature):
    """sacrebleu 2.6.0 ``CHRFSignature``."""


class TERSignature(_Signature):
    """sacrebleu 2.6.0 ``TERSignature``."""


class _Metric:
    """sacrebleu 2.6.0 ``Metric``: argument checks, reference streams (cached when given to the
    constructor), ``sentence_score``, ``corpus_score`` and ``get_signature``."""

    _SIGNATURE_TYPE: type[_Signature] = _Signature

    def __init__(self, references: Optional[Streams]) -> None:
        self._ref_rows: Optional[list[list[str]]] = None
        if references is not None:
            self._ref_rows = self._cache_references(references)

    def _score(self, hypotheses: list[str], rows: list[list[str]]) -> Any:
        raise NotImplementedError

    def _signature(self, nrefs: Union[int, str], short: bool) -> str:
        raise NotImplementedError

    def _cache_references(self, references: Streams) -> list[list[str]]:
        """Streams to rows, ``None`` dropped; sets ``num_refs`` (-1 when it varies) as sacrebleu does."""
        lengths = {len(stream) for stream in references}
        if len(lengths) > 1:
            raise ValueError(f"reference streams have different lengths: {sorted(lengths)}")
        rows = [[r for r in segment if r is not None] for segment in zip(*references)]
        sizes = {len(row) for row in rows}
        self.num_refs = sizes.pop() if len(sizes) == 1 else -1
        return rows

    def _rows(self, references: Optional[Streams]) -> list[list[str]]:
        if references:
            return self._cache_references(references)
        if self._ref_rows:
            return self._ref_rows
        raise RuntimeError("No references provided and the cache is empty.")

    def _checked_score(self, hypotheses: list[str], rows: list[list[str]]) -> Any:
        if len(hypotheses) != len(rows):
            raise ValueError(f"{len(hypotheses)} hypotheses but the reference streams have {len(rows)} segments")
        return self._score(hypotheses, rows)

    def sentence_score(self, hypothesis: str, references: Sequence[Optional[str]]) -> Any:
        """The score of one hypothesis against one or more references (``None`` entries ignored)."""
        name = type(self).__name__
        if not isinstance(hypothesis, str):
            raise TypeError(f"{name}: The argument `hyp` should be a string.")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise TypeError(f"{name}: The argument `refs` should be a sequence of strings.")
        if not isinstance(references[0], str) and references[0] is not None:
            raise TypeError(f"{name}: Each element of `refs` should be a string.")
        return self._checked_score([hypothesis], self._rows([[r] for r in references]))

    def corpus_score(self, hypotheses: Sequence[str], references: Optional[Streams], n_bootstrap: int = 1) -> Any:
        """The corpus score; ``references`` is a list of streams (or ``None`` to use the cached ones)."""
        name = type(self).__name__
        if n_bootstrap > 1:
            raise ValueError("bootstrap resampling is not available in rapideval.compat.sacrebleu")
        if not isinstance(hypotheses, Sequence):
            raise TypeError(f"{name}: `hyps` should be a sequence of strings.")
        if not isinstance(hypotheses[0], str):
            raise TypeError(f"{name}: Each element of `hyps` should be a string.")
        if any(h is None for h in hypotheses):
            raise TypeError(f"{name}: Undefined line in hypotheses stream!")
        if references is not None:
            if not isinstance(references, Sequence):
                raise TypeError(f"{name}: `refs` should be a sequence of sequence of strings.")
            if not isinstance(references[0], Sequence):
                raise TypeError(f"{name}: Each element of `refs` should be a sequence of strings.")
            if not isinstance(references[0][0], str) and references[0][0] is not None:
                raise TypeError(f"{name}: `refs` should be a sequence of sequence of strings.")
        return self._checked_score(list(hypotheses), self._rows(references))

    def get_signature(self) -> _Signature:
        """The reproducibility signature (available once references were seen)."""
        return self._SIGNATURE_TYPE(self)


class BLEU(_Metric):
    """``sacrebleu.metrics.BLEU`` of sacrebleu 2.6.0 with the tokenizers ``13a`` (default), ``intl``,
    ``char`` and ``none``; ``sentence_score``, ``corpus_score`` and ``get_signature`` as there."""

    SMOOTH_DEFAULTS = SMOOTH_DEFAULTS
    TOKENIZERS = ("none", "13a", "intl", "char")
    TOKENIZER_DEFAULT = "13a"
    _SIGNATURE_TYPE = BLEUSignature

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
        references: Optional[Streams] = None,
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
        super().__init__(references)

    def _score(self, hypotheses: list[str], rows: list[list[str]]) -> BLEUScore:
        score, counts, totals, precisions, bp, sys_len, ref_len = corpus_parts(
            hypotheses, rows, self.tokenize, self.lowercase, self.smooth_method, self.smooth_value,
            self.effective_order, self.max_ngram_order,
        )  # fmt: skip
        return BLEUScore(score, list(counts), list(totals), list(precisions), bp, sys_len, ref_len)

    def _signature(self, nrefs: Union[int, str], short: bool) -> str:
        return signature(nrefs, self.lowercase, self.effective_order, self.tokenize, self.smooth_method,
                         self.smooth_value, short)  # fmt: skip


class CHRF(_Metric):
    """``sacrebleu.metrics.CHRF`` of sacrebleu 2.6.0 (chrF, and chrF++ with ``word_order=2``);
    ``sentence_score``, ``corpus_score`` and ``get_signature`` as there."""

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
        references: Optional[Streams] = None,
    ) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.order = char_order + word_order
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        self._config = _chrf.config(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
        super().__init__(references)

    def _score(self, hypotheses: list[str], rows: list[list[str]]) -> CHRFScore:
        score, _ = _core.sacrebleu_corpus_chrf(hypotheses, rows, *self._config)
        return CHRFScore(score, self.char_order, self.word_order, self.beta)

    def _signature(self, nrefs: Union[int, str], short: bool) -> str:
        return _chrf.signature(nrefs, self.lowercase, self.eps_smoothing, self.char_order, self.word_order,
                               self.whitespace, short)  # fmt: skip


class TER(_Metric):
    """``sacrebleu.metrics.TER`` of sacrebleu 2.6.0; ``sentence_score``, ``corpus_score`` and
    ``get_signature`` as there."""

    _SIGNATURE_TYPE = TERSignature

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Optional[Streams] = None,
    ) -> None:
        self.no_punct = no_punct
        self.normalized = normalized
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.tokenizer_signature = "tercom"
        super().__init__(references)

    def _score(self, hypotheses: list[str], rows: list[list[str]]) -> TERScore:
        score, num_edits, ref_length = _core.sacrebleu_corpus_ter(
            hypotheses, rows, bool(self.normalized), bool(self.no_punct), bool(self.asian_support),
            bool(self.case_sensitive),
        )  # fmt: skip
        return TERScore(score, num_edits, ref_length)

    def _signature(self, nrefs: Union[int, str], short: bool) -> str:
        return _ter.signature(nrefs, self.case_sensitive, self.normalized, self.no_punct, self.asian_support, short)


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


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Streams,
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: Number = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """``sacrebleu.corpus_chrf`` of sacrebleu 2.6.0 (references as streams)."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                  eps_smoothing=eps_smoothing)  # fmt: skip
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(
    hypothesis: str,
    references: Sequence[Optional[str]],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: Number = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """``sacrebleu.sentence_chrf`` of sacrebleu 2.6.0."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                  eps_smoothing=eps_smoothing)  # fmt: skip
    return metric.sentence_score(hypothesis, references)


def corpus_ter(
    hypotheses: Sequence[str],
    references: Streams,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """``sacrebleu.corpus_ter`` of sacrebleu 2.6.0 (references as streams)."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive)
    return metric.corpus_score(hypotheses, references)


def sentence_ter(
    hypothesis: str,
    references: Sequence[Optional[str]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """``sacrebleu.sentence_ter`` of sacrebleu 2.6.0."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive)
    return metric.sentence_score(hypothesis, references)
