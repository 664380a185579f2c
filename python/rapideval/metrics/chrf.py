"""sacrebleu 2.6.0 chrF and chrF++ over columns: per-row sentence chrF and corpus chrF, on rapideval's 0-1
scale.

Both match ``sacrebleu.metrics.CHRF`` of sacrebleu 2.6.0 bit for bit, divided by 100
(:mod:`rapideval.compat.sacrebleu` keeps sacrebleu's 0-100 scale): character n-grams of orders
1..``char_order`` with whitespace removed, word n-grams of orders 1..``word_order`` for chrF++, F-beta
with sacrebleu's effective-order averaging or ``eps_smoothing``. Each reference row is one string or
a list of strings; with several references a row keeps the statistics of its best reference.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from .._inputs import as_list, as_references, score_rows
from .sacrebleu import SACREBLEU_VERSION, count_references, percent_to_unit

__all__ = ["CHRFScore", "chrf", "corpus_chrf"]

Number = int | float

#: The largest n-gram order accepted (``MAX_ORDER`` in rust/metrics/ngrams.rs, shared with sacrebleu BLEU).
MAX_ORDER: int = _core.MAX_ORDER


@dataclass(frozen=True)
class CHRFScore:
    """A corpus chrF result: the score of sacrebleu 2.6.0 ``CHRFScore`` divided by 100, its parameters, the summed
    statistics (``[hyp n-grams, ref n-grams, matches]`` per character order, then per word order) and
    the signature."""

    score: float
    char_order: int
    word_order: int
    beta: Number
    statistics: tuple[int, ...]
    signature: str


def chrf(
    responses: Any,
    references: Any,
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: Number = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> np.ndarray:
    """``sacrebleu.sentence_chrf(response, refs, ...).score / 100`` (``CHRF(...).sentence_score``, sacrebleu
    2.6.0) for every row, as a float64 array from 0 to 1. ``word_order=2`` is chrF++."""
    settings = config(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    return percent_to_unit(score_rows(_core.sacrebleu_sentence_chrf, responses, references, settings))


def corpus_chrf(
    responses: Any,
    references: Any,
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: Number = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """``CHRF(...).corpus_score(responses, ref_streams)`` (sacrebleu 2.6.0) with the references given
    per row instead of as streams, its score divided by 100."""
    rows = as_references(references)
    score, stats = _core.sacrebleu_corpus_chrf(
        as_list(responses, "responses"),
        rows,
        config(char_order, word_order, beta, lowercase, whitespace, eps_smoothing),
    )
    sig = signature(count_references(rows), lowercase, eps_smoothing, char_order, word_order, whitespace)
    return CHRFScore(score / 100, char_order, word_order, beta, tuple(stats), sig)


def config(
    char_order: int, word_order: int, beta: Number, lowercase: bool, whitespace: bool, eps_smoothing: bool
) -> _core.ChrfSettings:
    """The native settings: orders checked (0 to 1000, not both 0), and ``beta ** 2`` computed as
    sacrebleu computes it (Python's ``pow``; a ``beta`` whose square overflows is a ValueError)."""
    orders = operator.index(char_order), operator.index(word_order)
    if min(orders) < 0 or max(orders) > MAX_ORDER or sum(orders) == 0:
        raise ValueError(f"char_order and word_order must be 0 to {MAX_ORDER} and not both 0, got {orders}")
    try:
        beta_squared = float(beta**2)
    except OverflowError:  # sacrebleu raises Python's OverflowError here: say which argument
        raise ValueError(f"beta={beta!r} is too large: beta ** 2 overflows a float") from None
    return _core.ChrfSettings(
        char_order=orders[0],
        word_order=orders[1],
        beta_squared=beta_squared,
        lowercase=bool(lowercase),
        whitespace=bool(whitespace),
        eps_smoothing=bool(eps_smoothing),
    )


def signature(
    nrefs: int | str,
    lowercase: bool,
    eps_smoothing: bool,
    char_order: int,
    word_order: int,
    whitespace: bool,
    short: bool = False,
) -> str:
    """sacrebleu 2.6.0 ``CHRFSignature.format(short)``, e.g.
    ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``."""
    fields = [
        ("nrefs", "#", nrefs),
        ("case", "c", "lc" if lowercase else "mixed"),
        ("eff", "e", "yes" if not eps_smoothing else "no"),
        ("nc", "nc", char_order),
        ("nw", "nw", word_order),
        ("space", "s", "yes" if whitespace else "no"),
        ("version", "v", SACREBLEU_VERSION),
    ]
    return "|".join(f"{abbr if short else name}:{value}" for name, abbr, value in fields)
