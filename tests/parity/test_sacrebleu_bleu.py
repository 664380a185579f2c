"""Parity of rapideval's sacrebleu BLEU with sacrebleu 2.6.0 ``sentence_bleu``, ``corpus_bleu`` and
``BLEU(...)`` (REFERENCE.md 8): every field of the score, bit for bit and with sacrebleu's types."""

from __future__ import annotations

import pathlib
import re
import sys
from types import SimpleNamespace
from typing import Any, Optional

import numpy as np
import pyarrow as pa
import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from strategies import overlapping_pairs, texts, word_text  # noqa: E402

from rapideval.compat import sacrebleu as compat  # noqa: E402
from rapideval.metrics.sacrebleu import sacrebleu_bleu, sacrebleu_corpus_bleu  # noqa: E402

TOKENIZERS = ["13a", "intl", "none", "char"]
SMOOTH_METHODS = ["exp", "floor", "add-k", "none"]
SMOOTH_VALUES = [None, 0, 0.0, 0.01, 0.1, 0.5, 1, 1.0, 2, 3.7, -0.5, -1]

options = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(TOKENIZERS),
        "lowercase": st.booleans(),
        "smooth_method": st.sampled_from(SMOOTH_METHODS),
        "smooth_value": st.sampled_from(SMOOTH_VALUES),
    }
)

#: A hypothesis with one to four references that overlap with it.
multi_ref = st.tuples(overlapping_pairs, st.lists(st.one_of(texts, word_text), max_size=3)).map(
    lambda t: (t[0][0], [t[0][1], *t[1]])
)
segment = st.one_of(overlapping_pairs.map(lambda p: (p[0], [p[1]])), multi_ref)


def fields(score: Any) -> tuple:
    """Every value of a BLEUScore with its type, floats as bit patterns."""

    def bits(x: Any) -> Any:
        return (type(x).__name__, x.hex() if isinstance(x, float) else x)

    return (
        bits(score.score),
        [bits(c) for c in score.counts],
        [bits(t) for t in score.totals],
        [bits(p) for p in score.precisions],
        bits(score.bp),
        bits(score.sys_len),
        bits(score.ref_len),
    )


def on_unit_scale(score: Any) -> SimpleNamespace:
    """sacrebleu's BLEUScore as rapideval's flat API gives it: score and precisions divided by 100."""
    return SimpleNamespace(score=score.score / 100, counts=score.counts, totals=score.totals,
                           precisions=[p / 100 for p in score.precisions], bp=score.bp, sys_len=score.sys_len,
                           ref_len=score.ref_len)  # fmt: skip


def outcome(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """The score's fields and str(), or the exception type (math domain errors for negative smoothing)."""
    try:
        score = fn(*args, **kwargs)
    except (ValueError, ZeroDivisionError) as e:
        return type(e)
    return fields(score), str(score)


def to_streams(rows: list[list[Optional[str]]]) -> list[list[Optional[str]]]:
    """Per-segment references to sacrebleu's streams, padding short rows with None."""
    width = max(len(r) for r in rows)
    return [[r[k] if k < len(r) else None for r in rows] for k in range(width)]


@given(segment, options, st.booleans())
def test_sentence_bleu(seg: tuple[str, list[str]], opts: dict, effective: bool) -> None:
    hyp, refs = seg
    expected = outcome(sacrebleu.sentence_bleu, hyp, refs, use_effective_order=effective, **opts)
    assert outcome(compat.sentence_bleu, hyp, refs, use_effective_order=effective, **opts) == expected
    if not isinstance(expected, type):
        (ours,) = sacrebleu_bleu([hyp], [refs], effective_order=effective, **opts)
        expected_score = sacrebleu.sentence_bleu(hyp, refs, use_effective_order=effective, **opts).score
        assert ours.hex() == (expected_score / 100).hex()


@given(overlapping_pairs)
def test_sentence_bleu_defaults(pair: tuple[str, str]) -> None:
    hyp, ref = pair
    expected = sacrebleu.sentence_bleu(hyp, [ref])
    assert fields(compat.sentence_bleu(hyp, [ref])) == fields(expected)
    assert sacrebleu_bleu([hyp], [ref])[0].hex() == (expected.score / 100).hex()


@given(st.lists(segment, min_size=1, max_size=8), options, st.booleans())
def test_corpus_bleu(segments: list[tuple[str, list[str]]], opts: dict, effective: bool) -> None:
    hyps = [h for h, _ in segments]
    rows = [r for _, r in segments]
    streams = to_streams(rows)
    expected = outcome(sacrebleu.corpus_bleu, hyps, streams, use_effective_order=effective, **opts)
    assert outcome(compat.corpus_bleu, hyps, streams, use_effective_order=effective, **opts) == expected
    if isinstance(expected, type):
        with pytest.raises(expected):
            sacrebleu_corpus_bleu(hyps, rows, effective_order=effective, **opts)
        return
    ours = sacrebleu_corpus_bleu(hyps, rows, effective_order=effective, **opts)
    reference = sacrebleu.corpus_bleu(hyps, streams, use_effective_order=effective, **opts)
    assert fields(ours) == fields(on_unit_scale(reference))
    metric = sacrebleu.BLEU(effective_order=effective, **opts)
    metric.corpus_score(hyps, streams)
    assert ours.signature == metric.get_signature().format()


@given(st.lists(segment, min_size=1, max_size=6), st.integers(1, 6), options, st.booleans())
def test_bleu_class(segments: list[tuple[str, list[str]]], order: int, opts: dict, effective: bool) -> None:
    hyps = [h for h, _ in segments]
    streams = to_streams([r for _, r in segments])
    ref = sacrebleu.BLEU(max_ngram_order=order, effective_order=effective, **opts)
    ours = compat.BLEU(max_ngram_order=order, effective_order=effective, **opts)
    assert outcome(ours.corpus_score, hyps, streams) == outcome(ref.corpus_score, hyps, streams)
    assert outcome(ours.sentence_score, hyps[0], segments[0][1]) == outcome(ref.sentence_score, hyps[0],
                                                                            segments[0][1])
    assert ours.get_signature().format() == ref.get_signature().format()
    assert ours.get_signature().format(short=True) == ref.get_signature().format(short=True)
    assert str(ours.get_signature()) == str(ref.get_signature())


@given(st.lists(segment, min_size=1, max_size=10), options)
def test_sentence_batch(segments: list[tuple[str, list[str]]], opts: dict) -> None:
    hyps = [h for h, _ in segments]
    rows = [r for _, r in segments]
    expected = [outcome(sacrebleu.sentence_bleu, h, r, **opts) for h, r in segments]
    if any(isinstance(e, type) for e in expected):
        with pytest.raises(ValueError, match=r"row \d+: math domain error"):
            sacrebleu_bleu(hyps, rows, **opts)
        return
    ours = sacrebleu_bleu(hyps, rows, **opts)
    assert [x.hex() for x in ours.tolist()] == [(sacrebleu.sentence_bleu(h, r, **opts).score / 100).hex()
                                                for h, r in segments]


def test_none_in_reference_streams() -> None:
    hyps = ["the cat sat on the mat", "a dog ran", ""]
    streams = [["the cat sat on a mat", "a dog ran fast", None], [None, "the dog ran", None]]
    expected = sacrebleu.corpus_bleu(hyps, streams)
    ours = compat.corpus_bleu(hyps, streams)
    assert fields(ours) == fields(expected)
    metric, mine = sacrebleu.BLEU(), compat.BLEU()
    metric.corpus_score(hyps, streams)
    mine.corpus_score(hyps, streams)
    assert str(mine.get_signature()) == str(metric.get_signature()) == (
        "nrefs:var|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    )
    assert fields(compat.sentence_bleu("x y", [None, "x y z"])) == fields(sacrebleu.sentence_bleu("x y", [None, "x y z"]))


def test_cached_references() -> None:
    hyps = ["the cat sat", "on the mat"]
    streams = [["the cat sat down", "on a mat"]]
    ref = sacrebleu.BLEU(references=streams, smooth_method="floor")
    ours = compat.BLEU(references=streams, smooth_method="floor")
    assert fields(ours.corpus_score(hyps, None)) == fields(ref.corpus_score(hyps, None))
    assert str(ours.get_signature()) == str(ref.get_signature())


@pytest.mark.parametrize(
    ("hyp", "refs"),
    [
        ("The cat sat on the mat.", ["The cat sat on the mat."]),
        ("", [""]),
        (" ", ["x"]),
        ("x", [""]),
        ("the the the the the the the", ["the cat sat on the mat"]),
        ("日本語です。", ["日本語です。"]),
        ("1,000,000. U.S.A.", ["1,000,000 . U . S . A ."]),
    ],
)
@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_tricky_sentences(hyp: str, refs: list[str], tokenize: str) -> None:
    expected = sacrebleu.sentence_bleu(hyp, refs, tokenize=tokenize)
    ours = compat.sentence_bleu(hyp, refs, tokenize=tokenize)
    assert fields(ours) == fields(expected)
    assert str(ours) == str(expected)
    assert ours.format(width=4, signature="x:y") == expected.format(width=4, signature="x:y")
    assert ours.format(score_only=True) == expected.format(score_only=True)
    assert ours.format(signature="nrefs:1|tok:13a", is_json=True) == expected.format(
        signature="nrefs:1|tok:13a", is_json=True
    )


def test_perfect_match_is_exp_log_100() -> None:
    assert sacrebleu_bleu(["the cat sat on the mat"], ["the cat sat on the mat"])[0] == 100.00000000000004 / 100


def test_column_types() -> None:
    hyps, refs = ["the cat sat", "a dog"], ["the cat sat down", "dog"]
    expected = [sacrebleu.sentence_bleu(h, [r]).score / 100 for h, r in zip(hyps, refs)]
    for make in (list, tuple, np.array, pa.array):
        assert sacrebleu_bleu(make(hyps), make(refs)).tolist() == expected
    assert sacrebleu_corpus_bleu(pa.array(hyps), pa.array([[r] for r in refs])).score == (
        sacrebleu.corpus_bleu(hyps, [refs]).score / 100
    )


def test_huge_strings() -> None:
    big = "The quick brown fox, jumps over 3.14 dogs! " * 24_000
    assert len(big) > 1_000_000
    expected = sacrebleu.sentence_bleu(big, [big + " extra"])
    assert fields(compat.sentence_bleu(big, [big + " extra"])) == fields(expected)


@pytest.mark.parametrize(
    ("responses", "references", "error", "where"),
    [
        (["x", None], ["x", "y"], TypeError, "responses[1]"),
        (["x", "y"], ["x", None], TypeError, "references[1]"),
        (["x", "y"], ["x", ["y", 3]], TypeError, "references[1][1]"),
        (["x", "\ud800"], ["x", "y"], ValueError, "responses[1]"),
        (["x", "y"], ["x", ["\ud800"]], ValueError, "references[1][0]"),
        (["x"], ["x", "y"], ValueError, "responses has 1 rows but references has 2"),
        ("x", ["x"], TypeError, "responses"),
    ],
)
@pytest.mark.parametrize("fn", [sacrebleu_bleu, sacrebleu_corpus_bleu])
def test_bad_input(fn: Any, responses: Any, references: Any, error: type, where: str) -> None:
    with pytest.raises(error, match=re.escape(where)):
        fn(responses, references)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"tokenize": "zh"}, "unknown sacrebleu tokenizer"), ({"smooth_method": "add-one"}, "unknown smooth_method")],
)
def test_bad_options(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sacrebleu_bleu(["x"], ["x"], **kwargs)
    with pytest.raises(ValueError, match=message):
        sacrebleu_corpus_bleu(["x"], ["x"], **kwargs)


def test_compat_errors_like_sacrebleu() -> None:
    with pytest.raises(TypeError):
        compat.sentence_bleu(None, ["x"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        compat.sentence_bleu("x", "x")
    with pytest.raises(TypeError):
        compat.corpus_bleu(["x", None], [["x", "y"]])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="Number of references unknown"):
        compat.BLEU().get_signature()
    with pytest.raises(ValueError, match="different lengths"):
        compat.corpus_bleu(["x", "y"], [["x", "y"], ["x"]])
    with pytest.raises(ValueError, match="no reference"):
        compat.sentence_bleu("x", [None])
    with pytest.raises(ValueError, match="not available"):
        compat.BLEU(tokenize="ja-mecab")
