"""Ragas 0.4.3's deterministic (non-LLM) metrics on the metric layer: ``ExactMatch``, ``StringPresence``,
``NonLLMStringSimilarity``, ``BleuScore``, ``RougeScore``, ``ChrfScore``,
``NonLLMContextPrecisionWithReference``, ``NonLLMContextRecall``, ``IDBasedContextPrecision`` and
``IDBasedContextRecall``, with Ragas's names, fields and formulas.

Each is computed from the row alone (``uses_judge = False``: no judge, no request) and returns the same
:class:`~rapideval.judged.MetricResult` as a judged metric, so it runs in one ``score_rows`` /
``evaluate`` with judged metrics. The numbers come from rapideval's kernels (:mod:`rapideval.metrics`:
sacrebleu's BLEU and chrF, rouge-score's ROUGE, rapidfuzz's string distances), never from those libraries
at run time; each class says which Ragas class and library call it reproduces. Values equal Ragas's
exactly (the parity tests compare with ``==``), except for the differences below.

Differences from Ragas
----------------------
* **BleuScore scores the whole text.** Ragas 0.4.3 splits both texts on ``". "`` and passes the reference
  sentences to ``sacrebleu.corpus_bleu`` as N reference *streams* of one segment each; sacrebleu zips the
  hypotheses with the streams, so only the first response sentence is scored, against the reference
  sentences as alternative references (ragas issue #2888, unfixed in 0.4.3). A response whose first
  sentence matches any reference sentence scores 1.0 whatever follows. rapideval scores
  ``corpus_bleu([response], [[reference]])`` (the fix of ragas PRs #2924, #2933, #3012);
  ``BleuScore(ragas_compatible=True)`` gives Ragas's value exactly. Both agree when neither text contains
  ``". "``.
* **An empty text is not applicable.** A missing or empty (or whitespace-only) ``response`` or
  ``reference`` makes every string metric ``not_applicable``. Ragas scores it anyway: ExactMatch of two
  empty strings is 1.0, StringPresence of an empty reference is 1.0 for any response, ChrfScore returns
  0.0, the others compute on the empty string (and a missing one is an AssertionError).
* **Empty context lists are not applicable.** For the non-LLM context metrics Ragas gives 0.0 (precision
  with no retrieved contexts), NaN (recall with no reference contexts) or raises ``ValueError`` from
  ``max()`` of an empty list (precision with no reference contexts, recall with no retrieved contexts).
* **Empty ID lists are not applicable.** Ragas's IDBasedContextPrecision gives NaN with no retrieved IDs
  and 0.0 with no reference IDs; IDBasedContextRecall the reverse.
* **Options are checked when the metric is built** (an unknown ``rouge_type``, ``mode``, tokenizer, BLEU
  or chrF keyword, or a non-numeric ``threshold`` raises ``ValueError`` / ``TypeError``); Ragas fails at
  the first row. A field of the wrong type is a ``TypeError`` (an ``error`` result in batches), not an
  AssertionError.
* **BleuScore's tokenizers** are ``13a`` (default), ``intl``, ``char`` and ``none``: sacrebleu's ``zh``,
  ``ja-mecab``, ``ko-mecab``, ``spm`` and ``flores*`` raise ``ValueError``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Mapping, Sequence
from enum import Enum
from typing import Any, ClassVar, Literal

from ..metrics.chrf import corpus_chrf
from ..metrics.rouge import rouge
from ..metrics.sacrebleu import sacrebleu_corpus_bleu
from ..metrics.string_distance import normalized_distance, normalized_distances
from .base import RowMetric

__all__ = [
    "BleuScore",
    "ChrfScore",
    "DistanceMeasure",
    "ExactMatch",
    "IDBasedContextPrecision",
    "IDBasedContextRecall",
    "NonLLMContextPrecisionWithReference",
    "NonLLMContextRecall",
    "NonLLMStringSimilarity",
    "RougeScore",
    "StringPresence",
]


class DistanceMeasure(Enum):
    """Ragas 0.4.3 ``DistanceMeasure``: the string distances of :class:`NonLLMStringSimilarity` (rapidfuzz's
    ``Levenshtein``, ``Hamming``, ``Jaro`` and ``JaroWinkler``), with Ragas's values."""

    LEVENSHTEIN = "levenshtein"
    HAMMING = "hamming"
    JARO = "jaro"
    JARO_WINKLER = "jaro_winkler"


def _measure(value: Any, where: str) -> DistanceMeasure:
    """A DistanceMeasure from ours, Ragas's own enum (same values), the value's string, or a
    :class:`NonLLMStringSimilarity` (Ragas passes the context metrics one: its measure)."""
    if isinstance(value, NonLLMStringSimilarity):
        return value.distance_measure
    raw = value.value if isinstance(value, Enum) else value
    try:
        return DistanceMeasure(raw)
    except ValueError:
        allowed = ", ".join(m.value for m in DistanceMeasure)
        raise ValueError(f"{where}: distance_measure must be a DistanceMeasure ({allowed}), got {value!r}") from None


def _threshold(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise TypeError(f"{where}: threshold must be a number, got {value!r}")
    return float(value)


def _similarities(retrieved: Sequence[str], reference: Sequence[str], measure: DistanceMeasure) -> list[list[float]]:
    """``sim[i][j] = 1 - normalized_distance(retrieved[i], reference[j])``: Ragas computes every pair as
    ``NonLLMStringSimilarity().single_turn_ascore(SingleTurnSample(reference=retrieved_i,
    response=reference_j))``, i.e. rapidfuzz's ``normalized_distance(retrieved_i, reference_j)``, in both
    context metrics. One kernel call for all pairs of the row."""
    left = [r for r in retrieved for _ in reference]
    right = [f for _ in retrieved for f in reference]
    distances = normalized_distances(left, right, measure.value)
    n = len(reference)
    # ``1 - d`` per element, as Ragas's Python ``1 - float``: the same IEEE operation, so the same bits.
    return [[1 - float(d) for d in distances[i * n : (i + 1) * n]] for i in range(len(retrieved))]


class _RowMetric(RowMetric):
    """A Ragas string metric: ``reference`` and ``response`` required."""

    required: tuple[str, ...] = ("reference", "response")


class ExactMatch(_RowMetric):
    """Ragas 0.4.3 ``ExactMatch`` (legacy and collections): ``float(reference == response)``, no
    normalisation at all (case, whitespace and Unicode forms count).

    Scale 0.0 / 1.0, higher = equal. Statuses: ``ok``; ``not_applicable`` when ``response`` or ``reference``
    is missing or empty (Ragas: 1.0 for two empty strings). Signature: ``exact_match|options:<h>|rapideval:<v>``.
    """

    name = "exact_match"

    def compute(self, fields: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        same = fields["reference"] == fields["response"]
        return float(same), "the response equals the reference" if same else "the response differs", {}


class StringPresence(_RowMetric):
    """Ragas 0.4.3 ``StringPresence`` (legacy and collections): ``float(reference in response)``, a
    case-sensitive substring test.

    Scale 0.0 / 1.0, higher = the reference occurs in the response. Statuses: ``ok``; ``not_applicable`` when
    either is missing or empty (Ragas: 1.0 for an empty reference). Signature:
    ``string_present|options:<h>|rapideval:<v>``."""

    name = "string_present"

    def compute(self, fields: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        present = fields["reference"] in fields["response"]
        return float(present), "the reference occurs in the response" if present else "the reference is absent", {}


class _Measured(_RowMetric):
    """A metric on a string distance: ``distance_measure`` is a :class:`DistanceMeasure`; it may be set to
    Ragas's enum, the measure's name, or a :class:`NonLLMStringSimilarity` (Ragas's
    ``metric.distance_measure = DistanceMeasure.JARO``)."""

    _distance: DistanceMeasure

    @property
    def distance_measure(self) -> DistanceMeasure:
        return self._distance

    @distance_measure.setter
    def distance_measure(self, value: Any) -> None:
        self._distance = _measure(value, type(self).__name__)


class NonLLMStringSimilarity(_Measured):
    """Ragas 0.4.3 ``NonLLMStringSimilarity(distance_measure=DistanceMeasure.LEVENSHTEIN)``:
    ``1 - rapidfuzz.distance.<Measure>.normalized_distance(reference, response)`` with rapidfuzz's defaults
    (no processor; Hamming pads the shorter string), on code points, from
    :mod:`rapideval.metrics.string_distance`.

    ``distance_measure``: a :class:`DistanceMeasure` (or Ragas's own, or its value ``"jaro"`` ...). Scale
    0-1, higher = more similar, 1.0 for identical strings. Statuses: ``ok``; ``not_applicable`` when
    either text is missing or empty. ``details``: ``distance`` and ``measure``. Signature:
    ``non_llm_string_similarity|options:<h>|rapideval:<v>`` (the hash covers the measure)."""

    name = "non_llm_string_similarity"

    def __init__(
        self, distance_measure: DistanceMeasure | str = DistanceMeasure.LEVENSHTEIN, *, name: str | None = None
    ) -> None:
        super().__init__(name)
        self.distance_measure = distance_measure

    def options(self) -> str:
        return f"distance_measure={self.distance_measure}"

    def compute(self, fields: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        measure = self.distance_measure.value
        distance = float(normalized_distance(fields["reference"], fields["response"], measure))
        return 1 - distance, "", {"distance": distance, "measure": measure}


# ``sacrebleu.corpus_bleu``'s keywords (sacrebleu 2.6.0), which Ragas's ``BleuScore(kwargs=...)`` passes on.
BLEU_KWARGS = ("smooth_method", "smooth_value", "force", "lowercase", "tokenize", "use_effective_order")
# ``sacrebleu.corpus_chrf``'s keywords, which Ragas's ``ChrfScore(kwargs=...)`` passes on.
CHRF_KWARGS = ("char_order", "word_order", "beta", "remove_whitespace", "eps_smoothing")


class BleuScore(_RowMetric):
    """BLEU of the response against the reference: sacrebleu 2.6.0
    ``corpus_bleu([response], [[reference]], **options).score / 100``, bit for bit, from
    :func:`rapideval.metrics.sacrebleu.sacrebleu_corpus_bleu`. The reference is Ragas 0.4.3 ``BleuScore``
    (legacy and collections), which calls sacrebleu ``corpus_bleu`` with the same options.

    By default the whole texts are one segment, the fix of ragas issue #2888. With ``ragas_compatible=True``
    the value is Ragas 0.4.3's exactly: both texts split on ``". "``, and only the first response sentence
    scored, against every reference sentence as an alternative reference
    (``corpus_bleu(response.split(". "), [[s] for s in reference.split(". ")])``, whose zip keeps one
    segment). The two agree when neither text contains ``". "``.

    Options (``corpus_bleu``'s, defaults as there): ``tokenize`` ``"13a"`` / ``"intl"`` / ``"char"`` /
    ``"none"``, ``lowercase``, ``smooth_method`` ``"exp"`` / ``"floor"`` / ``"add-k"`` / ``"none"``,
    ``smooth_value``, ``use_effective_order`` (off, as in ``corpus_bleu``). Scale 0-1, higher = closer.
    Statuses: ``ok``; ``not_applicable`` when either text is missing or empty. ``details``: sacrebleu's
    ``precisions`` (divided by 100: 0 to 1), ``bp``, ``sys_len``, ``ref_len`` and ``signature``
    (``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``). Signature:
    ``bleu_score|options:<h>|rapideval:<v>``."""

    name = "bleu_score"

    def __init__(
        self,
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        use_effective_order: bool = False,
        ragas_compatible: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__(name)
        self.tokenize = tokenize
        self.lowercase = bool(lowercase)
        self.smooth_method = smooth_method
        self.smooth_value = smooth_value
        self.use_effective_order = bool(use_effective_order)
        self.ragas_compatible = bool(ragas_compatible)
        self._bleu(["a"], [["a"]])  # unknown tokenizers and smoothing methods fail here, not at the first row

    def options(self) -> str:
        return (
            f"tokenize={self.tokenize!r}, lowercase={self.lowercase}, smooth_method={self.smooth_method!r}, "
            f"smooth_value={self.smooth_value!r}, use_effective_order={self.use_effective_order}, "
            f"ragas_compatible={self.ragas_compatible}"
        )

    def _bleu(self, responses: list[str], references: list[list[str]]) -> Any:
        return sacrebleu_corpus_bleu(
            responses,
            references,
            tokenize=self.tokenize,
            lowercase=self.lowercase,
            smooth_method=self.smooth_method,
            smooth_value=self.smooth_value,
            effective_order=self.use_effective_order,
        )

    def compute(self, fields: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        reference, response = fields["reference"], fields["response"]
        if self.ragas_compatible:
            # sacrebleu zips the hypotheses with N one-segment streams: one segment, the first sentence,
            # with all reference sentences as its references.
            result = self._bleu([response.split(". ")[0]], [reference.split(". ")])
        else:
            result = self._bleu([response], [[reference]])
        details = {
            "precisions": list(result.precisions),
            "bp": result.bp,
            "sys_len": result.sys_len,
            "ref_len": result.ref_len,
            "signature": result.signature,
        }
        return result.score, "", details


class RougeScore(_RowMetric):
    """Ragas 0.4.3 ``RougeScore(rouge_type="rougeL", mode="fmeasure")`` (legacy and collections):
    rouge-score 0.1.2 ``RougeScorer([rouge_type], use_stemmer=True).score(reference, response)[rouge_type]``
    and its ``mode`` field, bit for bit, from :func:`rapideval.metrics.rouge.rouge`.

    ``rouge_type``: ``"rouge1"`` or ``"rougeL"`` (Ragas's), or any other type rouge-score knows
    (``"rouge2"`` ... ``"rouge9"``, ``"rougeLsum"``), which Ragas passes on too. ``mode``: ``"fmeasure"``,
    ``"precision"`` or ``"recall"``. rouge-score's tokenizer keeps only ``[a-z0-9]`` runs, so text without
    Latin letters or digits has no tokens and scores 0.0, as in Ragas. Scale 0-1, higher = more overlap.
    Statuses: ``ok``; ``not_applicable`` when either text is missing or empty. ``details``: ``precision``,
    ``recall``, ``fmeasure``. Signature: ``rouge_score|options:<h>|rapideval:<v>``."""

    name = "rouge_score"
    TYPES: ClassVar[re.Pattern[str]] = re.compile(r"rouge[1-9]|rougeL|rougeLsum")

    def __init__(
        self,
        rouge_type: str = "rougeL",
        mode: Literal["fmeasure", "precision", "recall"] = "fmeasure",
        *,
        name: str | None = None,
    ) -> None:
        super().__init__(name)
        if not isinstance(rouge_type, str) or not self.TYPES.fullmatch(rouge_type):
            raise ValueError(
                f"RougeScore: rouge_type must be rouge1 ... rouge9, rougeL or rougeLsum, got {rouge_type!r}"
            )
        if mode not in ("fmeasure", "precision", "recall"):
            raise ValueError(f"RougeScore: mode must be 'fmeasure', 'precision' or 'recall', got {mode!r}")
        self.rouge_type = rouge_type
        self.mode = mode

    def options(self) -> str:
        return f"rouge_type={self.rouge_type!r}, mode={self.mode!r}"

    def compute(self, fields: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        kind = self.rouge_type
        scores = rouge([fields["response"]], [fields["reference"]], [kind], use_stemmer=True)[kind]
        details = {"precision": float(scores.precision[0]), "recall": float(scores.recall[0]),
                   "fmeasure": float(scores.fmeasure[0])}  # fmt: skip
        return details[self.mode], "", details


class ChrfScore(_RowMetric):
    """Ragas 0.4.3 ``ChrfScore`` (legacy; collections ``CHRFScore``): sacrebleu 2.6.0
    ``corpus_chrf([response], [[reference]], **options).score / 100``, bit for bit, from
    :func:`rapideval.metrics.chrf.corpus_chrf`.

    Options (``corpus_chrf``'s, defaults as there): ``char_order=6``, ``word_order=0`` (2 is chrF++),
    ``beta=2``, ``remove_whitespace=True``, ``eps_smoothing=False``. Scale 0-1, higher = closer. Statuses:
    ``ok``; ``not_applicable`` when either text is missing or empty (Ragas: 0.0). ``details``: sacrebleu's
    ``signature``. Signature: ``chrf_score|options:<h>|rapideval:<v>``."""

    name = "chrf_score"

    def __init__(
        self,
        *,
        char_order: int = 6,
        word_order: int = 0,
        beta: float = 2,
        remove_whitespace: bool = True,
        eps_smoothing: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__(name)
        self.char_order = char_order
        self.word_order = word_order
        self.beta = beta
        self.remove_whitespace = bool(remove_whitespace)
        self.eps_smoothing = bool(eps_smoothing)
        self._chrf(["a"], ["a"])  # bad orders fail here, not at the first row

    def options(self) -> str:
        return (
            f"char_order={self.char_order}, word_order={self.word_order}, beta={self.beta}, "
            f"remove_whitespace={self.remove_whitespace}, eps_smoothing={self.eps_smoothing}"
        )

    def _chrf(self, responses: list[str], references: list[str]) -> Any:
        return corpus_chrf(
            responses,
            references,
            char_order=self.char_order,
            word_order=self.word_order,
            beta=self.beta,
            whitespace=not self.remove_whitespace,
            eps_smoothing=self.eps_smoothing,
        )

    def compute(self, fields: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        result = self._chrf([fields["response"]], [fields["reference"]])
        return result.score, "", {"signature": result.signature}


class _ContextMetric(_Measured):
    """Retrieved contexts matched to reference contexts by string similarity (``1 - normalized distance``)."""

    required: tuple[str, ...] = ("retrieved_contexts", "reference_contexts")

    def __init__(
        self,
        *,
        threshold: float = 0.5,
        distance_measure: DistanceMeasure | str | NonLLMStringSimilarity = DistanceMeasure.LEVENSHTEIN,
        name: str | None = None,
    ) -> None:
        super().__init__(name)
        self.threshold = _threshold(threshold, type(self).__name__)
        self.distance_measure = distance_measure

    def options(self) -> str:
        return f"threshold={self.threshold!r}, distance_measure={self.distance_measure}"


class NonLLMContextPrecisionWithReference(_ContextMetric):
    """Ragas 0.4.3 ``NonLLMContextPrecisionWithReference(threshold=0.5)``: average precision of the
    retrieved contexts, in their order, where a retrieved context is relevant when its best similarity to
    any reference context is **at least** ``threshold``.

    ``sim(r, f) = 1 - normalized_distance(r, f)`` (rapidfuzz's, from
    :mod:`rapideval.metrics.string_distance`; ``distance_measure`` as :class:`NonLLMStringSimilarity`,
    Levenshtein by default). ``v_k = [max_f sim(r_k, f) >= threshold]``;
    ``AP = sum_k (sum(v[:k+1]) / (k+1)) * v_k / (sum(v) + 1e-10)``, Ragas's formula with its epsilon, so
    all relevant gives 0.99999999995 and none 0.0. Scale 0-1, higher = relevant contexts ranked first.
    Statuses: ``ok``; ``not_applicable`` when either list is missing or empty. ``details``:
    ``similarities`` (best per retrieved context) and ``verdicts``. Signature:
    ``non_llm_context_precision_with_reference|options:<h>|rapideval:<v>``."""

    name = "non_llm_context_precision_with_reference"

    def compute(self, fields: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        sims = _similarities(fields["retrieved_contexts"], fields["reference_contexts"], self.distance_measure)
        best = [max(row) for row in sims]
        verdicts = [1 if s >= self.threshold else 0 for s in best]
        # Ragas's operations in Ragas's order (a Python sum of per-rank floats), for the same last bits.
        numerator = sum([(sum(verdicts[: i + 1]) / (i + 1)) * verdicts[i] for i in range(len(verdicts))])
        score = numerator / (sum(verdicts) + 1e-10)
        reason = f"{sum(verdicts)} of {len(verdicts)} retrieved contexts are relevant"
        return score, reason, {"similarities": best, "verdicts": verdicts}


class NonLLMContextRecall(_ContextMetric):
    """Ragas 0.4.3 ``NonLLMContextRecall(threshold=0.5)``: the fraction of reference contexts whose best
    similarity to any retrieved context is **greater than** ``threshold`` (Ragas's ``>``, where precision
    uses ``>=``).

    ``sim`` as :class:`NonLLMContextPrecisionWithReference` (``1 - normalized_distance(retrieved,
    reference)``, Levenshtein by default). Scale 0-1, higher = more reference contexts retrieved. Statuses:
    ``ok``; ``not_applicable`` when either list is missing or empty. ``details``: ``similarities`` (best per
    reference context) and ``verdicts``. Signature: ``non_llm_context_recall|options:<h>|rapideval:<v>``."""

    name = "non_llm_context_recall"

    def compute(self, fields: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        sims = _similarities(fields["retrieved_contexts"], fields["reference_contexts"], self.distance_measure)
        best = [max(column) for column in zip(*sims, strict=True)]
        verdicts = [1 if s > self.threshold else 0 for s in best]
        reason = f"{sum(verdicts)} of {len(verdicts)} reference contexts are retrieved"
        return sum(verdicts) / len(verdicts), reason, {"similarities": best, "verdicts": verdicts}


_IDS = ("retrieved_context_ids", "reference_context_ids")


class _IDMetric(_RowMetric):
    """Context IDs compared as sets of strings; IDs may be ``str`` or ``int`` (Ragas casts them with ``str``)."""

    required: tuple[str, ...] = _IDS

    def check(self, row: Hashable, fields: Mapping[str, Any]) -> str | None:
        # The base check wants lists of str; an int ID is valid here, so it is checked as its str.
        as_text = {}
        for key in _IDS:
            ids = fields.get(key)
            if not isinstance(ids, (list, tuple)):
                continue
            for i, item in enumerate(ids):
                if isinstance(item, bool) or not isinstance(item, (str, int)):
                    raise TypeError(
                        f"row {row!r}, field {key!r}[{i}] of metric {self.name!r}: expected str or int, "
                        f"got {type(item).__name__}"
                    )
            as_text[key] = [str(i) for i in ids]
        return super().check(row, {**fields, **as_text})

    @staticmethod
    def _sets(fields: Mapping[str, Any]) -> tuple[set[str], set[str]]:
        return {str(i) for i in fields["retrieved_context_ids"]}, {str(i) for i in fields["reference_context_ids"]}


class IDBasedContextPrecision(_IDMetric):
    """Ragas 0.4.3 ``IDBasedContextPrecision``: ``|set(retrieved) & set(reference)| / |set(retrieved)|``
    over the IDs as strings (duplicates count once, the order not at all).

    Scale 0-1, higher = fewer irrelevant retrievals. Statuses: ``ok``; ``not_applicable`` when either list is
    missing or empty (Ragas: NaN with no retrieved IDs). ``details``: ``hits`` and ``retrieved`` (distinct
    counts). Signature: ``id_based_context_precision|options:<h>|rapideval:<v>``."""

    name = "id_based_context_precision"

    def compute(self, fields: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        retrieved, reference = self._sets(fields)
        hits = len(retrieved & reference)
        reason = f"{hits} of {len(retrieved)} retrieved IDs are reference IDs"
        return hits / len(retrieved), reason, {"hits": hits, "retrieved": len(retrieved)}


class IDBasedContextRecall(_IDMetric):
    """Ragas 0.4.3 ``IDBasedContextRecall``: ``|set(reference) & set(retrieved)| / |set(reference)|`` over
    the IDs as strings.

    Scale 0-1, higher = more reference contexts retrieved. Statuses: ``ok``; ``not_applicable`` when either
    list is missing or empty (Ragas: NaN with no reference IDs). ``details``: ``hits`` and ``reference``
    (distinct counts). Signature: ``id_based_context_recall|options:<h>|rapideval:<v>``."""

    name = "id_based_context_recall"

    def compute(self, fields: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        retrieved, reference = self._sets(fields)
        hits = len(reference & retrieved)
        reason = f"{hits} of {len(reference)} reference IDs are retrieved"
        return hits / len(reference), reason, {"hits": hits, "reference": len(reference)}
