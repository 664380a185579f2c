"""Normalized string distances of rapidfuzz 3.14.6 (``rapidfuzz.distance.Levenshtein``, ``Hamming``,
``Jaro`` and ``JaroWinkler``: ``normalized_distance(a, b)`` with default arguments), bit for bit.

These are the distances behind ragas 0.4.3 ``NonLLMStringSimilarity(distance_measure=...)``, which scores
``1 - normalized_distance(reference, response)``. Strings compare by Unicode code point, as Python ``str``
indexes them (a character outside the Basic Multilingual Plane is one symbol; a combining mark is its own
symbol). Scale: 0.0 for identical strings, up to 1.0; two empty strings are 0.0 apart.

- ``"levenshtein"``: insertions, deletions and substitutions of weight 1, divided by the longer length.
- ``"hamming"``: rapidfuzz's default ``pad=True``: positions that differ, each position past the end of the
  shorter string a difference, divided by the longer length.
- ``"jaro"``: ``1 - `` the Jaro similarity.
- ``"jaro_winkler"``: ``1 - `` the Jaro-Winkler similarity with ``prefix_weight=0.1`` (the bonus applies
  above a Jaro similarity of 0.7, for a common prefix of up to 4 characters).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from .._inputs import as_list

__all__ = ["MEASURES", "normalized_distance", "normalized_distances"]

#: The measures, named as ragas' ``DistanceMeasure`` values.
MEASURES = ("levenshtein", "hamming", "jaro", "jaro_winkler")


def normalized_distance(a: str, b: str, measure: str = "levenshtein") -> float:
    """``rapidfuzz.distance.<Measure>.normalized_distance(a, b)`` of rapidfuzz 3.14.6 with its default
    arguments, bit for bit: 0.0 for identical strings, up to 1.0.

    Signature: ``normalized_distance(a: str, b: str, measure: str = "levenshtein") -> float``, ``measure``
    one of ``"levenshtein"``, ``"hamming"``, ``"jaro"``, ``"jaro_winkler"`` (``Levenshtein``, ``Hamming``,
    ``Jaro``, ``JaroWinkler``). ragas 0.4.3 ``NonLLMStringSimilarity`` is ``1 - normalized_distance(
    reference, response, measure)``. A non-str argument is a ``TypeError``; an unknown measure a
    ``ValueError``.
    """
    return _core.string_distance(a, b, measure)  # the native layer names a bad measure


def normalized_distances(a: Any, b: Any, measure: str = "levenshtein") -> np.ndarray:
    """:func:`normalized_distance` of ``a[i]`` and ``b[i]`` for every row, as a float64 array (rapidfuzz
    3.14.6, bit for bit), computed in parallel with the GIL released.

    Signature: ``normalized_distances(a: Sequence[str], b: Sequence[str], measure: str = "levenshtein")
    -> numpy.ndarray``. The two columns (lists, tuples, numpy arrays, pandas Series, pyarrow arrays) must
    have the same length (else ``ValueError``); an item that is not a str is a ``TypeError`` naming it
    (``a[3]: expected str, got int``); an unknown measure a ``ValueError``.
    """
    return _core.string_distance_batch(as_list(a, "a"), as_list(b, "b"), measure)
