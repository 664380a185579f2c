"""sacrebleu 2.6.0 TER over columns: per-row sentence TER and corpus TER as edits per reference word (0 for
a perfect match, above 1 where the edits outnumber the reference's words; lower is better).

Both match ``sacrebleu.metrics.TER`` of sacrebleu 2.6.0 bit for bit, divided by 100
(:mod:`rapideval.compat.sacrebleu` keeps sacrebleu's percentages): the tercom tokenizer with its
``normalized``, ``no_punct``, ``asian_support`` and ``case_sensitive`` options, and sacrebleu's beam
edit distance with block shifts (at most 10 words, 50 positions, 1000 evaluated candidates). Each
reference row is one string or a list of strings; a row's edits are the fewest over its references
and its reference length is their average.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from .._inputs import as_list, as_references, score_rows
from .sacrebleu import SACREBLEU_VERSION, count_references, percent_to_unit

__all__ = ["TERScore", "corpus_ter", "ter"]


@dataclass(frozen=True)
class TERScore:
    """A corpus TER result with the fields of sacrebleu 2.6.0 ``TERScore`` plus its signature; ``score`` is
    sacrebleu's divided by 100."""

    score: float
    num_edits: int
    ref_length: float
    signature: str


def ter(
    responses: Any,
    references: Any,
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> np.ndarray:
    """``sacrebleu.sentence_ter(response, refs, ...).score / 100`` (sacrebleu 2.6.0) for every row, as a
    float64 array (0 is a perfect match; lower is better)."""
    settings = native_settings(normalized, no_punct, asian_support, case_sensitive)
    return percent_to_unit(score_rows(_core.sacrebleu_sentence_ter, responses, references, settings))


def corpus_ter(
    responses: Any,
    references: Any,
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """``sacrebleu.corpus_ter(responses, ref_streams, ...)`` (sacrebleu 2.6.0) with the references
    given per row instead of as streams, its score divided by 100."""
    rows = as_references(references)
    score, num_edits, ref_length = _core.sacrebleu_corpus_ter(
        as_list(responses, "responses"),
        rows,
        native_settings(normalized, no_punct, asian_support, case_sensitive),
    )
    sig = signature(count_references(rows), bool(case_sensitive), bool(normalized), bool(no_punct), bool(asian_support))
    return TERScore(score / 100, num_edits, ref_length, sig)


def native_settings(normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool) -> _core.TerSettings:
    """The native settings of these options."""
    return _core.TerSettings(
        normalized=bool(normalized),
        no_punct=bool(no_punct),
        asian_support=bool(asian_support),
        case_sensitive=bool(case_sensitive),
    )


def signature(
    nrefs: int | str,
    case_sensitive: bool,
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    short: bool = False,
) -> str:
    """sacrebleu 2.6.0 ``TERSignature.format(short)``, e.g.
    ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0`` (booleans print as yes/no,
    other values as given, as sacrebleu prints them)."""
    fields = [
        ("nrefs", "#", nrefs),
        ("case", "c", "mixed" if case_sensitive else "lc"),
        ("tok", "t", "tercom"),
        ("norm", "nr", normalized),
        ("punct", "pn", not no_punct),
        ("asian", "as", asian_support),
        ("version", "v", SACREBLEU_VERSION),
    ]
    return "|".join(f"{abbr if short else name}:{_value(value)}" for name, abbr, value in fields)


def _value(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value
