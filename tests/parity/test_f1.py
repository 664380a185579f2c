"""Parity of rapideval's token F1 with promptflow-evals 0.3.5 ``F1ScoreEvaluator`` (REFERENCE.md 9),
of its SQuAD normalisation with the evaluator's own ``normalize_text``, and of exact match."""

from __future__ import annotations

import pathlib
import re
import string
import sys
import types

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st
from promptflow.evals.evaluators import F1ScoreEvaluator
from promptflow.evals.evaluators._f1_score._f1_score import _AsyncF1ScoreEvaluator

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from strategies import overlapping_pairs, texts  # noqa: E402

from rapideval import tokenize  # noqa: E402
from rapideval.metrics.f1 import exact_match, f1  # noqa: E402

EVALUATOR = F1ScoreEvaluator()


def _reference_normalize_text() -> types.FunctionType:
    """promptflow's own ``normalize_text``, a closure inside ``_compute_f1_score`` over ``re`` and
    ``string``: rebuilt from its code object so that the real code runs."""
    outer = _AsyncF1ScoreEvaluator._compute_f1_score.__func__.__code__
    code = next(c for c in outer.co_consts if getattr(c, "co_name", "") == "normalize_text")
    cells = {"re": types.CellType(re), "string": types.CellType(string)}
    return types.FunctionType(code, {}, "normalize_text", None, tuple(cells[v] for v in code.co_freevars))


NORMALIZE = _reference_normalize_text()

#: Article and punctuation edges of the normalisation.
EDGES = ["a", "an", "the", "A", "An", "THE", "theater", "an²", "a_b", "_a", "a.", ".a", "a-the", "À", "İ", "ǅ",
         "“", "”", "…", "'", "!", " ", "\n", "\xa0", "\u3000", "x", "y", "None", "none", "²", "\u0301"]
edge_text = st.lists(st.sampled_from(EDGES), max_size=12).map("".join)
pairs = st.one_of(overlapping_pairs, st.tuples(edge_text, edge_text), st.tuples(texts, st.just("None")))


def reference_f1(answer: str, ground_truth: str) -> float | type[ValueError]:
    try:
        return EVALUATOR(answer=answer, ground_truth=ground_truth)["f1_score"]
    except ValueError:
        return ValueError


@given(pairs)
def test_f1_matches_promptflow(pair: tuple[str, str]) -> None:
    answer, truth = pair
    expected = reference_f1(answer, truth)
    if expected is ValueError:
        with pytest.raises(ValueError, match=r"row 0: Both 'answer' and 'ground_truth' must be non-empty strings\."):
            f1([answer], [truth])
    else:
        (ours,) = f1([answer], [truth])
        assert type(expected) is float
        assert ours.hex() == expected.hex()


@given(st.lists(overlapping_pairs, max_size=10))
def test_f1_batch_matches_promptflow(rows: list[tuple[str, str]]) -> None:
    expected = [reference_f1(a, g) for a, g in rows]
    if ValueError in expected:
        with pytest.raises(ValueError, match=f"row {expected.index(ValueError)}:"):
            f1([a for a, _ in rows], [g for _, g in rows])
    else:
        ours = f1([a for a, _ in rows], [g for _, g in rows])
        assert ours.dtype == np.float64
        assert [x.hex() for x in ours.tolist()] == [x.hex() for x in expected]


@given(st.one_of(texts, edge_text))
def test_normalization_matches_promptflow(text: str) -> None:
    assert tokenize.squad_normalize(text) == NORMALIZE(text)


@given(pairs)
def test_exact_match(pair: tuple[str, str]) -> None:
    answer, truth = pair
    normalized = exact_match([answer], [truth]).tolist()
    assert normalized == [float(NORMALIZE(answer) == NORMALIZE(truth))]
    assert exact_match([answer], [truth], normalize=False).tolist() == [float(truth == answer)]


@pytest.mark.parametrize(
    ("text", "normalized"),
    [("can't", "cant"), ("A. B. Smith", "b smith"), ("e.g.", "eg"), ("U.S.A.", "usa"), ("3.14", "314"),
     ("“smart” ‘q’", "“smart” ‘q’"), ("a…b", "…b"), ("İstanbul", "i̇stanbul"), ("...", ""), ("x² ½", "x² ½")],
)
def test_tricky_normalization(text: str, normalized: str) -> None:
    assert NORMALIZE(text) == normalized
    assert tokenize.squad_normalize(text) == normalized


@pytest.mark.parametrize("bad", ["", " ", "\n\t", "\u3000", "None"])
def test_promptflow_value_errors(bad: str) -> None:
    for answer, truth in [(bad, "x"), ("x", bad)]:
        with pytest.raises(ValueError):
            EVALUATOR(answer=answer, ground_truth=truth)
        with pytest.raises(ValueError, match="row 1: Both 'answer'"):
            f1(["x", answer], ["x", truth])


def test_column_types() -> None:
    answers, truths = ["the cat sat", "a dog"], ["a cat sat down", "dog"]
    expected = [EVALUATOR(answer=a, ground_truth=g)["f1_score"] for a, g in zip(answers, truths)]
    for make in (list, tuple, np.array, pa.array):
        assert f1(make(answers), make(truths)).tolist() == expected
    assert exact_match(pa.array(answers), np.array(truths)).tolist() == [0.0, 1.0]


def test_huge_strings() -> None:
    big = "The quick brown fox, jumps! " * 40_000
    assert len(big) > 1_000_000
    (ours,) = f1([big], [big + "extra"])
    assert ours == EVALUATOR(answer=big, ground_truth=big + "extra")["f1_score"]


@pytest.mark.parametrize("fn", [f1, exact_match])
@pytest.mark.parametrize(
    ("responses", "references", "error", "where"),
    [
        (["x", None], ["x", "y"], TypeError, "responses[1]"),
        (["x", "y"], ["x", 5], TypeError, "references[1]"),
        (["x", "\ud800"], ["x", "y"], ValueError, "responses[1]"),
        (["x"], ["x", "y"], ValueError, "responses has 1 rows but references has 2"),
        ("x", ["x"], TypeError, "responses"),
    ],
)
def test_bad_input(fn, responses, references, error, where) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=re.escape(where)):
        fn(responses, references)
