"""Parity of rapideval's nltk GLEU (compat drop-in and batch API) with nltk 3.10.4 and with
promptflow-evals 0.3.5 ``GleuScoreEvaluator``, floats bit for bit and nltk's exceptions."""

from __future__ import annotations

import math
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate import gleu_score as ref
from promptflow.evals.evaluators import GleuScoreEvaluator

from rapideval.compat import nltk as ours
from rapideval.metrics.gleu import gleu
from strategies import WORDS, overlapping_pairs, texts

small_tokens = st.lists(st.sampled_from(["a", "b", "c", "d", "A"]), max_size=12)
word_tokens = st.lists(st.sampled_from(WORDS[:12]), max_size=20)
text_tokens = texts.map(str.split)
token_lists = st.one_of(small_tokens, small_tokens, word_tokens, text_tokens)
references = st.lists(token_lists, min_size=0, max_size=3)
lengths = st.one_of(
    st.just((1, 4)),
    st.tuples(st.integers(1, 6), st.integers(1, 6)),
    st.tuples(st.integers(-4, 7), st.integers(-3, 8)),
)


def _outcome(fn, *args, **kwargs):
    try:
        value = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the exception is the compared outcome
        return ("raise", type(e).__name__, str(e))
    assert type(value) is float
    return ("float", "nan" if math.isnan(value) else value.hex())


@given(references, token_lists, lengths)
def test_sentence_gleu_matches_nltk(refs, hyp, minmax):
    min_len, max_len = minmax
    want = _outcome(ref.sentence_gleu, refs, hyp, min_len, max_len)
    assert _outcome(ours.sentence_gleu, refs, hyp, min_len, max_len) == want


@given(overlapping_pairs)
def test_sentence_gleu_on_text_tokens(pair):
    response, reference = pair
    refs, hyp = [reference.split()], response.split()
    assert _outcome(ours.sentence_gleu, refs, hyp) == _outcome(ref.sentence_gleu, refs, hyp)


@given(st.lists(st.tuples(references, token_lists), min_size=0, max_size=5), lengths)
def test_corpus_gleu_matches_nltk(segments, minmax):
    min_len, max_len = minmax
    list_of_references = [r for r, _ in segments]
    hypotheses = [h for _, h in segments]
    want = _outcome(ref.corpus_gleu, list_of_references, hypotheses, min_len, max_len)
    assert _outcome(ours.corpus_gleu, list_of_references, hypotheses, min_len, max_len) == want


def _large_corpus(segments, size, seed):
    """`size` segments (enough for the parallel path) varied from a few drawn ones."""
    rng = random.Random(seed)
    out = []
    for i in range(size):
        refs, hyp = segments[i % len(segments)]
        hyp = list(hyp)
        rng.shuffle(hyp)
        out.append((refs, hyp))
    return out


large_corpus = st.builds(
    _large_corpus, st.lists(st.tuples(references, token_lists), min_size=1, max_size=6), st.integers(64, 90), st.integers()
)


@given(large_corpus)
def test_large_corpus_scored_in_parallel(segments):
    list_of_references = [r for r, _ in segments]
    hypotheses = [h for _, h in segments]
    want = _outcome(ref.corpus_gleu, list_of_references, hypotheses)
    assert _outcome(ours.corpus_gleu, list_of_references, hypotheses) == want


#: A corpus row in any shape nltk iterates (see test_bleu.py): plain rows are read by the fast path;
#: one other row in a corpus sends the whole corpus down the general one.
corpus_token_list = st.one_of(token_lists, token_lists.map(tuple), st.text(max_size=6), st.just(["\ud800", "a"]))
odd_segment = st.tuples(st.one_of(references, st.lists(corpus_token_list, max_size=2).map(tuple)), corpus_token_list)


@given(st.lists(st.tuples(references, token_lists), max_size=6), st.lists(odd_segment, max_size=2), st.randoms(), lengths)
def test_corpus_gleu_of_mixed_row_shapes(plain, odd, rnd, minmax):
    segments = plain + odd
    rnd.shuffle(segments)
    list_of_references = [r for r, _ in segments]
    hypotheses = [h for _, h in segments]
    want = _outcome(ref.corpus_gleu, list_of_references, hypotheses, *minmax)
    assert _outcome(ours.corpus_gleu, list_of_references, hypotheses, *minmax) == want


@given(st.text(max_size=8), st.lists(st.text(max_size=8), max_size=2))
def test_strings_stand_for_their_characters(hyp, refs):
    assert _outcome(ours.sentence_gleu, refs, hyp) == _outcome(ref.sentence_gleu, refs, hyp)


def test_default_max_len_limit():
    long = [str(i) for i in range(300)]
    for max_len in (-1, -2):
        want = _outcome(ref.sentence_gleu, [long], long, 1, max_len)
        assert want[0] == "raise"
        assert _outcome(ours.sentence_gleu, [long], long, 1, max_len) == want
    assert _outcome(ours.sentence_gleu, [long[:5]], long[:5], 1, -1) == ("float", (1.0).hex())


def test_known_values():
    hyp = "the the the the the the the".split()
    refs = ["the cat is on the mat".split()]
    assert ours.sentence_gleu(refs, hyp) == ref.sentence_gleu(refs, hyp)
    assert ours.sentence_gleu([[]], []) == 0.0
    assert ours.sentence_gleu([], ["a"]) == 0.0
    with pytest.raises(AssertionError, match="should be the same"):
        ours.corpus_gleu([[["a"]]], [])
    with pytest.raises(TypeError):
        ours.sentence_gleu([["a"]], ["a"], min_len=1.5)


# ---------------------------------------------------------------- batch API


@given(st.lists(st.tuples(texts, st.lists(texts, min_size=0, max_size=3)), max_size=6), lengths)
def test_batch_whitespace_matches_nltk(rows, minmax):
    min_len, max_len = minmax
    if max_len < 0 and max_len != -1:
        max_len = 4
    got = gleu([r for r, _ in rows], [refs for _, refs in rows], tokenizer="whitespace", min_len=min_len, max_len=max_len)
    want = [ref.sentence_gleu([r.split() for r in refs], h.split(), min_len, max_len) for h, refs in rows]
    assert got.dtype == np.float64 and [x.hex() for x in got.tolist()] == [float(x).hex() for x in want]


@given(overlapping_pairs)
def test_batch_matches_promptflow_evaluator(pair):
    response, reference = pair
    want = GleuScoreEvaluator()(answer=response, ground_truth=reference)["gleu_score"]
    assert gleu([response], [reference])[0].hex() == float(want).hex()


def test_batch_bad_input():
    with pytest.raises(TypeError, match=r"responses\[0\]"):
        gleu([1], ["a"])
    with pytest.raises(ValueError, match=r"references\[0\]"):
        gleu(["a"], ["\ud800"])
    with pytest.raises(ValueError, match="rows"):
        gleu(["a"], [])
    with pytest.raises(ValueError, match="row 0: Indices for islice"):
        gleu(["a"], ["a"], max_len=-5)
    big = "word " * 200_000
    assert gleu([big], [big], tokenizer="whitespace")[0] == 1.0


#: Inputs of /work/shared/TRICKY.md whose tokens differ between tokenizers.
TRICKY = [
    "can't", "won't", "'tis", "gonna", '"Hi," he said.', "“smart” ‘q’", "1,000,000.", "$3.88 (10%)",
    "http://a.com/x?y=1&z=2", "U.S.A. is big.", "e.g. this", "A. B. Smith", "a…b", "café naïve", "İstanbul",
    "line1\nline2 can't", "tab\there", "日本語です。", "Привет, мир!", "😀!", "x² ½", "&amp; &lt;", "<skipped>",
    "fs\u001cgs", "Go home. Now. Fast", "",
]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_inputs_match_promptflow_evaluator(text):
    for response, reference in [(text, text), (text, text + " and more"), ("so " + text, text + " x")]:
        want = GleuScoreEvaluator()(answer=response, ground_truth=reference)["gleu_score"]
        assert gleu([response], [reference])[0].hex() == float(want).hex()


# ---------------------------------------------------------------- pre-tokenised batch API (tokenizer=None)


@given(st.lists(st.tuples(token_lists, st.lists(token_lists, min_size=1, max_size=3), st.booleans()), max_size=8), lengths)
def test_batch_tokens_matches_sentence_gleu(rows, minmax):
    min_len, max_len = minmax
    responses = [hyp for hyp, _, _ in rows]
    refs = [r[0] if flat and len(r) == 1 else r for _, r, flat in rows]
    want = [_outcome(ref.sentence_gleu, r, hyp, min_len, max_len) for hyp, r, _ in rows]
    failing = [i for i, x in enumerate(want) if x[0] == "raise"]
    if failing:
        with pytest.raises(ValueError, match=rf"row {failing[0]}\b"):
            gleu(responses, refs, tokenizer=None, min_len=min_len, max_len=max_len)
        return
    got = gleu(responses, refs, tokenizer=None, min_len=min_len, max_len=max_len)
    assert got.dtype == np.float64 and [("float", x.hex()) for x in got.tolist()] == want


@given(st.lists(overlapping_pairs, max_size=8))
def test_batch_tokens_on_text_tokens(pairs):
    got = gleu([a.split() for a, _ in pairs], [b.split() for _, b in pairs], tokenizer=None)
    want = [ref.sentence_gleu([b.split()], a.split()) for a, b in pairs]
    assert [x.hex() for x in got.tolist()] == [x.hex() for x in want]


def test_batch_tokens_reference_rows_and_bad_input():
    hyp = "the cat sat on the mat".split()
    one = "the cat is on the mat".split()
    two = "there is a cat on the mat".split()
    got = gleu([hyp, hyp, hyp], [one, [one], (one, two)], tokenizer=None)
    assert got.tolist() == [ref.sentence_gleu([one], hyp)] * 2 + [ref.sentence_gleu([one, two], hyp)]
    assert gleu([hyp], [[]], tokenizer=None).tolist() == [ref.sentence_gleu([[]], hyp)]
    with pytest.raises(TypeError, match=r"responses\[0\]: expected a list of str tokens"):
        gleu(["a"], [["a"]], tokenizer=None)
    with pytest.raises(TypeError, match=r"references\[0\]\[0\]: expected str, got NoneType"):
        gleu([["a"]], [[None]], tokenizer=None)
    with pytest.raises(ValueError, match="row 0: Indices for islice"):
        gleu([["a"]], [["a"]], tokenizer=None, max_len=-5)
