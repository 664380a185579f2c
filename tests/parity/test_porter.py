"""Parity of rapideval's Porter stemmer with nltk 3.10.4 ``PorterStemmer()`` (NLTK_EXTENSIONS mode):
every lemma and exception form of WordNet 3.0 (exhaustive, deterministic), their capitalised and
inflected forms, and hypothesis words built from the stemmer's own suffixes."""

from __future__ import annotations

import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer

from rapideval import _core
from strategies import PROSE, WORDS, texts

NLTK = PorterStemmer()
WORDNET = pathlib.Path(os.environ["NLTK_DATA"]) / "corpora" / "wordnet"

# Every suffix a Porter rule tests, plus pieces that change the consonant/vowel pattern.
SUFFIXES = [
    "sses", "ies", "ss", "s", "ied", "eed", "ed", "ing", "at", "bl", "iz", "y", "ational", "tional", "enci",
    "anci", "izer", "bli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator", "alism", "iveness",
    "fulness", "ousness", "aliti", "iviti", "biliti", "fulli", "logi", "icate", "ative", "alize", "iciti",
    "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
    "ion", "sion", "tion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "e", "ll", "l", "*d",
]
PIECES = SUFFIXES + list("abcdefghijklmnopqrstuvwxyz") + ["yy", "ay", "oy", "é", "İ", "K", "1", "'"]


def stems(words: list[str]) -> list[str]:
    return [NLTK.stem(w) for w in words]


def wordnet_words() -> list[str]:
    words: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        with open(WORDNET / f"index.{pos}", encoding="ascii") as f:
            words.update(line.split()[0] for line in f if not line.startswith(" "))
        with open(WORDNET / f"{pos}.exc", encoding="ascii") as f:
            for line in f:
                words.update(line.split())
    return sorted(words)


def test_every_wordnet_lemma_and_exception_form():
    words = wordnet_words()
    assert len(words) > 150_000
    variants = words + [w.capitalize() for w in words[::3]] + [w.upper() for w in words[1::3]]
    variants += [w + s for w in words[::11] for s in ("s", "es", "ed", "ing", "ly", "ness", "ation", "er")]
    ours = _core.porter_stem(variants)
    mismatches = [(w, o, r) for w, o, r in zip(variants, ours, stems(variants)) if o != r]
    assert mismatches == []


def test_prose_words():
    words = [w for line in PROSE for w in line.split()]
    assert _core.porter_stem(words) == stems(words)


@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map("".join))
def test_suffix_built_words(word):
    assert _core.porter_stem([word]) == [NLTK.stem(word)]


@given(st.one_of(texts, st.text(max_size=12), st.sampled_from(WORDS)))
def test_any_string(word):
    assert _core.porter_stem([word]) == [NLTK.stem(word)]


def test_irregular_pool_and_short_words():
    words = ["skies", "sky", "dying", "lying", "tying", "news", "innings", "inning", "outings", "outing",
             "cannings", "canning", "howe", "proceed", "exceed", "succeed", "SKIES", "a", "is", "as", "İs",
             "ties", "dies", "lies", "tied", "died", "yyyy", "syzygy", "ba*ding", "", " "]
    assert _core.porter_stem(words) == stems(words)


def test_bad_inputs():
    with pytest.raises(TypeError, match=r"words\[1\]"):
        _core.porter_stem(["ok", None])
    with pytest.raises(ValueError, match=r"words\[0\]"):
        _core.porter_stem(["\ud800"])
    big = "running" * 150_000
    assert _core.porter_stem([big]) == [NLTK.stem(big)]
