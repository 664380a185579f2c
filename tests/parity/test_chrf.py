"""Parity of rapideval's chrF / chrF++ with sacrebleu 2.6.0 ``sentence_chrf``, ``corpus_chrf`` and
``CHRF(...)`` (REFERENCE.md 8): every field of the score, bit for bit and with sacrebleu's types."""

from __future__ import annotations

import json
import pathlib
import re
import sys
from importlib import resources
from typing import Any, Optional

import numpy as np
import pyarrow as pa
import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from bad_inputs import BAD_TEXT_COLUMNS  # noqa: E402
from strategies import overlapping_pairs, prose_text, texts, word_text  # noqa: E402

from rapideval.compat import sacrebleu as compat  # noqa: E402
from rapideval.metrics.chrf import chrf, corpus_chrf  # noqa: E402

#: Orders, weights and flags sacrebleu accepts (orders not both 0); floats exercise `beta ** 2`.
options = st.fixed_dictionaries(
    {
        "char_order": st.sampled_from([6, 6, 1, 2, 3, 4, 7, 9, 12]),
        "word_order": st.sampled_from([0, 2, 0, 2, 1, 3]),
        "beta": st.sampled_from([2, 2, 1, 3, 0, 0.5, 1.5, 2.7, 0.1]),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    }
)

#: Non-Latin text: CJK, Cyrillic and emoji with their punctuation, so that character ids must be
#: renumbered (and, with many distinct characters, compared unpacked).
wide_text = st.text(
    alphabet=st.one_of(st.sampled_from(list("日本語中文测试한국어Привет мир😀👍🏽 ，。！、「」abc.,!?()'\"")), st.characters(exclude_categories=("Cs",))),
    max_size=80,
)

#: A hypothesis with one to four references that overlap with it.
multi_ref = st.tuples(overlapping_pairs, st.lists(st.one_of(texts, word_text, wide_text), max_size=3)).map(
    lambda t: (t[0][0], [t[0][1], *t[1]])
)
segment = st.one_of(
    overlapping_pairs.map(lambda p: (p[0], [p[1]])),
    st.tuples(wide_text, wide_text).map(lambda p: (p[0], [p[1]])),
    multi_ref,
)


def fields(score: Any) -> tuple:
    """Every value of a CHRFScore with its type, floats as bit patterns."""

    def bits(x: Any) -> Any:
        return (type(x).__name__, x.hex() if isinstance(x, float) else x)

    return bits(score.score), score.name, score.char_order, score.word_order, bits(score.beta)


def to_streams(rows: list[list[Optional[str]]]) -> list[list[Optional[str]]]:
    """Per-segment references to sacrebleu's streams, padding short rows with None."""
    width = max(len(r) for r in rows)
    return [[r[k] if k < len(r) else None for r in rows] for k in range(width)]


@given(segment, options)
def test_sentence_chrf(seg: tuple[str, list[str]], opts: dict) -> None:
    hyp, refs = seg
    expected = CHRF(**opts).sentence_score(hyp, refs)
    ours = compat.CHRF(**opts).sentence_score(hyp, refs)
    assert fields(ours) == fields(expected)
    assert str(ours) == str(expected)
    (batch,) = chrf([hyp], [refs], **opts)
    assert batch.hex() == (expected.score / 100).hex()


#: Words from a few (n-grams counted in a table) or many (sorted) distinct ones, long words that share
#: their first bytes, punctuation at either end, and every ASCII whitespace byte Python splits on.
word_pool = st.sampled_from(
    ["a", "the", "x.", "(b", "c)", "cat", "internationalization", "internationalizations", "naïve.", "é", ",",
     "..", "'quoted'", "a\x00b", "over-long-word-that-crosses"]
)
many_words = st.lists(st.one_of(word_pool, st.from_regex(r"[a-z]{1,12}[.,!?]?", fullmatch=True)), max_size=120)
separators = st.sampled_from([" ", " ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", "  "])
word_line = st.tuples(many_words, st.lists(separators, min_size=121, max_size=121)).map(
    lambda t: "".join(w + sep for w, sep in zip(t[0], t[1]))
)


@given(word_line, word_line, st.sampled_from([0, 1, 2, 3]), st.booleans())
def test_chrf_plus_plus_word_vocabularies(hyp: str, ref: str, word_order: int, lowercase: bool) -> None:
    expected = CHRF(word_order=word_order, lowercase=lowercase).sentence_score(hyp, [ref]).score
    assert chrf([hyp], [ref], word_order=word_order, lowercase=lowercase)[0].hex() == (expected / 100).hex()


@given(segment, st.sampled_from([0, 2]))
def test_sentence_chrf_defaults(seg: tuple[str, list[str]], word_order: int) -> None:
    hyp, refs = seg
    expected = sacrebleu.sentence_chrf(hyp, refs, word_order=word_order)
    assert fields(compat.sentence_chrf(hyp, refs, word_order=word_order)) == fields(expected)
    assert chrf([hyp], [refs], word_order=word_order)[0].hex() == (expected.score / 100).hex()


@given(st.lists(segment, min_size=1, max_size=8), options)
def test_corpus_chrf(segments: list[tuple[str, list[str]]], opts: dict) -> None:
    hyps = [h for h, _ in segments]
    rows = [r for _, r in segments]
    streams = to_streams(rows)
    metric = CHRF(**opts)
    expected = metric.corpus_score(hyps, streams)
    mine = compat.CHRF(**opts)
    assert fields(mine.corpus_score(hyps, streams)) == fields(expected)
    ours = corpus_chrf(hyps, rows, **opts)
    assert ours.score.hex() == (expected.score / 100).hex()
    assert list(ours.statistics) == [int(x) for x in _reference_stats(metric, hyps, streams)]
    assert ours.signature == metric.get_signature().format() == mine.get_signature().format()
    assert mine.get_signature().format(short=True) == metric.get_signature().format(short=True)


def _reference_stats(metric: CHRF, hyps: list[str], streams: list[list[Optional[str]]]) -> list[int]:
    """sacrebleu's summed corpus statistics."""
    from sacrebleu.utils import sum_of_lists

    return sum_of_lists(metric._extract_corpus_statistics(hyps, streams))


@given(st.lists(segment, min_size=1, max_size=6), st.sampled_from([True, False]), st.sampled_from([0, 2]))
def test_compat_corpus_function(segments: list[tuple[str, list[str]]], remove_whitespace: bool, word_order: int) -> None:
    hyps = [h for h, _ in segments]
    streams = to_streams([r for _, r in segments])
    expected = sacrebleu.corpus_chrf(hyps, streams, word_order=word_order, remove_whitespace=remove_whitespace)
    ours = compat.corpus_chrf(hyps, streams, word_order=word_order, remove_whitespace=remove_whitespace)
    assert fields(ours) == fields(expected)
    assert str(ours) == str(expected)


@given(st.lists(segment, min_size=1, max_size=10), options)
def test_sentence_batch(segments: list[tuple[str, list[str]]], opts: dict) -> None:
    hyps = [h for h, _ in segments]
    rows = [r for _, r in segments]
    metric = CHRF(**opts)
    expected = [(metric.sentence_score(h, r).score / 100).hex() for h, r in segments]
    assert [x.hex() for x in chrf(hyps, rows, **opts).tolist()] == expected


@given(prose_text, prose_text)
def test_real_prose(hyp: str, ref: str) -> None:
    for word_order in (0, 2):
        expected = sacrebleu.sentence_chrf(hyp, [ref], word_order=word_order)
        assert chrf([hyp], [ref], word_order=word_order)[0].hex() == (expected.score / 100).hex()


@pytest.mark.parametrize("word_order", [0, 2])
def test_example_dataset(word_order: int) -> None:
    """Every row of the shipped dataset (prose and rewrites of it: most suffixes of a pair are
    identical and are paired off before sorting), then the same rows against other rows' references
    in blocks (where pairing does not pay and is skipped), then alternating, and two references."""
    with (resources.files("rapideval") / "data" / "example.jsonl").open(encoding="utf8") as lines:
        rows = [json.loads(line) for line in lines]
    hyps, refs = [r["response"] for r in rows], [r["reference"] for r in rows]
    others = refs[7:] + refs[:7]
    for references in (refs, refs[:200] + others[200:400] + refs[400:], [r if i % 3 else o for i, (r, o) in enumerate(zip(refs, others))]):
        expected = [(sacrebleu.sentence_chrf(h, [r], word_order=word_order).score / 100).hex()
                    for h, r in zip(hyps, references)]
        assert [x.hex() for x in chrf(hyps, references, word_order=word_order).tolist()] == expected
    two = [[o, r] for r, o in zip(refs, others)]
    expected = [(sacrebleu.sentence_chrf(h, r, word_order=word_order).score / 100).hex() for h, r in zip(hyps, two)]
    assert [x.hex() for x in chrf(hyps, two, word_order=word_order).tolist()] == expected


def test_none_in_reference_streams() -> None:
    hyps = ["the cat sat on the mat", "a dog ran", "x"]
    streams = [["the cat sat on a mat", "a dog ran fast", None], [None, "the dog ran", "y"]]
    metric, mine = CHRF(word_order=2), compat.CHRF(word_order=2)
    assert fields(mine.corpus_score(hyps, streams)) == fields(metric.corpus_score(hyps, streams))
    assert str(mine.get_signature()) == str(metric.get_signature()) == (
        "nrefs:var|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0"
    )
    assert fields(compat.sentence_chrf("x y", [None, "x y z"])) == fields(sacrebleu.sentence_chrf("x y", [None, "x y z"]))


def test_cached_references() -> None:
    hyps = ["the cat sat", "on the mat"]
    streams = [["the cat sat down", "on a mat"]]
    ref = CHRF(references=streams, lowercase=True)
    ours = compat.CHRF(references=streams, lowercase=True)
    assert fields(ours.corpus_score(hyps, None)) == fields(ref.corpus_score(hyps, None))
    assert str(ours.get_signature()) == str(ref.get_signature())


#: The inputs of TRICKY.md.
TRICKY = [
    "can't", "won't", "'tis", "gonna", "cannot", "I'm", '"Hi," he said.', "“smart” ‘q’", "1,000,000.", "3.14",
    "$3.88 (10%)", "http://a.com/x?y=1&z=2", "user@example.com", "U.S.A.", "U.S.A. is big.", "e.g. this",
    "Mr. Smith", "A. B. Smith", "No. 5", "well--known e-mail", "a…b", "...", "!!!", "", "café naïve", "İstanbul",
    "straße", "\u212a", "x\xa0y", "Go home.\xa0Now. Fast", "line1\nline2 can't", "tab\there", "日本語です。",
    "Привет, мир!", "😀!", "x² ½", "&amp; &lt;", "<skipped>", "fs\x1cgs", "running happily", "generalizations",
]  # fmt: skip


@pytest.mark.parametrize("text", TRICKY)
@pytest.mark.parametrize("word_order", [0, 2])
@pytest.mark.parametrize("lowercase", [False, True])
def test_tricky_inputs(text: str, word_order: int, lowercase: bool) -> None:
    for hyp, ref in [(text, text), (text, "the " + text + " x"), (text + " !", text.upper())]:
        metric = CHRF(word_order=word_order, lowercase=lowercase)
        expected = metric.sentence_score(hyp, [ref])
        ours = compat.CHRF(word_order=word_order, lowercase=lowercase).sentence_score(hyp, [ref])
        assert fields(ours) == fields(expected)
        assert ours.format(width=4, signature="x:y") == expected.format(width=4, signature="x:y")
        assert ours.format(signature="nrefs:1|nc:6", is_json=True) == expected.format(
            signature="nrefs:1|nc:6", is_json=True
        )


def test_identical_and_empty() -> None:
    assert chrf(["the cat"], ["the cat"])[0] == 1.0
    assert chrf([""], [""])[0] == 0.0
    assert chrf(["abc"], [""])[0] == 0.0 == sacrebleu.sentence_chrf("abc", [""]).score


def test_column_types() -> None:
    hyps, refs = ["the cat sat", "a dog"], ["the cat sat down", "dog"]
    expected = [sacrebleu.sentence_chrf(h, [r]).score / 100 for h, r in zip(hyps, refs)]
    for make in (list, tuple, np.array, pa.array):
        assert chrf(make(hyps), make(refs)).tolist() == expected
    assert corpus_chrf(pa.array(hyps), pa.array([[r] for r in refs])).score == (
        sacrebleu.corpus_chrf(hyps, [refs]).score / 100
    )


def test_huge_strings() -> None:
    big = "The quick brown fox, jumps over 3.14 dogs! " * 24_000
    assert len(big) > 1_000_000
    other = big.replace("fox", "cat", 5_000)
    for word_order in (0, 2):
        expected = sacrebleu.sentence_chrf(big, [other], word_order=word_order)
        assert chrf([big], [other], word_order=word_order)[0].hex() == (expected.score / 100).hex()


def test_many_distinct_characters() -> None:
    """More distinct characters than fit a packed key: the unpacked path."""
    hyp = "".join(chr(0x4E00 + i) for i in range(3000))
    ref = "".join(chr(0x4E00 + (i * 7) % 3000) for i in range(3000)) + hyp[:500]
    expected = sacrebleu.sentence_chrf(hyp, [ref], word_order=2)
    assert chrf([hyp], [ref], word_order=2)[0].hex() == (expected.score / 100).hex()


@pytest.mark.parametrize(
    ("responses", "references", "error", "where"),
    [*BAD_TEXT_COLUMNS, (["x", "y"], ["x", []], ValueError, "row 1: a segment has no reference")],
)
@pytest.mark.parametrize("fn", [chrf, corpus_chrf])
def test_bad_input(fn: Any, responses: Any, references: Any, error: type, where: str) -> None:
    with pytest.raises(error, match=re.escape(where)):
        fn(responses, references)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"char_order": 0, "word_order": 0},
        {"char_order": -1},
        {"word_order": -2},
        {"char_order": 1001},
        {"word_order": 10**30},
        {"beta": float("inf")},
        {"beta": 1e308},
    ],
)
def test_bad_options(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        chrf(["x"], ["x"], **kwargs)
    with pytest.raises(ValueError):
        corpus_chrf(["x"], ["x"], **kwargs)
    with pytest.raises((TypeError, ValueError)):
        chrf(["x"], ["x"], char_order=2.5)


def test_compat_errors_like_sacrebleu() -> None:
    with pytest.raises(TypeError, match="CHRF: The argument `hyp` should be a string."):
        compat.sentence_chrf(None, ["x"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        compat.sentence_chrf("x", "x")
    with pytest.raises(TypeError, match="CHRF: Undefined line in hypotheses stream!"):
        compat.corpus_chrf(["x", None], [["x", "y"]])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="Number of references unknown"):
        compat.CHRF().get_signature()
    with pytest.raises(ValueError, match="different lengths"):
        compat.corpus_chrf(["x", "y"], [["x", "y"], ["x"]])
    with pytest.raises(ValueError, match="no reference"):
        compat.sentence_chrf("x", [None])
    with pytest.raises(RuntimeError, match="No references provided"):
        compat.CHRF().corpus_score(["x"], None)


@pytest.mark.parametrize("word_order", [1, 2, 3])
def test_references_around_64_words(word_order: int) -> None:
    """Word n-grams are matched word against word where every reference has at most 64 words (one
    bit per word) and counted by word ids beyond: references of 60 to 74 words (punctuation split
    off) and of about 160, alone and together with a short one, against sacrebleu."""
    with (resources.files("rapideval") / "data" / "example.jsonl").open(encoding="utf8") as lines:
        rows = [json.loads(line) for line in lines][:60]
    words = " ".join(r["reference"] for r in rows).split()
    hyp_words = " ".join(r["response"] for r in rows).split()
    hyps, references = [], []
    for start in range(0, 40, 3):
        for n in (48, 50, 52, 54, 130):
            hyps.append(" ".join(hyp_words[start : start + n - 5]))
            references.append([" ".join(words[start : start + n]), " ".join(words[start + 1 : start + 12])])
    for refs in ([r[:1] for r in references], references):
        expected = [(sacrebleu.sentence_chrf(h, r, word_order=word_order).score / 100).hex()
                    for h, r in zip(hyps, refs)]
        assert [x.hex() for x in chrf(hyps, refs, word_order=word_order).tolist()] == expected
