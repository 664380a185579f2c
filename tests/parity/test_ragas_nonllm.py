"""Ragas 0.4.3's deterministic metrics (rapideval.judged.nonllm through the rapideval.compat.ragas facades)
against ragas 0.4.3 itself: ``await ragas_metric.single_turn_ascore(ragas.dataset_schema.SingleTurnSample(...))``
on generated rows (fixed seeds) plus edge cases, compared with ``==``.

Every comparison is exact: both sides run the same algorithm (our kernels are bit-identical to sacrebleu,
rouge-score and rapidfuzz) and the few Python operations on top (``1 - d``, ``/ 100``, Ragas's average
precision with its epsilon) are done in the same order, so no tolerance is needed. A row rapideval calls
``not_applicable`` is one of the listed differences (an empty text, context list or ID list) and the test
asserts what Ragas does there instead. BleuScore's default (whole-text BLEU) is compared with sacrebleu
directly; ``ragas_compatible=True`` with Ragas.
"""

from __future__ import annotations

import asyncio
import importlib
import math
import random
import string
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import pytest
import sacrebleu
from ragas._analytics import get_userid
from ragas.dataset_schema import SingleTurnSample as RagasSample
from rapideval.compat.ragas import EvaluationDataset, MetricError, SingleTurnSample, evaluate
from rapideval.compat.ragas.metrics import nonllm as ours
from rapideval.judged import MetricResult

# ragas's legacy metric modules (ragas.metrics binds some of these names to metric instances, so by path).
_string, _bleu_score, _rouge_score, _chrf_score, _context_precision, _context_recall = (
    importlib.import_module(f"ragas.metrics.{name}")
    for name in ("_string", "_bleu_score", "_rouge_score", "_chrf_score", "_context_precision", "_context_recall")
)

# Every single_turn_ascore builds an analytics event whose user id ragas reads from a file it opens and never
# closes (ragas/_analytics.py ``get_userid``; cached, so once per process): read it here with that one
# ResourceWarning silenced, not in a test, where pytest would report the unclosed file.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ResourceWarning)
    get_userid()

N = 600  # generated rows per metric, before the edge cases
MIN_OK = 500  # rows per metric that must be scored (ok) and equal Ragas's value

# Texts ---------------------------------------------------------------------------------------------------

WORDS = (
    "the cat sat on mat The Cat dog dogs barked It was a sunny day running runs ran Paris capital France is of "
    "cafés naïve Über straße e\u0301te 東京 は 日本 の 首都 です 🙂 👍🏽 42 3.14 — , ! ? x. end. Mr. U.S.A."
).split()
ALPHABET = string.ascii_letters + string.digits + " .,!?-'" + "éßœ東京日本語🙂\u0301\t\n"


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 9)))


def text(rng: random.Random) -> str:
    """1-4 sentences joined by ". " (what Ragas's BLEU splits on), sometimes with a final period."""
    body = ". ".join(sentence(rng) for _ in range(rng.randint(1, 4)))
    return body + rng.choice(("", ".", ". ", "!", "\n"))


def mutate(rng: random.Random, s: str, edits: int) -> str:
    chars = list(s)
    for _ in range(edits):
        op, i = rng.randrange(3), rng.randint(0, len(chars))
        if op == 0 or not chars:
            chars.insert(i, rng.choice(ALPHABET))
        elif op == 1:
            del chars[min(i, len(chars) - 1)]
        else:
            chars[min(i, len(chars) - 1)] = rng.choice(ALPHABET)
    return "".join(chars)


def related(rng: random.Random, s: str) -> str:
    """A text related to ``s`` in one of several ways, so that scores spread over 0..1."""
    kind = rng.randrange(8)
    if kind == 0:
        return s
    if kind == 1:
        return mutate(rng, s, rng.randint(1, max(1, len(s) // 2)))
    if kind == 2:
        words = s.split(" ")
        rng.shuffle(words)
        return " ".join(words)
    if kind == 3:
        return s.upper() if rng.random() < 0.5 else s.lower()
    if kind == 4:  # same first sentence, different rest: Ragas's BLEU scores only the first
        return s.split(". ")[0] + ". " + text(rng)
    if kind == 5:
        i, j = sorted(rng.sample(range(len(s) + 1), 2)) if len(s) > 1 else (0, len(s))
        return s[i:j] or s
    if kind == 6:
        return s + " " + text(rng)
    return text(rng)


EMPTY = ("", " ", "\n\t ")
TEXT_EDGES: list[tuple[str, str]] = [
    ("The cat sat on the mat.", "The cat sat on the mat."),
    ("The cat sat on the mat. It was a sunny day.", "The cat sat on the mat. Dogs barked."),
    ("A is one. B is two. C is three.", "A is one. B is two."),
    ("東京は日本の首都です", "東京は日本の首都です"),
    ("👍🏽 e\u0301", "👍🏽 é"),
    ("ab", "ac"),
    ("abc", "xyz"),
    ("Paris", "The capital of France is Paris."),
    ("paris", "The capital of France is Paris."),
    ("a. b. c", ". . "),
    (". ", "x"),
    ("x", ". . ."),
    ("running dogs", "the dog runs"),
    ("", ""),
    ("", "something"),
    ("something", ""),
    (" ", " "),
    ("\n", "text"),
]


def text_rows(seed: int) -> list[dict[str, str]]:
    rng = random.Random(seed)
    rows = [{"reference": ref, "response": resp} for ref, resp in TEXT_EDGES]
    for _ in range(N):
        reference = text(rng)
        response = related(rng, reference)
        if rng.random() < 0.15:  # StringPresence: a piece of the response as the reference
            i = rng.randrange(len(response))
            reference = response[i : i + rng.randint(1, 12)] or reference
        if rng.random() < 0.03:
            reference, response = rng.choice(EMPTY), response
        elif rng.random() < 0.03:
            response = rng.choice(EMPTY)
        rows.append({"reference": reference, "response": response})
    return rows


CONTEXT_EDGES: list[dict[str, list[str]]] = [
    {"retrieved_contexts": ["ab"], "reference_contexts": ["ac"]},  # similarity 0.5: precision >=, recall >
    {"retrieved_contexts": ["one context"], "reference_contexts": ["one context"]},
    {"retrieved_contexts": ["abc", "abc"], "reference_contexts": ["abc"]},  # duplicates, all relevant
    {"retrieved_contexts": ["zzzz", "yyyy"], "reference_contexts": ["abcd", "efgh"]},  # none relevant
    {"retrieved_contexts": ["", "x"], "reference_contexts": [""]},
    {"retrieved_contexts": ["東京は日本の首都です", "🙂🙂"], "reference_contexts": ["東京は日本の首都", "👍🏽"]},
    {"retrieved_contexts": ["noise", "the cat sat", "more noise"], "reference_contexts": ["the cat sat."]},
    {"retrieved_contexts": [], "reference_contexts": ["a"]},
    {"retrieved_contexts": ["a"], "reference_contexts": []},
    {"retrieved_contexts": [], "reference_contexts": []},
]


def context_rows(seed: int) -> list[dict[str, list[str]]]:
    rng = random.Random(seed)
    rows = list(CONTEXT_EDGES)
    for _ in range(N):
        reference = [sentence(rng) for _ in range(rng.randint(1, 4))]
        retrieved = []
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.6:
                source = rng.choice(reference)
                retrieved.append(mutate(rng, source, rng.randint(0, max(1, len(source) * 2 // 3))))
            else:
                retrieved.append(sentence(rng))
        rows.append({"retrieved_contexts": retrieved, "reference_contexts": reference})
    return rows


ID_EDGES: list[dict[str, list[Any]]] = [
    {"retrieved_context_ids": ["a", "b"], "reference_context_ids": ["a", "b"]},  # all relevant
    {"retrieved_context_ids": ["x"], "reference_context_ids": ["a", "b"]},  # none
    {"retrieved_context_ids": ["a", "a", "a", "b"], "reference_context_ids": ["a"]},  # duplicates
    {"retrieved_context_ids": [1, "1", 2], "reference_context_ids": ["2", 3]},  # int and str IDs
    {"retrieved_context_ids": ["ü", "東京"], "reference_context_ids": ["東京"]},
    {"retrieved_context_ids": [], "reference_context_ids": ["a"]},
    {"retrieved_context_ids": ["a"], "reference_context_ids": []},
    {"retrieved_context_ids": [], "reference_context_ids": []},
]


def id_rows(seed: int) -> list[dict[str, list[Any]]]:
    rng = random.Random(seed)
    pool: list[Any] = [*range(12), *map(str, range(6, 18)), "doc-a", "doc-b", "ü"]
    rows = list(ID_EDGES)
    for _ in range(N):
        rows.append(
            {
                "retrieved_context_ids": [rng.choice(pool) for _ in range(rng.randint(1, 8))],
                "reference_context_ids": [rng.choice(pool) for _ in range(rng.randint(1, 5))],
            }
        )
    return rows


# Running both ------------------------------------------------------------------------------------------


def ragas_scores(metric: Any, rows: Sequence[dict[str, Any]]) -> list[Any]:
    """Ragas's ``single_turn_ascore`` on every row, concurrently; an exception is kept as the row's result."""

    async def main() -> list[Any]:
        jobs = (metric.single_turn_ascore(RagasSample(**row)) for row in rows)
        return await asyncio.gather(*jobs, return_exceptions=True)

    return asyncio.run(main())


def is_empty(value: Any) -> bool:
    return not value.strip() if isinstance(value, str) else len(value) == 0


def compare(
    mine: Any, theirs: Any, rows: Sequence[dict[str, Any]], difference: Callable[[dict[str, Any], Any], None]
) -> int:
    """Assert that every ok row equals Ragas's value exactly and that every other row is not applicable
    because of an empty field, with Ragas doing there what ``difference`` asserts; the number of ok rows."""
    results: list[MetricResult] = mine.batch_score(rows)
    expected = ragas_scores(theirs, rows)
    assert mine.name == theirs.name
    n_ok = 0
    for row, result, value in zip(rows, results, expected, strict=True):
        if result.status == "ok":
            assert not isinstance(value, BaseException), (row, value)
            assert isinstance(result.value, float), row
            assert result.value == value, (row, result.value, value)
            n_ok += 1
        else:
            assert result.status == "not_applicable", (row, result)
            assert any(is_empty(v) for v in row.values()), row
            difference(row, value)
    assert n_ok >= MIN_OK, n_ok
    return n_ok


def ragas_scored(row: dict[str, Any], value: Any) -> None:
    """Difference: an empty text is not applicable here; Ragas scores it (a number, never an error)."""
    assert isinstance(value, (int, float)) and not math.isnan(value), (row, value)


# The string metrics ----------------------------------------------------------------------------------------


def test_exact_match() -> None:
    def difference(row: dict[str, Any], value: Any) -> None:
        assert value == float(row["reference"] == row["response"])  # e.g. 1.0 for two empty strings

    compare(ours.ExactMatch(), _string.ExactMatch(), text_rows(1), difference)


def test_string_presence() -> None:
    def difference(row: dict[str, Any], value: Any) -> None:
        assert value == float(row["reference"] in row["response"])  # e.g. 1.0 for an empty reference

    compare(ours.StringPresence(), _string.StringPresence(), text_rows(2), difference)


@pytest.mark.parametrize("measure", list(ours.DistanceMeasure), ids=lambda m: m.value)
def test_string_similarity(measure: ours.DistanceMeasure) -> None:
    theirs = _string.NonLLMStringSimilarity(distance_measure=_string.DistanceMeasure(measure.value))
    compare(ours.NonLLMStringSimilarity(distance_measure=measure), theirs, text_rows(3), ragas_scored)


BLEU_OPTIONS = [{}, {"tokenize": "intl", "lowercase": True}, {"smooth_method": "floor", "smooth_value": 0.2,
                                                               "use_effective_order": True, "force": True}]


@pytest.mark.parametrize("kwargs", BLEU_OPTIONS, ids=["default", "intl-lc", "floor-eff"])
def test_bleu_ragas_compatible(kwargs: dict[str, Any]) -> None:
    mine = ours.BleuScore(kwargs=kwargs, ragas_compatible=True)
    compare(mine, _bleu_score.BleuScore(kwargs=kwargs), text_rows(4), ragas_scored)


@pytest.mark.parametrize("kwargs", BLEU_OPTIONS, ids=["default", "intl-lc", "floor-eff"])
def test_bleu_default_is_sacrebleu_on_the_whole_text(kwargs: dict[str, Any]) -> None:
    rows = text_rows(5)
    results = ours.BleuScore(kwargs=kwargs).batch_score(rows)
    ragas = ragas_scores(_bleu_score.BleuScore(kwargs=kwargs), rows)
    n_ok = n_differ = 0
    for row, result, theirs in zip(rows, results, ragas, strict=True):
        if result.status != "ok":
            assert any(is_empty(v) for v in row.values())
            continue
        n_ok += 1
        assert result.value == sacrebleu.corpus_bleu([row["response"]], [[row["reference"]]], **kwargs).score / 100
        if ". " not in row["reference"] + row["response"]:  # nothing to split: Ragas scores the same segment
            assert result.value == theirs, row
        n_differ += result.value != theirs
    assert n_ok >= MIN_OK and n_differ > 50, (n_ok, n_differ)


def test_bleu_multi_sentence_differs_from_ragas() -> None:
    """Ragas issue #2888: Ragas scores only the first response sentence, against every reference sentence
    as an alternative reference; the default scores the whole texts, as sacrebleu does."""
    reference, response = "The cat sat on the mat. It was a sunny day.", "The cat sat on the mat. Dogs barked."
    sample = SingleTurnSample(reference=reference, response=response)
    ragas = asyncio.run(_bleu_score.BleuScore().single_turn_ascore(RagasSample(reference=reference, response=response)))
    assert ragas == 1.0000000000000004  # the first sentences match: a "perfect" score
    assert ours.BleuScore(ragas_compatible=True).single_turn_score(sample) == ragas
    whole = ours.BleuScore().single_turn_score(sample)
    assert whole == sacrebleu.corpus_bleu([response], [[reference]]).score / 100
    assert 0.4 < whole < 0.6
    # Two sentences against three, the first sentences different: Ragas gives 0.0.
    reference, response = "A is one. B is two. C is three.", "One is A. B is two."
    ragas = asyncio.run(_bleu_score.BleuScore().single_turn_ascore(RagasSample(reference=reference, response=response)))
    sample = SingleTurnSample(reference=reference, response=response)
    assert ragas == 0.0 == ours.BleuScore(ragas_compatible=True).single_turn_score(sample)
    whole = ours.BleuScore().single_turn_score(sample)
    assert whole == sacrebleu.corpus_bleu([response], [[reference]]).score / 100 > 0


ROUGE = [(t, m) for t in ("rouge1", "rougeL") for m in ("fmeasure", "precision", "recall")]


@pytest.mark.parametrize(("rouge_type", "mode"), ROUGE, ids=[f"{t}-{m}" for t, m in ROUGE])
def test_rouge(rouge_type: str, mode: Any) -> None:
    theirs = _rouge_score.RougeScore(rouge_type=rouge_type, mode=mode)
    compare(ours.RougeScore(rouge_type=rouge_type, mode=mode), theirs, text_rows(6), ragas_scored)


@pytest.mark.parametrize("kwargs", [{}, {"word_order": 2}, {"char_order": 3, "beta": 1, "remove_whitespace": False}])
def test_chrf(kwargs: dict[str, Any]) -> None:
    def difference(row: dict[str, Any], value: Any) -> None:
        assert value == 0.0  # Ragas returns 0.0 for an empty or whitespace-only text

    compare(ours.ChrfScore(kwargs=kwargs), _chrf_score.ChrfScore(kwargs=kwargs), text_rows(7), difference)


# The context metrics ---------------------------------------------------------------------------------------


def precision_difference(row: dict[str, Any], value: Any) -> None:
    """Ragas: no retrieved contexts -> 0.0 (AP of nothing); retrieved but no reference contexts -> max() of
    an empty list raises ValueError."""
    if not row["retrieved_contexts"]:
        assert value == 0.0
    else:
        assert isinstance(value, ValueError)


def recall_difference(row: dict[str, Any], value: Any) -> None:
    """Ragas: no reference contexts -> NaN (0 / 0); reference but no retrieved contexts -> ValueError."""
    if not row["reference_contexts"]:
        assert math.isnan(value)
    else:
        assert isinstance(value, ValueError)


@pytest.mark.parametrize(
    ("measure", "threshold"),
    [
        (ours.DistanceMeasure.LEVENSHTEIN, 0.5),
        (ours.DistanceMeasure.JARO_WINKLER, 0.8),
        (ours.DistanceMeasure.HAMMING, 0.3),
    ],
    ids=["levenshtein-0.5", "jaro_winkler-0.8", "hamming-0.3"],
)
def test_context_precision(measure: ours.DistanceMeasure, threshold: float) -> None:
    similarity = _string.NonLLMStringSimilarity(distance_measure=_string.DistanceMeasure(measure.value))
    theirs = _context_precision.NonLLMContextPrecisionWithReference(distance_measure=similarity, threshold=threshold)
    mine = ours.NonLLMContextPrecisionWithReference(
        distance_measure=ours.NonLLMStringSimilarity(distance_measure=measure), threshold=threshold
    )
    compare(mine, theirs, context_rows(8), precision_difference)


def test_context_edges() -> None:
    """Similarity exactly 0.5 is relevant for precision (``>=``), not retrieved for recall (``>``); Ragas's
    epsilon shows when every retrieved context is relevant."""
    rows = CONTEXT_EDGES[:4]
    precision = [r.value for r in ours.NonLLMContextPrecisionWithReference().batch_score(rows)]
    assert precision == [1 / (1 + 1e-10), 1 / (1 + 1e-10), 2 / (2 + 1e-10), 0.0]
    assert [r.value for r in ours.NonLLMContextRecall().batch_score(rows)] == [0.0, 1.0, 1.0, 0.0]


@pytest.mark.parametrize(
    ("measure", "threshold"),
    [(ours.DistanceMeasure.LEVENSHTEIN, 0.5), (ours.DistanceMeasure.JARO, 0.7)],
    ids=["levenshtein-0.5", "jaro-0.7"],
)
def test_context_recall(measure: ours.DistanceMeasure, threshold: float) -> None:
    theirs = _context_recall.NonLLMContextRecall(threshold=threshold)
    theirs.distance_measure = _string.DistanceMeasure(measure.value)  # Ragas's setter
    mine = ours.NonLLMContextRecall(threshold=threshold)
    mine.distance_measure = measure
    compare(mine, theirs, context_rows(9), recall_difference)


def test_id_based_context_precision() -> None:
    def difference(row: dict[str, Any], value: Any) -> None:
        if not row["retrieved_context_ids"]:
            assert math.isnan(value)  # Ragas: NaN with no retrieved IDs
        else:
            assert value == 0.0  # Ragas: 0.0 with no reference IDs

    compare(ours.IDBasedContextPrecision(), _context_precision.IDBasedContextPrecision(), id_rows(10), difference)


def test_id_based_context_recall() -> None:
    def difference(row: dict[str, Any], value: Any) -> None:
        if not row["reference_context_ids"]:
            assert math.isnan(value)  # Ragas: NaN with no reference IDs
        else:
            assert value == 0.0  # Ragas: 0.0 with no retrieved IDs

    compare(ours.IDBasedContextRecall(), _context_recall.IDBasedContextRecall(), id_rows(11), difference)


# The facades -----------------------------------------------------------------------------------------------


def test_names_and_distance_measures_are_ragas_s() -> None:
    pairs = [
        (ours.ExactMatch(), _string.ExactMatch()),
        (ours.StringPresence(), _string.StringPresence()),
        (ours.NonLLMStringSimilarity(), _string.NonLLMStringSimilarity()),
        (ours.BleuScore(), _bleu_score.BleuScore()),
        (ours.RougeScore(), _rouge_score.RougeScore()),
        (ours.ChrfScore(), _chrf_score.ChrfScore()),
        (ours.NonLLMContextPrecisionWithReference(), _context_precision.NonLLMContextPrecisionWithReference()),
        (ours.NonLLMContextRecall(), _context_recall.NonLLMContextRecall()),
        (ours.IDBasedContextPrecision(), _context_precision.IDBasedContextPrecision()),
        (ours.IDBasedContextRecall(), _context_recall.IDBasedContextRecall()),
    ]
    for mine, theirs in pairs:
        assert mine.name == theirs.name
        assert not mine.uses_judge and mine.llm is None
    assert {m.name: m.value for m in ours.DistanceMeasure} == {m.name: m.value for m in _string.DistanceMeasure}
    assert ours.CHRFScore is ours.ChrfScore
    # Ragas's own enum is accepted too.
    assert ours.NonLLMStringSimilarity(distance_measure=_string.DistanceMeasure.JARO).distance_measure.value == "jaro"
    assert ours.RougeScore(name="r1", rouge_type="rouge1", mode="recall").name == "r1"


def test_facade_calls() -> None:
    sample = SingleTurnSample(reference="Paris", response="The capital of France is Paris.")
    assert ours.StringPresence().single_turn_score(sample) == 1.0
    assert asyncio.run(ours.ExactMatch().single_turn_ascore(sample)) == 0.0
    result = asyncio.run(ours.RougeScore(mode="recall").ascore(reference="Paris", response="Paris is big"))
    assert result.status == "ok" and result.value == 1.0 and result.details["precision"] == 1 / 3
    with pytest.raises(MetricError, match="not_applicable"):
        ours.ExactMatch().single_turn_score(SingleTurnSample(reference="", response=""))
    with pytest.raises(MetricError, match="retrieved_context_ids"):
        ours.IDBasedContextPrecision().single_turn_score(SingleTurnSample(reference_context_ids=["a"]))


def test_options_are_checked_when_built() -> None:
    with pytest.raises(TypeError, match="unknown sacrebleu keywords"):
        ours.BleuScore(kwargs={"tokenizer": "13a"})
    with pytest.raises(TypeError, match="unknown sacrebleu keywords"):
        ours.ChrfScore(kwargs={"lowercase": True})
    with pytest.raises(ValueError, match="tokenizer"):
        ours.BleuScore(kwargs={"tokenize": "zh"})
    with pytest.raises(ValueError, match="rouge_type"):
        ours.RougeScore(rouge_type="rougeX")
    with pytest.raises(ValueError, match="mode"):
        ours.RougeScore(mode="f1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="distance_measure"):
        ours.NonLLMStringSimilarity(distance_measure="cosine")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="threshold"):
        ours.NonLLMContextRecall(threshold="high")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="str or int"):
        ours.IDBasedContextRecall().score(retrieved_context_ids=[1.5], reference_context_ids=["1"])


def test_evaluate_without_an_llm() -> None:
    response, reference = "The capital of France is Paris. It is large.", "Paris is the capital of France. It is big."
    dataset = EvaluationDataset.from_list(
        [
            {
                "response": response,
                "reference": reference,
                "retrieved_contexts": ["Paris is the capital of France.", "Berlin is in Germany."],
                "reference_contexts": ["Paris is the capital of France."],
                "retrieved_context_ids": ["d1", "d2"],
                "reference_context_ids": ["d1"],
            },
            {"response": "", "reference": "Paris", "retrieved_contexts": [], "reference_contexts": ["x"]},
        ]
    )
    metrics = [
        ours.ExactMatch(),
        ours.StringPresence(),
        ours.NonLLMStringSimilarity(),
        ours.BleuScore(),
        ours.RougeScore(),
        ours.ChrfScore(),
        ours.NonLLMContextPrecisionWithReference(),
        ours.NonLLMContextRecall(),
        ours.IDBasedContextPrecision(),
        ours.IDBasedContextRecall(),
    ]
    result = evaluate(dataset, metrics=metrics)
    first = result.scores[0]
    assert first["exact_match"] == 0.0 and first["id_based_context_precision"] == 0.5
    assert first["id_based_context_recall"] == 1.0 and first["non_llm_context_recall"] == 1.0
    assert first["bleu_score"] == sacrebleu.corpus_bleu([response], [[reference]]).score / 100
    assert all(v is None for v in result.scores[1].values())
    assert result.counts()["exact_match"] == {"ok": 1, "not_applicable": 1, "error": 0}
