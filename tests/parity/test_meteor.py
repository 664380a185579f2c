"""Parity of rapideval's METEOR with nltk 3.10.4 (compat ``single_meteor_score`` / ``meteor_score`` on
token lists, every WordNet look-up) and promptflow-evals 0.3.5 ``MeteorScoreEvaluator`` (batch API on
texts): floats bit for bit, nltk's exceptions."""

from __future__ import annotations

import math
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.corpus import wordnet
from nltk.stem.porter import PorterStemmer
from nltk.stem.snowball import SnowballStemmer
from nltk.translate import meteor_score as ref
from promptflow.evals.evaluators import MeteorScoreEvaluator

from rapideval.compat.nltk.translate import meteor_score as ours
import rapideval
from rapideval.metrics.meteor import forget_words, meteor, wordnet_license, wordnet_synonyms
from strategies import WORDS, overlapping_pairs, texts

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORDNET = pathlib.Path(os.environ["NLTK_DATA"]) / "corpora" / "wordnet"

#: Words whose Porter stems are WordNet synonyms of each other (and some that are not), inflected
#: forms, case variants: every alignment stage fires.
SYNONYM_WORDS = [
    "quick", "fast", "speedy", "rapid", "begin", "start", "commence", "sofa", "couch", "lounge", "large", "big",
    "car", "automobile", "movie", "film", "happy", "glad", "run", "running", "ran", "runs", "dog", "dogs", "hound",
    "Japan", "japan", "US", "us", "U.S.", "buy", "purchase", "bought", "house", "home", "the", "a", "The", "cat",
    "feline", "walk", "walked", "walking", "stroll", "ice_cream", "icecream", "well", "good", "better", "best",
]
vocab = st.sampled_from(SYNONYM_WORDS + WORDS)
token_lists = st.one_of(
    st.lists(vocab, max_size=14),
    st.lists(st.sampled_from(["a", "b", "a", "c", "A", "fast", "quick"]), max_size=10),
    texts.map(str.split),
)
weights = st.one_of(
    st.just((0.9, 3.0, 0.5)),
    st.tuples(st.floats(0, 1), st.floats(0, 6), st.floats(0, 1)),
    st.tuples(st.sampled_from([0.0, 1.0, 2.0, -1.0, 0.5]), st.sampled_from([0.0, 1.0, 3.0, 0.5, 100.0]),
              st.sampled_from([0.0, 0.5, 1.0, 2.0])),
)


def _outcome(fn, *args, **kwargs):
    try:
        value = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the exception is the compared outcome
        return ("raise", type(e).__name__, str(e))
    assert type(value) is float
    return ("float", "nan" if math.isnan(value) else value.hex())


@given(token_lists, token_lists, weights)
def test_single_meteor_score_matches_nltk(reference, hypothesis, w):
    alpha, beta, gamma = w
    want = _outcome(ref.single_meteor_score, reference, hypothesis, alpha=alpha, beta=beta, gamma=gamma)
    assert _outcome(ours.single_meteor_score, reference, hypothesis, alpha=alpha, beta=beta, gamma=gamma) == want


@given(st.lists(token_lists, min_size=1, max_size=4), token_lists)
def test_meteor_score_matches_nltk(references, hypothesis):
    assert _outcome(ours.meteor_score, references, hypothesis) == _outcome(ref.meteor_score, references, hypothesis)


@given(overlapping_pairs)
def test_on_whitespace_tokens_of_text(pair):
    hypothesis, reference = pair[0].split(), pair[1].split()
    want = _outcome(ref.single_meteor_score, reference, hypothesis)
    assert _outcome(ours.single_meteor_score, reference, hypothesis) == want


@given(overlapping_pairs)
def test_promptflow_meteor_evaluator(pair):
    answer, ground_truth = pair
    want = MeteorScoreEvaluator()(answer=answer, ground_truth=ground_truth)["meteor_score"]
    got = meteor([answer], [ground_truth])
    assert got.dtype == np.float64 and got[0].hex() == float(want).hex()


@given(st.lists(st.tuples(texts, st.lists(texts, min_size=1, max_size=3)), max_size=30), weights)
def test_batch_matches_nltk_on_promptflow_tokens(rows, w):
    from promptflow.evals._common.utils import nltk_tokenize

    alpha, beta, gamma = w
    responses = [r for r, _ in rows]
    references = [refs if len(refs) > 1 else refs[0] for _, refs in rows]
    want = [
        _outcome(ref.meteor_score, [nltk_tokenize(x) for x in refs], nltk_tokenize(resp), alpha=alpha, beta=beta, gamma=gamma)
        for resp, refs in rows
    ]
    if any(o[0] == "raise" for o in want):
        with pytest.raises(ValueError):
            meteor(responses, references, alpha, beta, gamma)
        return
    got = meteor(responses, references, alpha, beta, gamma)
    assert [("float", "nan" if math.isnan(v) else float(v).hex()) for v in got] == want


@given(st.lists(st.tuples(token_lists, st.lists(token_lists, min_size=1, max_size=3)), min_size=1, max_size=40))
def test_batch_on_whitespace_tokens_matches_nltk_row_by_row(rows):
    # Many rows in one call share one memo of stems and synonyms per worker: it must never leak a
    # value from one word or row into another (case variants, repeats, words seen earlier).
    responses = [" ".join(h) for h, _ in rows]
    references = [[" ".join(r) for r in refs] for _, refs in rows]
    want = [_outcome(ref.meteor_score, [r.split() for r in refs], resp.split()) for resp, refs in zip(responses, references)]
    got = meteor(responses, references, tokenizer="whitespace")
    assert [("float", "nan" if math.isnan(v) else float(v).hex()) for v in got] == want


class UpperStemmer:
    def stem(self, word):
        return word[:4]


@given(token_lists, token_lists)
def test_custom_preprocess_stemmer_and_wordnet(reference, hypothesis):
    for kwargs in (
        {"preprocess": str.upper},
        {"preprocess": lambda w: w},
        {"stemmer": SnowballStemmer("english")},
        {"stemmer": UpperStemmer()},
        {"stemmer": PorterStemmer(PorterStemmer.ORIGINAL_ALGORITHM)},
        {"stemmer": PorterStemmer()},
        {"wordnet": wordnet},
    ):
        want = _outcome(ref.single_meteor_score, reference, hypothesis, **kwargs)
        assert _outcome(ours.single_meteor_score, reference, hypothesis, **kwargs) == want, kwargs


@given(st.lists(token_lists, min_size=1, max_size=3), token_lists)
def test_meteor_score_with_several_references_and_custom_stemmer(references, hypothesis):
    # The hypothesis is numbered once and compared with each reference under the same options.
    for kwargs in ({"preprocess": str.upper}, {"stemmer": UpperStemmer()}, {"wordnet": wordnet}, {}):
        want = _outcome(ref.meteor_score, references, hypothesis, **kwargs)
        assert _outcome(ours.meteor_score, references, hypothesis, **kwargs) == want, kwargs


small_token_lists = st.lists(st.sampled_from(SYNONYM_WORDS[:24]), max_size=10)


@given(st.lists(st.tuples(small_token_lists, small_token_lists, st.integers(0, 3)), min_size=2, max_size=8))
def test_calls_in_a_loop_with_changing_options(calls):
    # One-pair calls share what the scorer remembers of words from call to call, whatever their
    # options: a remembered stem or synonym must never leak into a call that computes its own.
    options = [{}, {"stemmer": UpperStemmer()}, {"preprocess": lambda w: w}, {"stemmer": SnowballStemmer("english")}]
    for reference, hypothesis, choice in calls:
        kwargs = options[choice]
        want = _outcome(ref.single_meteor_score, reference, hypothesis, **kwargs)
        assert _outcome(ours.single_meteor_score, reference, hypothesis, **kwargs) == want, kwargs


@given(st.lists(st.tuples(st.lists(st.tuples(small_token_lists, small_token_lists), min_size=1, max_size=20),
                          st.sampled_from(["calling thread", "pool", "one pair", "forget"])), min_size=2, max_size=6))
def test_words_remembered_from_call_to_call(calls):
    # Each thread keeps the words it learnt from one batch call to the next and shares them with the
    # one-pair drop-in; `forget_words` empties that memory. A remembered word must never change a
    # score, whichever thread learnt it and whatever it scores next.
    for rows, how in calls:
        if how == "forget":
            forget_words()
        rapideval.set_num_threads(2 if how == "pool" else 1)
        want = [_outcome(ref.single_meteor_score, r, h) for h, r in rows]
        if how == "one pair":
            got = [_outcome(ours.single_meteor_score, r, h) for h, r in rows]
        else:
            # 16 rows or more: a 2-thread pool scores them (fewer run on the calling thread).
            values = meteor([" ".join(h) for h, _ in rows], [" ".join(r) for _, r in rows], tokenizer="whitespace")
            got = [("float", v.hex()) for v in map(float, values)]
        assert got == want, how
    rapideval.set_num_threads(0)


def test_custom_wordnet_object():
    class Lemma:
        def __init__(self, name):
            self._name = name

        def name(self):
            return self._name

    class Synset:
        def __init__(self, names):
            self._names = names

        def lemmas(self):
            return [Lemma(n) for n in self._names]

    class TinyWordNet:
        def synsets(self, word):
            return [Synset(["fast", "quick", "rapid_fire"])] if word in ("fast", "quick", "rapid") else []

    for hyp, reference in ((["quick", "dog"], ["fast", "dog"]), (["rapid"], ["rapid_fire"]), (["rapid"], ["quick"])):
        want = _outcome(ref.single_meteor_score, reference, hyp, wordnet=TinyWordNet())
        assert _outcome(ours.single_meteor_score, reference, hyp, wordnet=TinyWordNet()) == want


def _wordnet_words() -> list[str]:
    words: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        with open(WORDNET / f"index.{pos}", encoding="ascii") as f:
            words.update(line.split()[0] for line in f if not line.startswith(" "))
        with open(WORDNET / f"{pos}.exc", encoding="ascii") as f:
            for line in f:
                words.update(line.split())
    return sorted(words)


def _nltk_synonyms(word: str) -> list[str]:
    return sorted({lemma.name() for s in wordnet.synsets(word) for lemma in s.lemmas() if "_" not in lemma.name()})


def test_every_wordnet_lemma_and_exception_form_has_nltks_synonyms():
    words = _wordnet_words()
    assert len(words) > 150_000
    # Inflections reach the detachment rules; capitals check the lower-casing of the look-up.
    words += [w + s for w in words[::13] for s in ("s", "es", "ing", "ed", "er", "est", "men", "ies", "ches")]
    words += [w.capitalize() for w in words[::17]]
    from rapideval import _core

    ours_syn = _core.wordnet_synonyms(words)
    mismatches = [(w, o) for w, o in zip(words, ours_syn) if o != _nltk_synonyms(w)]
    assert mismatches == []


@given(st.one_of(st.sampled_from(SYNONYM_WORDS), texts, st.text(alphabet="abcdeimnorsty_-'.", max_size=10)))
def test_wordnet_synonyms_of_any_string(word):
    assert wordnet_synonyms(word) == _nltk_synonyms(word)


def test_tricky_inputs():
    cases = [
        ([], []), (["a"], []), ([], ["a"]), (["a"], ["a"]), (list("abcdef"), list("abcdef")),
        (["İstanbul"], ["i̇stanbul"]), (["\u212a"], ["k"]), (["ΣΑΣ"], ["σας"]), (["large"], ["big"]),
        (["quick", "brown"], ["fast", "brown"]), (["the"] * 7, "the cat sat on the mat".split()),
        (["U.S.A."], ["u.s.a."]), (["can't"], ["ca", "n't"]), ([""], [""]), (["", ""], [""]),
    ]
    for hypothesis, reference in cases:
        for args in ((reference, hypothesis), (hypothesis, reference)):
            assert _outcome(ours.single_meteor_score, *args) == _outcome(ref.single_meteor_score, *args)
    assert ours.single_meteor_score(["a"], ["a"]) == 0.5
    assert ours.single_meteor_score(list("abcdef"), list("abcdef")) == 0.9976851851851852


def test_errors_match_nltk():
    for args in (("a b", ["a"]), (["a"], "a b")):
        assert _outcome(ours.single_meteor_score, *args) == _outcome(ref.single_meteor_score, *args)
    for args in (([], ["a"]), (["a b"], ["a"]), ([["a"]], "a"), ([["a"], "b"], ["a"])):
        assert _outcome(ours.meteor_score, *args) == _outcome(ref.meteor_score, *args)
    # float ** float overflow: nltk lets CPython's OverflowError out; rapideval raises ValueError.
    fragmented = (["a", "b", "x", "c"], ["a", "b", "c"])
    with pytest.raises(OverflowError):
        ref.single_meteor_score(*fragmented, beta=-2000.0)
    with pytest.raises(ValueError, match="out of range"):
        ours.single_meteor_score(*fragmented, beta=-2000.0)


def test_batch_bad_inputs_name_the_row():
    with pytest.raises(TypeError, match=r"responses\[1\]"):
        meteor(["a", None], ["a", "b"])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\]"):
        meteor(["a"], [["a", 3]])
    with pytest.raises(ValueError, match=r"references\[0\]"):
        meteor(["a"], ["\ud800"])
    with pytest.raises(ValueError, match="rows"):
        meteor(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="row 0"):
        meteor(["a"], [[]])
    with pytest.raises(ValueError, match="tokenizer"):
        meteor(["a"], ["a"], tokenizer="nope")
    with pytest.raises(TypeError, match=r"hypothesis\[1\]"):
        ours.single_meteor_score(["a"], ["a", 1])
    big = "The quick brown fox jumps over the lazy dog. " * 23_000  # ~1 MB
    tokens = big.split()
    assert _outcome(ours.single_meteor_score, ["a", "lazy", "dog"], tokens) == _outcome(ref.single_meteor_score, ["a", "lazy", "dog"], tokens)


def test_wordnet_table_is_rebuilt_byte_for_byte(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_wordnet_table.py"), str(WORDNET), str(tmp_path)], check=True)
    shipped = ROOT / "rust" / "data" / "wordnet"
    assert (tmp_path / "synonyms.txt").read_bytes() == (shipped / "synonyms.txt").read_bytes()
    assert (tmp_path / "LICENSE").read_bytes() == (shipped / "LICENSE").read_bytes()
    assert (shipped / "synonyms.txt").stat().st_size + (shipped / "LICENSE").stat().st_size <= 8 * 1024 * 1024
    assert wordnet_license() == (shipped / "LICENSE").read_text(encoding="ascii")
