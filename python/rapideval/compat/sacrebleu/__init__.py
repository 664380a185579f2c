"""Drop-in replacement for sacrebleu 2.6.0 BLEU, chrF and TER: ``import rapideval.compat.sacrebleu as
sacrebleu``, or ``from rapideval.compat.sacrebleu.metrics import BLEU``.

The package has sacrebleu's namespaces: the top level (``corpus_bleu``, ``sentence_bleu``,
``raw_corpus_bleu``, ``corpus_chrf``, ``sentence_chrf``, ``corpus_ter``, ``sentence_ter``, ``BLEU``,
``CHRF``, ``TER``), ``.compat`` (the functions), ``.metrics`` (``BLEU``, ``CHRF``, ``TER``, their
score classes, ``METRICS``) with ``.metrics.bleu`` / ``.chrf`` / ``.ter`` / ``.base`` (``Score``,
``Signature``, ``Metric``), ``.significance`` (``PairedTest``, ``Result``, ``estimate_ci``) and
``.tokenizers`` (``tokenizer_ter.TercomTokenizer``, ``tokenizer_zh.TokenizerZh``). Arguments are
sacrebleu's (references as *streams*: a list of reference documents, each holding one string, or
``None``, per hypothesis); scores, their fields, ``str()``, signatures, bootstrap confidence intervals
(``corpus_score(..., n_bootstrap=N)``) and paired tests (same ``SACREBLEU_SEED``, same p-values) are
sacrebleu's, bit for bit (BLEU for the tokenizers ``13a``, ``intl``, ``char``, ``none`` and ``zh``).
The scores of text come from rapideval's kernels; scores of statistics that sacrebleu hands around
(``BLEU.compute_bleu``, resampled statistics) repeat sacrebleu's operations (see
:mod:`.metrics.base`).

Differences: the BLEU tokenizers ``ja-mecab``, ``ko-mecab``, ``spm`` and ``flores*`` are not available
(``ValueError``), nor are sacrebleu's datasets, CLI and ``utils``; streams whose length differs from
the hypotheses raise ``ValueError`` instead of being silently truncated by ``zip``; a segment whose
references are all ``None`` raises ``ValueError`` (sacrebleu: ``TypeError`` or ``ZeroDivisionError``)
unless it is BLEU's with an empty hypothesis; chrF orders must be integers from 0 to 1000, not both
0; ``PairedTest`` runs its comparisons in this process whatever ``n_jobs`` says (same results);
nothing is logged (sacrebleu warns through ``logging``).
"""

from __future__ import annotations

from . import compat, metrics
from .compat import (
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    raw_corpus_bleu,
    sentence_bleu,
    sentence_chrf,
    sentence_ter,
)
from .metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore
from .metrics.bleu import BLEUSignature
from .metrics.chrf import CHRFSignature
from .metrics.ter import TERSignature

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
    "compat",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "metrics",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]
