"""Parity of rapideval's nltk BLEU (compat drop-in and batch API) with nltk 3.10.4 and with
promptflow-evals 0.3.5 ``BleuScoreEvaluator``: floats bit for bit, nltk's int ``0``, method0's
warnings and every exception nltk raises."""

from __future__ import annotations

import math
import pathlib
import random
import sys
import warnings

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate import bleu_score as ref
from promptflow.evals.evaluators import BleuScoreEvaluator

from rapideval.compat import nltk as ours
from rapideval.metrics.bleu import bleu
from strategies import WORDS, overlapping_pairs, texts

# ---------------------------------------------------------------- strategies

#: Few distinct tokens, so that n-grams of every order match often.
small_tokens = st.lists(st.sampled_from(["a", "b", "c", "d", "A"]), max_size=12)
word_tokens = st.lists(st.sampled_from(WORDS[:12]), max_size=20)
text_tokens = texts.map(str.split)
token_lists = st.one_of(small_tokens, small_tokens, word_tokens, text_tokens)

references = st.lists(token_lists, min_size=1, max_size=3)

weight_value = st.one_of(
    st.sampled_from([0.0, 0.25, 0.5, 1.0, 1 / 3, 0.1]),
    st.floats(min_value=0.0, max_value=1.0),
    st.integers(min_value=0, max_value=2),
)
one_weights = st.one_of(
    st.just((0.25, 0.25, 0.25, 0.25)),
    st.lists(weight_value, min_size=1, max_size=6).map(tuple),
)
weights = st.one_of(one_weights, one_weights, st.lists(one_weights, min_size=1, max_size=3))

epsilon = st.one_of(st.just(0.1), st.floats(min_value=0.0, max_value=2.0), st.integers(0, 3))
alpha = st.one_of(st.just(5), st.integers(-3, 10), st.floats(min_value=0.1, max_value=10.0))
k = st.one_of(st.just(5), st.integers(-3, 10), st.floats(min_value=0.1, max_value=10.0))
smoothing = st.tuples(st.integers(0, 7), epsilon, alpha, k)


# ---------------------------------------------------------------- comparison helpers


def _key(value):
    """A comparable image of a result: type and exact bits of every number."""
    if isinstance(value, list):
        return ("list", tuple(_key(v) for v in value))
    if isinstance(value, float):
        return ("float", "nan" if math.isnan(value) else value.hex())
    return (type(value).__name__, value)


def _outcome(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = _key(fn(*args, **kwargs))
        except Exception as e:  # noqa: BLE001 - the exception is the compared outcome
            value = ("raise", type(e).__name__, str(e))
    return value, [(w.category.__name__, str(w.message)) for w in caught]


def _smoothers(spec):
    method, eps, a, kk = spec
    name = f"method{method}"
    return (
        getattr(ref.SmoothingFunction(epsilon=eps, alpha=a, k=kk), name),
        getattr(ours.SmoothingFunction(epsilon=eps, alpha=a, k=kk), name),
    )


def _assert_same_sentence(refs, hyp, w, spec, auto_reweigh):
    theirs_sf, ours_sf = _smoothers(spec)
    want = _outcome(ref.sentence_bleu, refs, hyp, w, theirs_sf, auto_reweigh)
    got = _outcome(ours.sentence_bleu, refs, hyp, w, ours_sf, auto_reweigh)
    assert got == want, (refs, hyp, w, spec, auto_reweigh)


# ---------------------------------------------------------------- parity on token lists


@given(references, token_lists, weights, smoothing, st.booleans())
def test_sentence_bleu_matches_nltk(refs, hyp, w, spec, auto_reweigh):
    _assert_same_sentence(refs, hyp, w, spec, auto_reweigh)


@pytest.mark.parametrize("method", range(8))
@given(refs=references, hyp=token_lists, w=one_weights, auto_reweigh=st.booleans())
def test_sentence_bleu_each_method(method, refs, hyp, w, auto_reweigh):
    _assert_same_sentence(refs, hyp, w, (method, 0.1, 5, 5), auto_reweigh)


@given(overlapping_pairs, st.integers(0, 7))
def test_sentence_bleu_on_text_tokens(pair, method):
    response, reference = pair
    _assert_same_sentence([reference.split()], response.split(), (0.25, 0.25, 0.25, 0.25), (method, 0.1, 5, 5), False)


corpus = st.lists(st.tuples(references, token_lists), min_size=1, max_size=5)


@given(corpus, weights, smoothing, st.booleans())
def test_corpus_bleu_matches_nltk(segments, w, spec, auto_reweigh):
    list_of_references = [r for r, _ in segments]
    hypotheses = [h for _, h in segments]
    theirs_sf, ours_sf = _smoothers(spec)
    want = _outcome(ref.corpus_bleu, list_of_references, hypotheses, w, theirs_sf, auto_reweigh)
    got = _outcome(ours.corpus_bleu, list_of_references, hypotheses, w, ours_sf, auto_reweigh)
    assert got == want


@given(st.lists(st.tuples(st.lists(small_tokens, max_size=2), small_tokens), min_size=0, max_size=4), st.integers(0, 7))
def test_corpus_bleu_with_empty_reference_lists_and_empty_corpus(segments, method):
    list_of_references = [r for r, _ in segments]
    hypotheses = [h for _, h in segments]
    theirs_sf, ours_sf = _smoothers((method, 0.1, 5, 5))
    want = _outcome(ref.corpus_bleu, list_of_references, hypotheses, smoothing_function=theirs_sf)
    got = _outcome(ours.corpus_bleu, list_of_references, hypotheses, smoothing_function=ours_sf)
    assert got == want


def _large_corpus(segments, size, seed):
    """`size` segments (enough for the parallel path) varied from a few drawn ones: drawing 64+
    segments directly would make hypothesis spend its time generating data."""
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


@given(large_corpus, st.integers(0, 7))
def test_large_corpus_counted_in_parallel(segments, method):
    list_of_references = [r for r, _ in segments]
    hypotheses = [h for _, h in segments]
    theirs_sf, ours_sf = _smoothers((method, 0.1, 5, 5))
    assert _outcome(ours.corpus_bleu, list_of_references, hypotheses, smoothing_function=ours_sf) == _outcome(
        ref.corpus_bleu, list_of_references, hypotheses, smoothing_function=theirs_sf
    )


#: A corpus row in any shape nltk iterates: token lists or tuples, a str standing for its characters,
#: no references at all, a lone surrogate. Plain rows are read by the fast path; one other row in a
#: corpus sends the whole corpus down the general one.
corpus_token_list = st.one_of(token_lists, token_lists.map(tuple), st.text(max_size=6), st.just(["\ud800", "a"]))
odd_segment = st.tuples(st.one_of(references, st.lists(corpus_token_list, max_size=2).map(tuple)), corpus_token_list)


@given(st.lists(st.tuples(references, token_lists), max_size=6), st.lists(odd_segment, max_size=2), st.randoms(), st.integers(0, 7))
def test_corpus_bleu_of_mixed_row_shapes(plain, odd, rnd, method):
    segments = plain + odd
    rnd.shuffle(segments)
    list_of_references = [r for r, _ in segments]
    hypotheses = [h for _, h in segments]
    theirs_sf, ours_sf = _smoothers((method, 0.1, 5, 5))
    assert _outcome(ours.corpus_bleu, list_of_references, hypotheses, smoothing_function=ours_sf) == _outcome(
        ref.corpus_bleu, list_of_references, hypotheses, smoothing_function=theirs_sf
    )


@given(st.text(max_size=8), st.lists(st.text(max_size=8), min_size=1, max_size=2), st.integers(0, 7))
def test_strings_stand_for_their_characters(hyp, refs, method):
    # nltk iterates a str where it expects a token list; so do we.
    _assert_same_sentence(refs, hyp, (0.25, 0.25, 0.25, 0.25), (method, 0.1, 5, 5), False)


# ---------------------------------------------------------------- known values and edge cases


@pytest.mark.parametrize(
    ("refs", "hyp", "method", "expected"),
    [
        ([["a"]], ["a"], 4, 1.0),
        ([["a", "b", "c", "d", "e"]], ["a"], 4, 0.01831563888873418),
        ([list("abcdef")], list("abcdef"), 5, 1.1167470964180197),
        ([["a", "b"]], ["c", "d"], 4, 0),
        ([["a", "b"]], [], 7, 0),
        ([[]], ["a"], 1, 0),
    ],
)
def test_reference_values(refs, hyp, method, expected):
    got = ours.sentence_bleu(refs, hyp, smoothing_function=getattr(ours.SmoothingFunction(), f"method{method}"))
    assert _key(got) == _key(expected)
    assert _key(got) == _key(
        ref.sentence_bleu(refs, hyp, smoothing_function=getattr(ref.SmoothingFunction(), f"method{method}"))
    )


def test_method0_warns_like_nltk_and_stays_nonzero():
    refs, hyp = [["the", "cat", "sat"]], ["the", "dog"]
    with pytest.warns(UserWarning) as ours_warnings:
        got = ours.sentence_bleu(refs, hyp)
    with pytest.warns(UserWarning) as ref_warnings:
        want = ref.sentence_bleu(refs, hyp)
    assert got == want and 0 < got < 1e-200
    assert [str(w.message) for w in ours_warnings] == [str(w.message) for w in ref_warnings]
    assert len(ours_warnings) == 3


def test_method6_assertion_error():
    sf = ours.SmoothingFunction().method6
    with pytest.raises(AssertionError, match="requires non-zero precision for bigrams"):
        ours.sentence_bleu([["a", "b", "c"]], ["a", "b", "d"], smoothing_function=sf)
    with pytest.raises(IndexError):
        ours.sentence_bleu([["a", "b", "c"]], ["a", "b", "d"], weights=(0.5, 0.5), smoothing_function=sf)


def test_multiple_weights_return_a_list():
    refs, hyp = [["a", "b", "c", "d"]], ["a", "b", "c", "e"]
    w = [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3)]
    assert ours.sentence_bleu(refs, hyp, w) == ref.sentence_bleu(refs, hyp, w)
    assert ours.corpus_bleu([refs], [["x"]], w) == [0, 0]
    assert type(ours.sentence_bleu(refs, hyp, [(0.5, 0.5)])) is float


def test_nltk_smoothing_objects_are_accepted():
    refs, hyp = [["a", "b", "c", "d"]], ["a", "b", "x", "d"]
    sf = ref.SmoothingFunction(epsilon=0.3, k=2).method4
    assert ours.sentence_bleu(refs, hyp, smoothing_function=sf) == ref.sentence_bleu(refs, hyp, smoothing_function=sf)


def test_arbitrary_smoothing_callable_is_rejected():
    with pytest.raises(TypeError, match="smoothing_function"):
        ours.sentence_bleu([["a"]], ["a"], smoothing_function=lambda p_n, **kw: p_n)

    class Custom(ours.SmoothingFunction):
        def method4(self, p_n, *args, **kwargs):
            return p_n

    with pytest.raises(TypeError):
        ours.sentence_bleu([["a"]], ["a"], smoothing_function=Custom().method4)
    with pytest.raises(NotImplementedError):
        ours.SmoothingFunction().method4([])


def test_lone_surrogates_are_distinct_tokens():
    refs, hyp = [["\ud800", "\udc00", "x"]], ["\ud800", "x", "\udc00"]
    sf = (ref.SmoothingFunction().method1, ours.SmoothingFunction().method1)
    assert ours.sentence_bleu(refs, hyp, smoothing_function=sf[1]) == ref.sentence_bleu(
        refs, hyp, smoothing_function=sf[0]
    )


@pytest.mark.parametrize("bad", [None, 3, [["a", 1]]])
def test_bad_compat_input(bad):
    with pytest.raises(TypeError, match="list_of_references|expected"):
        ours.corpus_bleu([bad], [["a"]])


def test_compat_length_mismatch_is_an_assertion():
    with pytest.raises(AssertionError, match="should be the same"):
        ours.corpus_bleu([[["a"]]], [["a"], ["b"]])


# ---------------------------------------------------------------- batch API


def _nltk_row(response, refs, tokenize, method="method4", w=(0.25, 0.25, 0.25, 0.25)):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        score = ref.sentence_bleu(
            [tokenize(r) for r in refs],
            tokenize(response),
            w,
            smoothing_function=getattr(ref.SmoothingFunction(), method),
        )
    return float(score)


@given(st.lists(overlapping_pairs, max_size=8), st.sampled_from([f"method{i}" for i in range(6)]))
def test_batch_whitespace_matches_nltk(pairs, method):
    responses = [p[0] for p in pairs]
    refs = [p[1] for p in pairs]
    got = bleu(responses, refs, tokenizer="whitespace", smoothing=method)
    want = [_nltk_row(a, [b], str.split, method) for a, b in pairs]
    assert got.dtype == np.float64 and [x.hex() for x in got.tolist()] == [x.hex() for x in want]


@given(st.lists(st.tuples(texts, st.lists(texts, min_size=1, max_size=3)), max_size=6))
def test_batch_several_references(rows):
    got = bleu([r for r, _ in rows], [refs for _, refs in rows], tokenizer="whitespace")
    want = [_nltk_row(a, refs, str.split) for a, refs in rows]
    assert [x.hex() for x in got.tolist()] == [x.hex() for x in want]


@given(overlapping_pairs)
def test_batch_matches_promptflow_evaluator(pair):
    response, reference = pair
    want = BleuScoreEvaluator()(answer=response, ground_truth=reference)["bleu_score"]
    got = bleu([response], [reference])
    assert got[0].hex() == float(want).hex()


def test_batch_input_types_and_threads():
    responses = ["the cat sat on the mat", "a dog ran", ""]
    refs = ["the cat is on the mat", "the dog ran fast", "x"]
    base = bleu(responses, refs)
    assert np.array_equal(bleu(np.array(responses), np.array(refs)), base)
    assert np.array_equal(bleu(pa.array(responses), pa.array(refs)), base)
    assert np.array_equal(bleu(tuple(responses), [[r] for r in refs]), base)
    import rapideval

    before = rapideval.get_num_threads()
    try:
        rapideval.set_num_threads(1)
        assert np.array_equal(bleu(responses * 50, refs * 50), np.tile(base, 50))
    finally:
        rapideval.set_num_threads(before)


def test_batch_bad_input():
    with pytest.raises(TypeError, match=r"responses\[1\]"):
        bleu(["a", None], ["a", "b"])
    with pytest.raises(TypeError, match=r"references\[0\]"):
        bleu(["a"], [3])
    with pytest.raises(ValueError, match=r"responses\[0\]"):
        bleu(["\ud800"], ["a"])
    with pytest.raises(ValueError, match="rows"):
        bleu(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="row 0"):
        bleu(["a b c"], [[]])
    with pytest.raises(ValueError, match="row 0: This smoothing method requires"):
        bleu(["a b d"], ["a b c"], tokenizer="whitespace", smoothing="method6")
    with pytest.raises(ValueError, match="unknown smoothing"):
        bleu(["a"], ["a"], smoothing="method9")
    with pytest.raises(ValueError, match="unknown tokenizer"):
        bleu(["a"], ["a"], tokenizer="nope")


def test_batch_huge_string():
    big = "word " * 200_000
    assert bleu([big], [big], tokenizer="whitespace")[0] == 1.0


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
        want = BleuScoreEvaluator()(answer=response, ground_truth=reference)["bleu_score"]
        assert bleu([response], [reference])[0].hex() == float(want).hex()


# ---------------------------------------------------------------- pre-tokenised batch API (tokenizer=None)


def _reference_row(refs, flat):
    """One reference as a plain token list when `flat`, else the list of token lists."""
    return refs[0] if flat and len(refs) == 1 else refs


@given(st.lists(st.tuples(token_lists, references, st.booleans()), max_size=8), one_weights, smoothing, st.booleans())
def test_batch_tokens_matches_sentence_bleu(rows, w, spec, auto_reweigh):
    theirs_sf, ours_sf = _smoothers(spec)
    responses = [hyp for hyp, _, _ in rows]
    refs = [_reference_row(r, flat) for _, r, flat in rows]
    want = []
    for hyp, r, _ in rows:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want.append(float(ref.sentence_bleu(r, hyp, w, theirs_sf, auto_reweigh)))
            except Exception as e:  # noqa: BLE001 - the first failing row must be named
                want.append(e)
    failing = [i for i, x in enumerate(want) if isinstance(x, Exception)]
    if failing:
        with pytest.raises(ValueError, match=rf"row {failing[0]}\b"):
            bleu(responses, refs, tokenizer=None, weights=w, smoothing=ours_sf, auto_reweigh=auto_reweigh)
        return
    got = bleu(responses, refs, tokenizer=None, weights=w, smoothing=ours_sf, auto_reweigh=auto_reweigh)
    assert got.dtype == np.float64 and [x.hex() for x in got.tolist()] == [x.hex() for x in want]


@given(st.lists(overlapping_pairs, max_size=8))
def test_batch_tokens_on_text_tokens(pairs):
    responses = [a.split() for a, _ in pairs]
    refs = [b.split() for _, b in pairs]
    got = bleu(responses, refs, tokenizer=None)
    want = [_nltk_row(a, [b], str.split) for a, b in pairs]
    assert [x.hex() for x in got.tolist()] == [x.hex() for x in want]


class Token(str):
    """A str subclass: CPython keeps its characters outside the object (not compact)."""


#: Tokens of 0 to 9 characters in every storage CPython has: one byte per character (ASCII or
#: Latin-1), two, four; in the object (a plain str) or beside it (a subclass).
stored_tokens = st.tuples(st.text(alphabet="abé\u0113\U0001f600", max_size=9), st.booleans()).map(
    lambda t: Token(t[0]) if t[1] else t[0])


@given(st.lists(st.tuples(st.lists(stored_tokens, max_size=10), st.lists(stored_tokens, max_size=10)),
                min_size=1, max_size=24))
def test_batch_tokens_in_every_storage_form(rows):
    # Short tokens are keyed from their bytes as CPython stores them; equal strings must get equal
    # keys whatever their storage, and unequal ones different keys (rows of 16 or more: the pool).
    want = [_nltk_row_tokens(hyp, [r]) for hyp, r in rows]
    got = bleu([hyp for hyp, _ in rows], [r for _, r in rows], tokenizer=None)
    assert [x.hex() for x in got.tolist()] == [x.hex() for x in want]


def _nltk_row_tokens(hyp, refs):
    return float(ref.sentence_bleu(refs, hyp, smoothing_function=ref.SmoothingFunction().method4))


def test_batch_tokens_reference_rows():
    hyp = "the cat sat on the mat".split()
    one = "the cat is on the mat".split()
    two = "there is a cat on the mat".split()
    sf = ref.SmoothingFunction().method4
    single = float(ref.sentence_bleu([one], hyp, smoothing_function=sf))
    several = float(ref.sentence_bleu([one, two], hyp, smoothing_function=sf))
    got = bleu([hyp, tuple(hyp), hyp, hyp], [one, [one], [one, two], (tuple(one), two)], tokenizer=None)
    assert got.tolist() == [single, single, several, several]
    # An empty row is one empty reference.
    assert bleu([hyp], [[]], tokenizer=None).tolist() == [float(ref.sentence_bleu([[]], hyp))]
    import rapideval

    before = rapideval.get_num_threads()
    try:
        rapideval.set_num_threads(1)
        one_thread = bleu([hyp] * 300, [[one, two]] * 300, tokenizer=None)
    finally:
        rapideval.set_num_threads(before)
    assert np.array_equal(one_thread, bleu([hyp] * 300, [[one, two]] * 300, tokenizer=None))


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="legacy (not ready) strings exist before Python 3.12 only")
def test_batch_tokens_legacy_strings():
    """Strings made by the legacy C API are put in canonical form before they are read."""
    import ctypes

    def legacy(text):
        new = ctypes.pythonapi.PyUnicode_FromUnicode
        new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_ssize_t]
        buf = ctypes.pythonapi.PyUnicode_AsUnicode
        buf.restype, buf.argtypes = ctypes.POINTER(ctypes.c_wchar), [ctypes.py_object]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            out = new(None, len(text))
            chars = buf(out)
        for i, c in enumerate(text):
            chars[i] = c
        return out

    one = "the cat is on the mat".split()
    want = float(ref.sentence_bleu([one], "the cat sat on the mat".split(), smoothing_function=ref.SmoothingFunction().method4))
    for rows in (1, 100):
        hyp = ["the", legacy("cat"), "sat", legacy("on"), "the", "mat"]
        assert bleu([hyp] * rows, [one] * rows, tokenizer=None).tolist() == [want] * rows
    with pytest.raises(ValueError, match=r"references\[99\]\[0\]: string is not valid Unicode"):
        bleu([["a"]] * 100, [["a"]] * 99 + [[legacy("\ud800x")]], tokenizer=None)


def test_batch_tokens_bad_input():
    with pytest.raises(TypeError, match=r"responses\[0\]: expected a list of str tokens, got a str"):
        bleu(["a b"], [["a"]], tokenizer=None)
    with pytest.raises(TypeError, match=r"responses\[0\]\[1\]: expected str, got int"):
        bleu([["a", 1]], [["a"]], tokenizer=None)
    with pytest.raises(TypeError, match=r"references\[0\]\[1\]"):
        bleu([["a"]], [[["a"], "b"]], tokenizer=None)
    with pytest.raises(TypeError, match=r"references\[1\]"):
        bleu([["a"], ["b"]], [["a"], None], tokenizer=None)
    with pytest.raises(ValueError, match=r"references\[0\]\[0\]: string is not valid Unicode"):
        bleu([["a"]], [["\ud800"]], tokenizer=None)
    with pytest.raises(ValueError, match="rows"):
        bleu([["a"], ["b"]], [["a"]], tokenizer=None)
    with pytest.raises(ValueError, match="row 0: This smoothing method requires"):
        bleu([["a", "b", "d"]], [["a", "b", "c"]], tokenizer=None, smoothing="method6")
    big = ["word"] * 200_000
    assert bleu([big], [big], tokenizer=None)[0] == 1.0
