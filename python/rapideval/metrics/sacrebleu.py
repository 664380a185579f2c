"""sacrebleu 2.6.0 BLEU over columns: per-row sentence BLEU and corpus BLEU on rapideval's 0-1 scale.

Both match ``sacrebleu.metrics.BLEU`` of sacrebleu 2.6.0 bit for bit, divided by 100 (the score and the
precisions: sacrebleu's value ``/ 100`` exactly; :mod:`rapideval.compat.sacrebleu` keeps sacrebleu's 0-100
scale), for the tokenizers ``13a``,
``intl``, ``char`` and ``none``. Each reference row is one string or a list of strings (several
references for that row). ``max_ngram_order`` is from 1 to 1000 (``rapideval._core.MAX_ORDER``,
the limit of chrF's orders too; sacrebleu has none), else a ``ValueError`` naming the limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from .._inputs import as_list, as_references, score_rows

__all__ = ["BLEUScore", "sacrebleu_bleu", "sacrebleu_corpus_bleu"]

#: The sacrebleu release whose numbers these functions reproduce (printed in signatures).
SACREBLEU_VERSION = "2.6.0"

#: ``BLEU.SMOOTH_DEFAULTS`` of sacrebleu 2.6.0 (an int for add-k: it keeps the counts integers).
SMOOTH_DEFAULTS: dict[str, int | float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

Number = int | float


@dataclass(frozen=True)
class BLEUScore:
    """A corpus BLEU result with the fields of sacrebleu 2.6.0 ``BLEUScore`` plus its signature; ``score`` and
    ``precisions`` are sacrebleu's divided by 100 (0 to 1)."""

    score: float
    counts: tuple[Number, ...]
    totals: tuple[Number, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int
    signature: str


def sacrebleu_bleu(
    responses: Any,
    references: Any,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = True,
    max_ngram_order: int = 4,
) -> np.ndarray:
    """``sacrebleu.sentence_bleu(response, refs, ...).score / 100`` (sacrebleu 2.6.0) for every row, as a
    float64 array from 0 to 1. The defaults are ``sentence_bleu``'s (``exp`` smoothing, effective order on)."""
    settings = native_settings(tokenize, lowercase, smooth_method, smooth_value, effective_order, max_ngram_order)
    return percent_to_unit(score_rows(_core.sacrebleu_sentence_bleu, responses, references, settings))


def sacrebleu_corpus_bleu(
    responses: Any,
    references: Any,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = False,
    max_ngram_order: int = 4,
) -> BLEUScore:
    """``sacrebleu.corpus_bleu(responses, ref_streams, ...)`` (sacrebleu 2.6.0) with the references
    given per row instead of as streams, its score and precisions divided by 100. The defaults are
    ``corpus_bleu``'s (``exp`` smoothing, effective order off)."""
    rows = as_references(references)
    score, counts, totals, precisions, bp, sys_len, ref_len = corpus_parts(
        as_list(responses, "responses"), rows, tokenize, lowercase, smooth_method, smooth_value, effective_order,
        max_ngram_order)  # fmt: skip
    nrefs = count_references(rows)
    return BLEUScore(
        score / 100, counts, totals, tuple(p / 100 for p in precisions), bp, sys_len, ref_len,
        signature=signature(nrefs, lowercase, effective_order, tokenize, smooth_method, smooth_value),
    )  # fmt: skip


def corpus_parts(
    responses: list[Any],
    rows: list[Any],
    tokenize: str,
    lowercase: bool,
    smooth_method: str,
    smooth_value: Number | None,
    effective_order: bool,
    max_ngram_order: int,
) -> tuple[float, tuple[Number, ...], tuple[Number, ...], tuple[float, ...], float, int, int]:
    """The fields of sacrebleu's ``BLEUScore`` with sacrebleu's types: counts and totals are ints,
    except where add-k smoothing with a float value added it to them (orders 2.. up to where the
    precision loop stopped), which sacrebleu does in place."""
    score, counts, totals, precisions, bp, sys_len, ref_len = _core.sacrebleu_corpus_bleu(
        responses,
        rows,
        native_settings(tokenize, lowercase, smooth_method, smooth_value, effective_order, max_ngram_order),
    )
    value = SMOOTH_DEFAULTS.get(smooth_method) if smooth_value is None else smooth_value
    floats = [False] * len(counts)
    if smooth_method == "add-k" and not isinstance(value, int) and counts[0] != 0:
        for n in range(1, len(counts)):
            floats[n] = True
            if totals[n] == 0:
                break

    def typed(values: list[float]) -> tuple[Number, ...]:
        return tuple(v if is_float else int(v) for v, is_float in zip(values, floats, strict=True))

    return score, typed(counts), typed(totals), tuple(precisions), bp, sys_len, ref_len


def native_settings(
    tokenize: str,
    lowercase: bool,
    smooth_method: str,
    smooth_value: Number | None,
    effective_order: bool,
    max_ngram_order: int,
) -> _core.SacrebleuBleuSettings:
    """The native settings of these options (checked there: the names, ``max_ngram_order`` from 1 to
    ``MAX_ORDER``)."""
    return _core.SacrebleuBleuSettings(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth_method=smooth_method,
        smooth_value=None if smooth_value is None else float(smooth_value),
        max_ngram_order=max_ngram_order,
        effective_order=effective_order,
    )


def percent_to_unit(scores: np.ndarray) -> np.ndarray:
    """sacrebleu's 0-100 scores on rapideval's 0-1 scale: ``score / 100``, the division a user of sacrebleu
    would write, so the values equal theirs bit for bit."""
    scores /= 100
    return scores


def count_references(rows: list[Any]) -> int | str:
    """sacrebleu's ``nrefs``: the number of references per row, or ``"var"`` when it varies."""
    sizes = {1 if isinstance(row, str) else len(row) for row in rows}
    return sizes.pop() if len(sizes) == 1 else "var"


def signature(
    nrefs: int | str,
    lowercase: bool,
    effective_order: bool,
    tokenize: str,
    smooth_method: str,
    smooth_value: Number | None,
    short: bool = False,
) -> str:
    """sacrebleu 2.6.0 ``BLEUSignature.format(short)``, e.g.
    ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``."""
    smooth = smooth_method
    default = SMOOTH_DEFAULTS.get(smooth_method)
    if default is not None:
        smooth += f"[{(default if smooth_value is None else smooth_value):.2f}]"
    fields = [
        ("nrefs", "#", nrefs),
        ("case", "c", "lc" if lowercase else "mixed"),
        ("eff", "e", "yes" if effective_order else "no"),
        ("tok", "tok", tokenize),
        ("smooth", "s", smooth),
        ("version", "v", SACREBLEU_VERSION),
    ]
    return "|".join(f"{abbr if short else name}:{value}" for name, abbr, value in fields)
