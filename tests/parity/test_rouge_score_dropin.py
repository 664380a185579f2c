"""Parity of the rouge-score 0.1.2 module helpers in ``rapideval.compat.rouge_score`` with rouge-score
itself: ``tokenize.tokenize`` (every kind of ``stemmer``, ``str`` and ``bytes`` text) and the regex
constants of its module, and ``rouge_scorer``'s ``_create_ngrams``, ``_score_ngrams``, ``_score_lcs``,
``_summary_level_lcs``, ``_lcs_table``, ``_backtrack_norec``, ``lcs_ind``, ``_find_union`` and
``_union_lcs``: same types (``Score`` tuples, rouge-score's int zeros, ``Counter``), same values
(floats bit for bit), same exceptions."""

from __future__ import annotations

import collections
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer
from nltk.stem.snowball import SnowballStemmer
from rouge_score import rouge_scorer as ref
from rouge_score import tokenize as ref_tokenize

from rapideval.compat import rouge_score as compat_rouge
from rapideval.compat.rouge_score import rouge_scorer as ours
from rapideval.compat.rouge_score import tokenize as ours_tokenize
from strategies import PROSE, WORDS, overlapping_pairs, prose_text, texts

# ---------------------------------------------------------------- outcomes


def _key(value):
    """A comparable image of a result: type and exact value, recursively (a Score's class name and
    fields, a Counter's items)."""
    if isinstance(value, float):
        return ("float", "nan" if math.isnan(value) else value.hex())
    if isinstance(value, collections.Counter):
        return ("Counter", tuple((_key(k), _key(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_key(v) for v in value))
    return (type(value).__name__, value)


def _outcome(fn, *args):
    try:
        return _key(fn(*args))
    except Exception as e:  # noqa: BLE001 - the exception is the compared outcome
        return ("raise", type(e).__name__, str(e))


def _same(ref_fn, ours_fn, *args):
    want = _outcome(ref_fn, *args)
    assert _outcome(ours_fn, *args) == want, args
    return want


# ---------------------------------------------------------------- tokenize


def test_module_and_constants():
    assert compat_rouge.tokenize is ours_tokenize
    for name in ("NON_ALPHANUM_PATTERN", "SPACES_PATTERN", "VALID_TOKEN_PATTERN"):
        assert getattr(ours_tokenize, name) == getattr(ref_tokenize, name)
    for name in ("NON_ALPHANUM_RE", "SPACES_RE", "VALID_TOKEN_RE"):
        theirs, mine = getattr(ref_tokenize, name), getattr(ours_tokenize, name)
        assert (mine.pattern, mine.flags) == (theirs.pattern, theirs.flags)


class UpperStemmer:
    """Stems that are no longer tokens: dropped by the final check."""

    def stem(self, word):
        return word[:3].upper() + word[3:]


class ByteStemmer:
    """Stems as bytes (rouge-score decodes them with six.ensure_str); some with a final newline,
    which VALID_TOKEN_RE's ``$`` lets through."""

    def stem(self, word):
        return (word[:4] + ("\n" if len(word) % 2 else "")).encode()


class Falsy:
    """A stemmer that is false: rouge-score then does not stem."""

    def __bool__(self):
        return False

    def stem(self, word):
        raise AssertionError("not called")


STEMMERS = [None, False, 0, "", Falsy(), PorterStemmer(), PorterStemmer(PorterStemmer.ORIGINAL_ALGORITHM),
            SnowballStemmer("english"), UpperStemmer(), ByteStemmer()]
STEM_WORDS = ["running", "runs", "ran", "happily", "happiness", "generalizations", "general", "relational",
              "conditional", "ponies", "caresses", "agreed", "hopping", "controlling", "skies", "dying", "The", "A"]
stem_text = st.lists(st.sampled_from(STEM_WORDS + WORDS + ["", ".", "!", "\n", "İx", "K9"]), max_size=14).map(" ".join)
rouge_texts = st.one_of(texts, stem_text, prose_text)


@given(rouge_texts, st.sampled_from(STEMMERS))
def test_tokenize_matches_rouge_score(text, stemmer):
    _same(ref_tokenize.tokenize, ours_tokenize.tokenize, text, stemmer)


@given(rouge_texts, st.sampled_from([None, PorterStemmer(), SnowballStemmer("english")]))
def test_tokenize_of_bytes_matches_rouge_score(text, stemmer):
    # rouge-score lower-cases bytes in ASCII only: "İ" or the Kelvin sign stay separators.
    _same(ref_tokenize.tokenize, ours_tokenize.tokenize, text.encode("utf-8"), stemmer)


def test_tokenize_on_real_prose():
    for text in PROSE:
        for stemmer in (None, PorterStemmer(), SnowballStemmer("english")):
            _same(ref_tokenize.tokenize, ours_tokenize.tokenize, text, stemmer)


def test_tokenize_bad_input():
    with pytest.raises(TypeError):
        ours_tokenize.tokenize(3, None)
    with pytest.raises(UnicodeDecodeError):
        ours_tokenize.tokenize(b"\xff", None)
    with pytest.raises(TypeError, match="not expecting type"):
        ours_tokenize.tokenize("generalizations", type("S", (), {"stem": lambda self, w: 3})())


# ---------------------------------------------------------------- rouge_scorer helpers

small_tokens = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=12)
int_tokens = st.lists(st.integers(0, 4), max_size=12)
text_tokens = rouge_texts.map(lambda t: ref_tokenize.tokenize(t, None))
word_tokens = st.lists(st.sampled_from(WORDS[:10]), max_size=25)
tokens = st.one_of(small_tokens, small_tokens, int_tokens, text_tokens, word_tokens)
sentences = st.lists(st.one_of(small_tokens, int_tokens, word_tokens, st.just([])), max_size=5)
orders = st.integers(-1, 6)


@given(tokens, orders)
def test_create_ngrams_matches_rouge_score(toks, n):
    _same(ref._create_ngrams, ours._create_ngrams, toks, n)


@given(tokens, tokens, st.integers(1, 5))
def test_score_ngrams_of_created_ngrams(target, prediction, n):
    target_ngrams, prediction_ngrams = ref._create_ngrams(target, n), ref._create_ngrams(prediction, n)
    want = _same(ref._score_ngrams, ours._score_ngrams, target_ngrams, prediction_ngrams)
    assert want[0] == "Score"


ngram_keys = st.one_of(st.tuples(st.sampled_from("abc")), st.tuples(st.sampled_from("abc"), st.sampled_from("ab")))
counters = st.dictionaries(ngram_keys, st.integers(0, 6), max_size=6).map(collections.Counter)


@given(counters, counters)
def test_score_ngrams_of_any_counts(target, prediction):
    _same(ref._score_ngrams, ours._score_ngrams, target, prediction)


def test_score_ngrams_refuses_counts_it_cannot_expand():
    # rouge-score computes with negative or fractional counts; the kernel counts occurrences.
    with pytest.raises(ValueError, match="negative"):
        ours._score_ngrams(collections.Counter({("a",): -1}), collections.Counter({("a",): 1}))
    with pytest.raises(TypeError):
        ours._score_ngrams(collections.Counter({("a",): 0.5}), collections.Counter({("a",): 1}))


@given(tokens, tokens)
def test_score_lcs_matches_rouge_score(target, prediction):
    _same(ref._score_lcs, ours._score_lcs, target, prediction)


@given(overlapping_pairs, st.booleans())
def test_score_lcs_and_ngrams_on_text(pair, stem):
    stemmer = PorterStemmer() if stem else None
    target, prediction = (ref_tokenize.tokenize(t, stemmer) for t in pair)
    _same(ref._score_lcs, ours._score_lcs, target, prediction)
    for n in (1, 2, 3):
        _same(ref._score_ngrams, ours._score_ngrams, ref._create_ngrams(target, n), ref._create_ngrams(prediction, n))


@given(sentences, sentences)
def test_summary_level_lcs_matches_rouge_score(ref_sents, can_sents):
    _same(ref._summary_level_lcs, ours._summary_level_lcs, ref_sents, can_sents)


@given(overlapping_pairs)
def test_summary_level_lcs_on_text_lines(pair):
    target, prediction = ([ref_tokenize.tokenize(s, None) for s in t.split("\n") if s] for t in pair)
    _same(ref._summary_level_lcs, ours._summary_level_lcs, target, prediction)


@given(tokens, tokens)
def test_lcs_table_and_backtrack_match_rouge_score(r, c):
    _same(ref._lcs_table, ours._lcs_table, r, c)
    table = ref._lcs_table(r, c)
    _same(ref._backtrack_norec, ours._backtrack_norec, table, r, c)
    _same(ref.lcs_ind, ours.lcs_ind, r, c)


@given(tokens, sentences)
def test_union_lcs_matches_rouge_score(r, c_list):
    _same(ref._union_lcs, ours._union_lcs, r, c_list)
    _same(ref._find_union, ours._find_union, [ref.lcs_ind(r, c) for c in c_list])


@given(st.lists(st.lists(st.integers(0, 9), max_size=6), max_size=4))
def test_find_union_matches_rouge_score(lcs_list):
    _same(ref._find_union, ours._find_union, lcs_list)


def test_helpers_on_real_prose():
    lines = [ref_tokenize.tokenize(line, PorterStemmer()) for line in PROSE]
    for i, target in enumerate(lines):
        prediction = lines[(i + 1) % len(lines)] + target[::2]
        _same(ref._score_lcs, ours._score_lcs, target, prediction)
        for n in (1, 2, 4):
            ngrams = ref._create_ngrams(target, n), ref._create_ngrams(prediction, n)
            _same(ref._score_ngrams, ours._score_ngrams, *ngrams)
        summary = [lines[(i + k) % len(lines)] for k in range(3)]
        _same(ref._summary_level_lcs, ours._summary_level_lcs, [target, prediction], summary)
        _same(ref._union_lcs, ours._union_lcs, target, summary)


def test_str_enum_rouge_types_as_rouge_score_takes_them() -> None:
    """promptflow passes its RougeType (a str Enum) to RougeScorer; rouge-score takes it by value."""
    import enum

    from rapideval.compat.rouge_score import rouge_scorer as ours
    from rouge_score import rouge_scorer as theirs

    Kind = enum.Enum("Kind", {"ROUGE_L": "rougeL", "ROUGE_LSUM": "rougeLsum", "ROUGE_2": "rouge2"}, type=str)
    types = list(Kind)
    assert ours.RougeScorer(types).score("a b c\nd e", "a b d\ne") == theirs.RougeScorer(types).score(
        "a b c\nd e", "a b d\ne"
    )
