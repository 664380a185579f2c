"""Parity of rapideval's TER with sacrebleu 2.6.0 ``sentence_ter``, ``corpus_ter`` and ``TER(...)``
(REFERENCE.md 8): the score, edits and reference length, bit for bit and with sacrebleu's types."""

from __future__ import annotations

import pathlib
import random
import re
import sys
from typing import Any, Optional

import numpy as np
import pyarrow as pa
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER
from sacrebleu.metrics.lib_ter import translation_edit_rate

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from bad_inputs import BAD_TEXT_COLUMNS  # noqa: E402
from strategies import fragment_text, overlapping_pairs, prose_text, texts, word_text  # noqa: E402

import rapideval  # noqa: E402
from rapideval.compat import sacrebleu as compat  # noqa: E402
from rapideval.metrics.ter import corpus_ter, ter  # noqa: E402

options = st.fixed_dictionaries(
    {
        "normalized": st.booleans(),
        "no_punct": st.booleans(),
        "asian_support": st.booleans(),
        "case_sensitive": st.booleans(),
    }
)

#: CJK, full-width and Asian punctuation, kana, and the characters the western normalisation touches.
asian_text = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("日本語中文测试ひらがなカタカナ㈠㍿豈︰ㇰ⺀、。〈〉「」【】〔〕･・．，？：；！＂（）")),
        st.sampled_from(list("abc 's.,-&;:?!\"()0123456789\n")),
        st.characters(exclude_categories=("Cs",)),
    ),
    max_size=60,
)

multi_ref = st.tuples(overlapping_pairs, st.lists(st.one_of(texts, word_text, asian_text), max_size=3)).map(
    lambda t: (t[0][0], [t[0][1], *t[1]])
)
segment = st.one_of(
    overlapping_pairs.map(lambda p: (p[0], [p[1]])),
    st.tuples(asian_text, asian_text).map(lambda p: (p[0], [p[1]])),
    st.tuples(fragment_text, fragment_text).map(lambda p: (p[0], [p[1]])),
    multi_ref,
)


@st.composite
def shuffled(draw: Any) -> tuple[str, str]:
    """A reference of 10-70 words from a small vocabulary and a hypothesis made from it by moving
    blocks and changing words: long enough for the beam, many shift candidates."""
    vocab = draw(st.integers(2, 40))
    n = draw(st.integers(10, 70))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    ref = [f"w{rnd.randrange(vocab)}" for _ in range(n)]
    hyp = list(ref)
    for _ in range(rnd.randrange(8)):
        i, length, j = rnd.randrange(len(hyp)), rnd.randrange(1, 12), rnd.randrange(len(hyp))
        block = hyp[i : i + length]
        del hyp[i : i + length]
        hyp[j:j] = block
    for _ in range(rnd.randrange(6)):
        op = rnd.randrange(3)
        k = rnd.randrange(len(hyp) + 1)
        if op == 0:
            hyp.insert(k, f"w{rnd.randrange(vocab)}")
        elif hyp and op == 1:
            del hyp[min(k, len(hyp) - 1)]
        elif hyp:
            hyp[min(k, len(hyp) - 1)] = "x"
    return " ".join(hyp), " ".join(ref)


def fields(score: Any) -> tuple:
    """Every value of a TERScore with its type, floats as bit patterns."""

    def bits(x: Any) -> Any:
        return (type(x).__name__, x.hex() if isinstance(x, float) else x)

    return bits(score.score), bits(score.num_edits), bits(score.ref_length), score.name


def to_streams(rows: list[list[Optional[str]]]) -> list[list[Optional[str]]]:
    """Per-segment references to sacrebleu's streams, padding short rows with None."""
    width = max(len(r) for r in rows)
    return [[r[k] if k < len(r) else None for r in rows] for k in range(width)]


@given(segment, options)
def test_sentence_ter(seg: tuple[str, list[str]], opts: dict) -> None:
    hyp, refs = seg
    expected = sacrebleu.sentence_ter(hyp, refs, **opts)
    ours = compat.sentence_ter(hyp, refs, **opts)
    assert fields(ours) == fields(expected)
    assert str(ours) == str(expected)
    (batch,) = ter([hyp], [refs], **opts)
    assert batch.hex() == (expected.score / 100).hex()


@settings(max_examples=max(20, settings().max_examples // 10))
@given(shuffled(), st.booleans())
def test_long_shuffled_sequences(pair: tuple[str, str], swap: bool) -> None:
    hyp, ref = pair[::-1] if swap else pair
    expected = sacrebleu.sentence_ter(hyp, [ref])
    assert fields(compat.sentence_ter(hyp, [ref])) == fields(expected)


@given(st.lists(segment, min_size=1, max_size=8), options)
def test_corpus_ter(segments: list[tuple[str, list[str]]], opts: dict) -> None:
    hyps = [h for h, _ in segments]
    rows = [r for _, r in segments]
    streams = to_streams(rows)
    metric = TER(**opts)
    expected = metric.corpus_score(hyps, streams)
    mine = compat.TER(**opts)
    assert fields(mine.corpus_score(hyps, streams)) == fields(expected)
    assert fields(compat.corpus_ter(hyps, streams, **opts)) == fields(expected)
    ours = corpus_ter(hyps, rows, **opts)
    assert (ours.score.hex(), ours.num_edits, ours.ref_length.hex()) == (
        (expected.score / 100).hex(),
        expected.num_edits,
        expected.ref_length.hex(),
    )
    assert ours.signature == metric.get_signature().format() == mine.get_signature().format()
    assert mine.get_signature().format(short=True) == metric.get_signature().format(short=True)


@given(st.lists(segment, min_size=1, max_size=10), options)
def test_sentence_batch(segments: list[tuple[str, list[str]]], opts: dict) -> None:
    hyps = [h for h, _ in segments]
    rows = [r for _, r in segments]
    metric = TER(**opts)
    expected = [(metric.sentence_score(h, r).score / 100).hex() for h, r in segments]
    assert [x.hex() for x in ter(hyps, rows, **opts).tolist()] == expected


@settings(max_examples=max(10, settings().max_examples // 10))
@given(st.lists(segment, min_size=16, max_size=40), st.lists(st.tuples(st.integers(0, 39), shuffled())), options)
def test_batches_with_heavy_rows_on_threads(segments: list[tuple[str, list[str]]],
                                            heavy: list[tuple[int, tuple[str, str]]], opts: dict) -> None:
    # Batches of 16 rows or more are shared with the pool's threads, which take the rows of long
    # shuffled segments first and one at a time; the scores must stay in row order, whatever the
    # thread count.
    for at, (hyp, ref) in heavy:
        segments.insert(min(at, len(segments)), (hyp, [ref]))
    hyps = [h for h, _ in segments]
    rows = [r for _, r in segments]
    metric = TER(**opts)
    expected = [(metric.sentence_score(h, r).score / 100).hex() for h, r in segments]
    total = metric.corpus_score(hyps, to_streams(rows))
    try:
        for threads in (1, 2, 3):
            rapideval.set_num_threads(threads)
            assert [x.hex() for x in ter(hyps, rows, **opts).tolist()] == expected, threads
            ours = corpus_ter(hyps, rows, **opts)
            assert (ours.num_edits, ours.ref_length.hex()) == (total.num_edits, total.ref_length.hex()), threads
    finally:
        rapideval.set_num_threads(0)


@given(prose_text, prose_text)
def test_real_prose(hyp: str, ref: str) -> None:
    for normalized in (False, True):
        expected = sacrebleu.sentence_ter(hyp, [ref], normalized=normalized)
        assert ter([hyp], [ref], normalized=normalized)[0].hex() == (expected.score / 100).hex()


#: The inputs of TRICKY.md.
TRICKY = [
    "can't", "won't", "'tis", "gonna", "cannot", "I'm", '"Hi," he said.', "“smart” ‘q’", "1,000,000.", "3.14",
    "$3.88 (10%)", "http://a.com/x?y=1&z=2", "user@example.com", "U.S.A.", "U.S.A. is big.", "e.g. this",
    "Mr. Smith", "A. B. Smith", "No. 5", "well--known e-mail", "a…b", "...", "!!!", "", "café naïve", "İstanbul",
    "straße", "\u212a", "x\xa0y", "Go home.\xa0Now. Fast", "line1\nline2 can't", "tab\there", "日本語です。",
    "Привет, мир!", "😀!", "x² ½", "&amp; &lt;", "<skipped>", "fs\x1cgs", "running happily", "generalizations",
    "John's dog's toy's", "&amp;quot; &AMP; x\n-y", "ひらがな カタカナ", "１，２．（３）",
]  # fmt: skip


@pytest.mark.parametrize("text", TRICKY)
@pytest.mark.parametrize("flags", range(16))
def test_tricky_inputs(text: str, flags: int) -> None:
    opts = dict(zip(["normalized", "no_punct", "asian_support", "case_sensitive"], [bool(flags >> k & 1) for k in range(4)]))
    for hyp, ref in [(text, text), (text, "the " + text + " x"), (text + " !", text.upper()), ("", text)]:
        expected = sacrebleu.sentence_ter(hyp, [ref], **opts)
        ours = compat.sentence_ter(hyp, [ref], **opts)
        assert fields(ours) == fields(expected)
        assert ours.format(width=4, signature="x:y") == expected.format(width=4, signature="x:y")
        assert ours.format(signature="nrefs:1|tok:tercom", is_json=True) == expected.format(
            signature="nrefs:1|tok:tercom", is_json=True
        )


@pytest.mark.parametrize("seed", range(4))
def test_candidate_limit_and_wide_beam(seed: int) -> None:
    """Long sequences over two or three words exhaust the 1000 evaluated shift candidates; very
    different lengths widen the beam."""
    rnd = random.Random(seed)
    words = [f"w{rnd.randrange(2 + seed % 2)}" for _ in range(90)]
    other = words[45:] + words[:45]
    edits, length = translation_edit_rate(other, words)
    assert compat.sentence_ter(" ".join(other), [" ".join(words)]).num_edits == edits
    short, long = words[: 1 + seed], [f"v{rnd.randrange(5)}" for _ in range(160)] + words
    expected = sacrebleu.sentence_ter(" ".join(short), [" ".join(long)])
    assert fields(compat.sentence_ter(" ".join(short), [" ".join(long)])) == fields(expected)
    expected = sacrebleu.sentence_ter(" ".join(long), [" ".join(short)])
    assert fields(compat.sentence_ter(" ".join(long), [" ".join(short)])) == fields(expected)


def test_none_in_reference_streams() -> None:
    hyps = ["the cat sat on the mat", "a dog ran", "x"]
    streams = [["the cat sat on a mat", "a dog ran fast", None], [None, "the dog ran", "y"]]
    metric, mine = TER(), compat.TER()
    assert fields(mine.corpus_score(hyps, streams)) == fields(metric.corpus_score(hyps, streams))
    assert str(mine.get_signature()) == str(metric.get_signature()) == (
        "nrefs:var|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0"
    )
    assert fields(compat.sentence_ter("x y", [None, "x y z"])) == fields(sacrebleu.sentence_ter("x y", [None, "x y z"]))


def test_cached_references() -> None:
    hyps = ["the cat sat", "on the mat"]
    streams = [["the cat sat down", "on a mat"]]
    ref = TER(references=streams, normalized=True)
    ours = compat.TER(references=streams, normalized=True)
    assert fields(ours.corpus_score(hyps, None)) == fields(ref.corpus_score(hyps, None))
    assert str(ours.get_signature()) == str(ref.get_signature())


def test_column_types() -> None:
    hyps, refs = ["the cat sat", "a dog"], ["the cat sat down", "dog"]
    expected = [sacrebleu.sentence_ter(h, [r]).score / 100 for h, r in zip(hyps, refs)]
    for make in (list, tuple, np.array, pa.array):
        assert ter(make(hyps), make(refs)).tolist() == expected
    assert corpus_ter(pa.array(hyps), pa.array([[r] for r in refs])).score == (
        sacrebleu.corpus_ter(hyps, [refs]).score / 100
    )


def test_huge_strings() -> None:
    """1 MB segments, which sacrebleu cannot finish (its shift search is quadratic in the length):
    known edit counts."""
    words = [f"w{i % 9973}" for i in range(170_000)]
    ref = " ".join(words)
    assert len(ref) > 1_000_000
    assert corpus_ter([ref], [ref]).num_edits == 0
    changed = list(words)
    changed[100], changed[90_000] = "x", "y"
    assert corpus_ter([" ".join(changed)], [ref]).num_edits == 2
    moved = words[:1000] + words[1010:1050] + words[1000:1010] + words[1050:]
    assert corpus_ter([" ".join(moved)], [ref]).num_edits == 1
    unrelated = " ".join(f"u{i % 7}" for i in range(170_000))
    assert corpus_ter([unrelated], [ref]).num_edits == 170_000


@pytest.mark.parametrize(
    ("responses", "references", "error", "where"),
    [*BAD_TEXT_COLUMNS, (["x", "y"], ["x", []], ValueError, "row 1: a segment has no reference")],
)
@pytest.mark.parametrize("fn", [ter, corpus_ter])
def test_bad_input(fn: Any, responses: Any, references: Any, error: type, where: str) -> None:
    with pytest.raises(error, match=re.escape(where)):
        fn(responses, references)


def test_compat_errors_like_sacrebleu() -> None:
    with pytest.raises(TypeError, match="TER: The argument `hyp` should be a string."):
        compat.sentence_ter(None, ["x"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        compat.sentence_ter("x", "x")
    with pytest.raises(TypeError, match="TER: Undefined line in hypotheses stream!"):
        compat.corpus_ter(["x", None], [["x", "y"]])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="Number of references unknown"):
        compat.TER().get_signature()
    with pytest.raises(ValueError, match="no reference"):
        compat.sentence_ter("x", [None])
