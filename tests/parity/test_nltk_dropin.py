"""Parity of ``rapideval.compat.nltk`` under nltk 3.10.4's module paths with nltk itself: the modules
``translate``, ``translate.bleu_score``, ``translate.gleu_score``, ``translate.meteor_score`` and
``tokenize`` hold nltk's public names with nltk's signatures, and each helper added there
(``modified_precision``, ``closest_ref_length``, ``brevity_penalty``, ``exact_match``, ``stem_match``,
``wordnetsyn_match``, ``align_words`` and the ``_enum_*`` / ``_count_chunks`` steps behind them, the
``bleu`` / ``gleu`` / ``meteor`` aliases, ``word_tokenize`` / ``sent_tokenize``) returns exactly what
nltk returns: same types, same values (floats bit for bit), same exceptions."""

from __future__ import annotations

import fractions
import inspect
import math
import pathlib
import sys
import warnings

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import nltk
import nltk.tokenize
import nltk.translate
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.corpus import wordnet
from nltk.stem.porter import PorterStemmer
from nltk.stem.snowball import SnowballStemmer
from nltk.translate import bleu_score as ref_bleu
from nltk.translate import gleu_score as ref_gleu
from nltk.translate import meteor_score as ref_meteor

import rapideval.compat.nltk as compat_nltk
from rapideval.compat.nltk import tokenize as ours_tokenize
from rapideval.compat.nltk import translate as ours_translate
from rapideval.compat.nltk.translate import bleu_score as ours_bleu
from rapideval.compat.nltk.translate import gleu_score as ours_gleu
from rapideval.compat.nltk.translate import meteor_score as ours_meteor
from strategies import PROSE, WORDS, overlapping_pairs, prose_text, texts

# ---------------------------------------------------------------- outcomes


def _key(value):
    """A comparable image of a result: its type and exact value, recursively; a Fraction also by its
    stored (unreduced) numerator and denominator."""
    if isinstance(value, fractions.Fraction):
        return (
            type(value).__qualname__,
            _key(value.numerator),
            _key(value.denominator),
            getattr(value, "_normalize", None),
            float(value).hex(),
            hash(value),
        )
    if isinstance(value, float):
        return ("float", "nan" if math.isnan(value) else value.hex())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_key(v) for v in value))
    return (type(value).__name__, value)


def _outcome(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = _key(fn(*args, **kwargs))
        except Exception as e:  # noqa: BLE001 - the exception is the compared outcome
            value = ("raise", type(e).__name__, str(e))
    return value, [(w.category.__name__, str(w.message)) for w in caught]


def _same(ref_fn, ours_fn, *args, **kwargs):
    want = _outcome(ref_fn, *args, **kwargs)
    assert _outcome(ours_fn, *args, **kwargs) == want, (args, kwargs)
    return want


# ---------------------------------------------------------------- module paths and signatures

MODULE_PAIRS = [
    (ref_bleu, ours_bleu),
    (ref_gleu, ours_gleu),
    (ref_meteor, ours_meteor),
]


def _public_defined(module):
    """The underscore-free functions and classes ``module`` defines itself."""
    return sorted(
        name for name, obj in vars(module).items()
        if not name.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
        and getattr(obj, "__module__", None) == module.__name__
    )


#: Parameters whose nltk default is an object (a PorterStemmer, nltk.corpus.wordnet): ours is None,
#: which stands for that object.
OBJECT_DEFAULTS = {"stemmer", "wordnet"}


def _signature_image(fn):
    params = inspect.signature(fn).parameters.values()
    return [(p.name, p.kind, "object" if p.name in OBJECT_DEFAULTS else repr(p.default)) for p in params]


@pytest.mark.parametrize(("ref_module", "ours_module"), MODULE_PAIRS, ids=lambda m: m.__name__)
def test_every_public_name_of_nltks_module_is_there(ref_module, ours_module):
    names = _public_defined(ref_module)
    assert names, ref_module
    assert [n for n in names if not hasattr(ours_module, n)] == []
    assert sorted(ours_module.__all__) == names
    for name in names:
        theirs, ours = getattr(ref_module, name), getattr(ours_module, name)
        if inspect.isclass(theirs):
            theirs, ours = theirs.__init__, ours.__init__
        assert _signature_image(ours) == _signature_image(theirs), name


def test_private_steps_have_nltks_signatures():
    for name in ["_generate_enums", "_match_enums", "_enum_stem_match", "_enum_wordnetsyn_match",
                 "_enum_align_words", "_count_chunks"]:
        assert _signature_image(getattr(ours_meteor, name)) == _signature_image(getattr(ref_meteor, name)), name
    for name in ["method%d" % i for i in range(8)]:
        theirs = [p.name for p in inspect.signature(getattr(ref_bleu.SmoothingFunction, name)).parameters.values()]
        ours = [p.name for p in inspect.signature(getattr(ours_bleu.SmoothingFunction, name)).parameters.values()]
        assert ours[:2] == theirs[:2], name


def test_translate_and_tokenize_names():
    assert ours_translate.bleu is ours_bleu.sentence_bleu and nltk.translate.bleu is ref_bleu.sentence_bleu
    assert ours_translate.gleu is ours_gleu.sentence_gleu and nltk.translate.gleu is ref_gleu.sentence_gleu
    assert ours_translate.meteor is ours_meteor.meteor_score and nltk.translate.meteor is ref_meteor.meteor_score
    assert (ours_translate.bleu_score, ours_translate.gleu_score, ours_translate.meteor_score) == (
        ours_bleu, ours_gleu, ours_meteor)
    import rapideval.compat.nltk.translate.bleu_score as by_path

    assert by_path is ours_bleu
    # The earlier flat names stay, as the same objects.
    assert compat_nltk.sentence_bleu is ours_bleu.sentence_bleu and compat_nltk.corpus_bleu is ours_bleu.corpus_bleu
    assert compat_nltk.SmoothingFunction is ours_bleu.SmoothingFunction
    assert compat_nltk.sentence_gleu is ours_gleu.sentence_gleu and compat_nltk.corpus_gleu is ours_gleu.corpus_gleu
    assert compat_nltk.meteor_score is ours_meteor.meteor_score
    assert compat_nltk.single_meteor_score is ours_meteor.single_meteor_score
    assert compat_nltk.word_tokenize is ours_tokenize.word_tokenize
    assert compat_nltk.sent_tokenize is ours_tokenize.sent_tokenize
    for name in ("word_tokenize", "sent_tokenize"):
        assert _signature_image(getattr(ours_tokenize, name)) == _signature_image(getattr(nltk.tokenize, name))


# ---------------------------------------------------------------- bleu_score helpers

#: Few distinct tokens, so that n-grams of every order match often; ints too (nltk takes any hashable).
small_tokens = st.lists(st.sampled_from(["a", "b", "c", "d", "A"]), max_size=12)
word_tokens = st.lists(st.sampled_from(WORDS[:12]), max_size=20)
text_tokens = texts.map(str.split)
int_tokens = st.lists(st.integers(0, 3), max_size=10)
#: str tokens: what sentence_bleu / sentence_gleu take (their kernels read str only).
token_lists = st.one_of(small_tokens, small_tokens, word_tokens, text_tokens)
# For the pure-Python helpers, a token list in any shape nltk iterates: a list, a tuple, a str (its
# characters), tokens of any hashable type.
token_seqs = st.one_of(token_lists, token_lists.map(tuple), int_tokens, st.text(alphabet="abcA ", max_size=8))
references = st.lists(token_seqs, min_size=0, max_size=4)
orders = st.integers(-1, 7)


@given(references, token_seqs, orders)
def test_modified_precision_matches_nltk(refs, hyp, n):
    value, _ = _same(ref_bleu.modified_precision, ours_bleu.modified_precision, refs, hyp, n)
    if value[0] != "raise":
        assert value[0] == "Fraction"


@given(overlapping_pairs, st.integers(1, 5))
def test_modified_precision_on_text_tokens(pair, n):
    hypothesis, reference = pair
    _same(ref_bleu.modified_precision, ours_bleu.modified_precision, [reference.split()], hypothesis.split(), n)


def test_modified_precision_keeps_the_fraction_unreduced():
    refs, hyp = [["a", "b"], ["a"]], ["a", "a", "b", "b"]
    got = ours_bleu.modified_precision(refs, hyp, 1)
    want = ref_bleu.modified_precision(refs, hyp, 1)
    assert (got.numerator, got.denominator) == (want.numerator, want.denominator) == (2, 4)
    assert isinstance(got, fractions.Fraction) and float(got) == 0.5
    # Equal to 1/2 or not as nltk's is (it is from Python 3.12 on, where Fraction always reduces).
    assert (got == fractions.Fraction(1, 2)) == (want == fractions.Fraction(1, 2))
    # Reduced on request, as nltk's.
    assert ours_bleu.Fraction(2, 4, _normalize=True).numerator == ref_bleu.Fraction(2, 4, _normalize=True).numerator


@given(references, st.one_of(st.integers(-3, 30), st.floats(-5, 40, allow_nan=False)))
def test_closest_ref_length_matches_nltk(refs, hyp_len):
    _same(ref_bleu.closest_ref_length, ours_bleu.closest_ref_length, refs, hyp_len)


lengths = st.one_of(st.integers(-5, 60), st.floats(-10, 100), st.sampled_from([0, 0.0, -0.0, 1, 1.0, float("inf")]))


@given(lengths, lengths)
def test_brevity_penalty_matches_nltk(closest_ref_len, hyp_len):
    _same(ref_bleu.brevity_penalty, ours_bleu.brevity_penalty, closest_ref_len, hyp_len)


@given(st.lists(st.tuples(st.lists(token_lists, min_size=1, max_size=3), token_lists), min_size=1, max_size=5))
def test_corpus_brevity_penalty_as_corpus_bleu_computes_it(segments):
    # The lengths corpus_bleu adds up, then the penalty of the sums: the helpers as nltk chains them.
    hyp_len = sum(len(h) for _, h in segments)
    ref_len_theirs = sum(ref_bleu.closest_ref_length(r, len(h)) for r, h in segments)
    ref_len_ours = sum(ours_bleu.closest_ref_length(r, len(h)) for r, h in segments)
    assert _key(ref_len_ours) == _key(ref_len_theirs)
    _same(ref_bleu.brevity_penalty, ours_bleu.brevity_penalty, ref_len_theirs, hyp_len)


def test_bleu_helpers_on_real_prose():
    lines = [line.split() for line in PROSE]
    for i, hyp in enumerate(lines):
        refs = [lines[(i + 1) % len(lines)], lines[(i + 7) % len(lines)], hyp[::-1]]
        for n in range(1, 6):
            _same(ref_bleu.modified_precision, ours_bleu.modified_precision, refs, hyp, n)
        closest = ours_bleu.closest_ref_length(refs, len(hyp))
        assert _key(closest) == _key(ref_bleu.closest_ref_length(refs, len(hyp)))
        _same(ref_bleu.brevity_penalty, ours_bleu.brevity_penalty, closest, len(hyp))


# ---------------------------------------------------------------- bleu, gleu and meteor under nltk's names

bleu_refs = st.lists(token_lists, min_size=1, max_size=3)


@given(bleu_refs, token_lists, st.integers(0, 7))
def test_translate_bleu_matches_nltk(refs, hyp, method):
    theirs = getattr(ref_bleu.SmoothingFunction(), f"method{method}")
    ours = getattr(ours_bleu.SmoothingFunction(), f"method{method}")
    assert _outcome(ours_translate.bleu, refs, hyp, smoothing_function=ours) == _outcome(
        nltk.translate.bleu, refs, hyp, smoothing_function=theirs)


@given(st.lists(token_lists, max_size=3), token_lists, st.integers(1, 4), st.integers(1, 5))
def test_translate_gleu_matches_nltk(refs, hyp, min_len, max_len):
    _same(nltk.translate.gleu, ours_translate.gleu, refs, hyp, min_len, max_len)
    _same(ref_gleu.corpus_gleu, ours_gleu.corpus_gleu, [refs], [hyp], min_len, max_len)


# ---------------------------------------------------------------- meteor_score helpers

#: Words whose Porter stems are WordNet synonyms of each other (and some that are not), inflected
#: forms, case variants: each of the three matching stages fires.
SYNONYM_WORDS = [
    "quick", "fast", "speedy", "rapid", "begin", "start", "commence", "sofa", "couch", "lounge", "large", "big",
    "car", "automobile", "auto", "movie", "film", "happy", "glad", "run", "running", "ran", "runs", "dog", "dogs",
    "hound", "Japan", "japan", "US", "us", "U.S.", "buy", "purchase", "bought", "house", "home", "the", "a", "The",
    "cat", "feline", "walk", "walked", "walking", "stroll", "ice_cream", "icecream", "well", "good", "better",
    "best", "Happily", "HAPPY", "generalizations", "general", "relational", "ponies", "skies", "dying",
]
meteor_words = st.lists(st.sampled_from(SYNONYM_WORDS + WORDS), max_size=14)
meteor_tokens = st.one_of(
    meteor_words,
    meteor_words,
    st.lists(st.sampled_from(["a", "b", "a", "c", "A", "fast", "quick", "Quick"]), max_size=10),
    texts.map(str.split),
    prose_text.map(str.split),
)


def _enums(words):
    return list(enumerate(words))


class UpperStemmer:
    """A stemmer that is not nltk's: four upper-cased letters."""

    def stem(self, word):
        return word[:4].upper()


class NounsOnly:
    """A wordnet that is not nltk's default object: its noun synsets only."""

    def synsets(self, word):
        return wordnet.synsets(word, pos="n")


STEMMERS = [None, PorterStemmer(), PorterStemmer(PorterStemmer.ORIGINAL_ALGORITHM), SnowballStemmer("english"),
            UpperStemmer()]
WORDNETS = [None, wordnet, NounsOnly()]


def _stemmer_kwargs(stemmer):
    return {} if stemmer is None else {"stemmer": stemmer}


def _wordnet_kwargs(wn):
    return {} if wn is None else {"wordnet": wn}


@given(meteor_tokens, meteor_tokens)
def test_exact_match_matches_nltk(hypothesis, reference):
    _same(ref_meteor.exact_match, ours_meteor.exact_match, hypothesis, reference)


@given(meteor_tokens, meteor_tokens, st.sampled_from(STEMMERS))
def test_stem_match_matches_nltk(hypothesis, reference, stemmer):
    kwargs = _stemmer_kwargs(stemmer)
    _same(ref_meteor.stem_match, ours_meteor.stem_match, hypothesis, reference, **kwargs)


@given(meteor_tokens, meteor_tokens, st.sampled_from(WORDNETS))
def test_wordnetsyn_match_matches_nltk(hypothesis, reference, wn):
    kwargs = _wordnet_kwargs(wn)
    _same(ref_meteor.wordnetsyn_match, ours_meteor.wordnetsyn_match, hypothesis, reference, **kwargs)


@given(meteor_tokens, meteor_tokens)
def test_align_words_matches_nltk(hypothesis, reference):
    value, _ = _same(ref_meteor.align_words, ours_meteor.align_words, hypothesis, reference)
    assert value[0] == "tuple"


@given(meteor_tokens, meteor_tokens, st.sampled_from(STEMMERS), st.sampled_from(WORDNETS))
def test_align_words_with_other_stemmers_and_wordnets(hypothesis, reference, stemmer, wn):
    kwargs = {**_stemmer_kwargs(stemmer), **_wordnet_kwargs(wn)}
    _same(ref_meteor.align_words, ours_meteor.align_words, hypothesis, reference, **kwargs)


@given(overlapping_pairs)
def test_align_words_on_text_tokens(pair):
    hypothesis, reference = pair
    _same(ref_meteor.align_words, ours_meteor.align_words, hypothesis.split(), reference.split())


@given(meteor_tokens, meteor_tokens)
def test_enum_steps_on_words_as_given(hypothesis, reference):
    # The private steps take (index, word) lists as they are: no lower-casing before stemming and the
    # WordNet look-up, which then see the words' case.
    h, r = _enums(hypothesis), _enums(reference)
    _same(ref_meteor._match_enums, ours_meteor._match_enums, h, r)
    _same(ref_meteor._enum_stem_match, ours_meteor._enum_stem_match, h, r)
    _same(ref_meteor._enum_wordnetsyn_match, ours_meteor._enum_wordnetsyn_match, h, r)
    _same(ref_meteor._enum_align_words, ours_meteor._enum_align_words, h, r)
    _same(ref_meteor._generate_enums, ours_meteor._generate_enums, hypothesis, reference)
    _same(ref_meteor._generate_enums, ours_meteor._generate_enums, hypothesis, reference, preprocess=str.upper)


@given(meteor_tokens, meteor_tokens)
def test_count_chunks_of_alignments(hypothesis, reference):
    matches, _, _ = ref_meteor.align_words(hypothesis, reference)
    _same(ref_meteor._count_chunks, ours_meteor._count_chunks, matches)


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=8))
def test_count_chunks_of_any_pairs(matches):
    _same(ref_meteor._count_chunks, ours_meteor._count_chunks, matches)


def test_meteor_helpers_type_errors():
    for fn in ("exact_match", "stem_match", "wordnetsyn_match", "align_words"):
        for args in (("a b", ["a"]), (["a"], "a b")):
            _same(getattr(ref_meteor, fn), getattr(ours_meteor, fn), *args)


def test_meteor_helpers_on_real_prose():
    lines = [line.split() for line in PROSE]
    for i, hyp in enumerate(lines):
        ref = lines[(i + 3) % len(lines)]
        for fn in ("exact_match", "stem_match", "wordnetsyn_match", "align_words"):
            _same(getattr(ref_meteor, fn), getattr(ours_meteor, fn), hyp, ref)
        _same(nltk.translate.meteor, ours_translate.meteor, [ref, lines[(i + 5) % len(lines)]], hyp)


@given(st.lists(meteor_tokens, min_size=0, max_size=3), meteor_tokens)
def test_translate_meteor_matches_nltk(references, hypothesis):
    _same(nltk.translate.meteor, ours_translate.meteor, references, hypothesis)


# ---------------------------------------------------------------- tokenize


@given(texts)
def test_tokenize_module_matches_nltk(text):
    _same(nltk.tokenize.word_tokenize, ours_tokenize.word_tokenize, text)
    _same(nltk.tokenize.sent_tokenize, ours_tokenize.sent_tokenize, text)


def test_tokenize_module_on_real_prose():
    for text in PROSE + ["\n".join(PROSE[:40])]:
        _same(nltk.tokenize.word_tokenize, ours_tokenize.word_tokenize, text)
        _same(nltk.tokenize.sent_tokenize, ours_tokenize.sent_tokenize, text)


def test_tokenize_module_refuses_what_it_does_not_reproduce():
    with pytest.raises(ValueError, match="english"):
        ours_tokenize.word_tokenize("Hallo Welt.", language="german")
    with pytest.raises(ValueError, match="preserve_line"):
        ours_tokenize.word_tokenize("a b. c", preserve_line=True)
    with pytest.raises(ValueError, match="english"):
        ours_tokenize.sent_tokenize("Hallo Welt.", language="german")
