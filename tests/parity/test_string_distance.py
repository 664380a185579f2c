"""Parity of rapideval's string distances with rapidfuzz 3.14.6 ``rapidfuzz.distance.{Levenshtein, Hamming,
Jaro, JaroWinkler}.normalized_distance`` (default arguments, as ragas 0.4.3 ``NonLLMStringSimilarity`` calls
them): 100,000 seeded pairs under every measure through the batch function, each value within 1e-12 of
rapidfuzz's (and in fact bit-identical), and hypothesis pairs one at a time."""

from __future__ import annotations

import pathlib
import sys
from typing import Callable

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import Hamming, Jaro, JaroWinkler, Levenshtein

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from strategies import overlapping_pairs, texts  # noqa: E402

from rapideval.metrics.string_distance import MEASURES, normalized_distance, normalized_distances  # noqa: E402

REFERENCE: dict[str, Callable[..., float]] = {
    "levenshtein": Levenshtein.normalized_distance,
    "hamming": Hamming.normalized_distance,
    "jaro": Jaro.normalized_distance,
    "jaro_winkler": JaroWinkler.normalized_distance,
}

#: Code point ranges the generated strings draw from (no surrogates: those are not text).
ASCII = np.arange(0x20, 0x7F)
LATIN1 = np.arange(0xC0, 0x100)  # accented letters
CJK = np.arange(0x4E00, 0x4E00 + 400)
EMOJI = np.arange(0x1F300, 0x1F300 + 300)  # outside the BMP
COMBINING = np.arange(0x300, 0x370)
#: Few symbols, one of each storage width: many matches, transpositions and ties.
SMALL = np.array([0x61, 0x62, 0x63, 0xE9, 0x4E2D, 0x1F600])

#: The alphabets a string is drawn from: one width or several.
PROFILES = [
    ASCII,
    ASCII[:10],
    np.concatenate([ASCII, LATIN1]),
    np.concatenate([ASCII, CJK]),
    CJK[:20],
    np.concatenate([ASCII, EMOJI[:30]]),
    np.concatenate([ASCII[:20], COMBINING[:5], LATIN1[:10]]),
    np.concatenate([ASCII, LATIN1, CJK, EMOJI, COMBINING]),
    SMALL,
    SMALL[:2],
    SMALL[3:],
]


def _text(codes: np.ndarray) -> str:
    return codes.astype("<u4").tobytes().decode("utf-32-le")


def _length(rng: np.random.Generator) -> int:
    """Mostly sentence lengths, some short, some past several 64-symbol words."""
    kind = rng.random()
    if kind < 0.15:
        return int(rng.integers(0, 4))
    if kind < 0.5:
        return int(rng.integers(0, 65))
    if kind < 0.95:
        return int(rng.integers(60, 320))
    return int(rng.integers(320, 1200))


def _mutated(rng: np.random.Generator, codes: np.ndarray, alphabet: np.ndarray) -> np.ndarray:
    """`codes` with a random share of places substituted, deleted and inserted."""
    n = len(codes)
    rate = rng.choice([0.0, 0.01, 0.05, 0.15, 0.4])
    out = codes.copy()
    changed = rng.random(n) < rate
    out[changed] = rng.choice(alphabet, int(changed.sum()))
    out = out[rng.random(n) >= rate]
    k = rng.binomial(n, rate) if n else int(rng.integers(0, 3))
    return np.insert(out, rng.integers(0, len(out) + 1, k), rng.choice(alphabet, k))


def generated_pairs(n: int, seed: int = 20260317) -> tuple[list[str], list[str]]:
    """`n` seeded pairs: unrelated strings, a string and an edited copy, equal strings, empty strings, and
    strings of very different lengths, over the alphabets of `PROFILES` (each string its own)."""
    rng = np.random.default_rng(seed)
    left, right = [], []
    for _ in range(n):
        alphabet = PROFILES[rng.integers(len(PROFILES))]
        other = PROFILES[rng.integers(len(PROFILES))] if rng.random() < 0.3 else alphabet
        a = rng.choice(alphabet, _length(rng))
        kind = rng.random()
        if kind < 0.35:
            b = rng.choice(other, _length(rng))
        elif kind < 0.85:
            b = _mutated(rng, a, other)
        elif kind < 0.9:
            b = a.copy()
        elif kind < 0.95:
            a, b = rng.choice(alphabet, int(rng.integers(0, 8))), rng.choice(other, int(rng.integers(100, 700)))
        else:
            b = a[:0]
        if rng.random() < 0.5:
            a, b = b, a
        left.append(_text(a))
        right.append(_text(b))
    return left, right


PAIRS = 100_000


@pytest.fixture(scope="module")
def pairs() -> tuple[list[str], list[str]]:
    return generated_pairs(PAIRS)


@pytest.mark.parametrize("measure", MEASURES)
def test_100k_generated_pairs_match_rapidfuzz(pairs: tuple[list[str], list[str]], measure: str) -> None:
    a, b = pairs
    ours = normalized_distances(a, b, measure)
    reference = process.cpdist(a, b, scorer=REFERENCE[measure], workers=1, dtype=np.float64)
    assert ours.dtype == np.float64 and ours.shape == (PAIRS,)
    diff = np.abs(ours - reference)
    worst = int(np.argmax(diff))
    assert diff[worst] <= 1e-12, (measure, a[worst], b[worst], ours[worst], reference[worst])
    identical = ours.view(np.int64) == reference.view(np.int64)
    assert identical.all(), f"{measure}: {int((~identical).sum())} of {PAIRS} values not bit-identical"


def test_the_generated_pairs_cover_the_hard_cases(pairs: tuple[list[str], list[str]]) -> None:
    a, b = pairs
    widest = [ord(max(s)) if s else 0 for s in a + b]
    assert sum(x == y for x, y in zip(a, b)) > 1000
    assert sum(not x or not y for x, y in zip(a, b)) > 3000
    assert sum(abs(len(x) - len(y)) > 300 for x, y in zip(a, b)) > 1000
    assert sum(len(x) > 64 and len(y) > 64 and x != y for x, y in zip(a, b)) > 20_000
    assert sum(w > 0xFFFF for w in widest) > 10_000
    assert sum(0xFF < w <= 0xFFFF for w in widest) > 10_000
    assert sum(0x7F < w <= 0xFF for w in widest) > 5000
    # Long strings a few edits apart: Levenshtein's banded search succeeds on them.
    long_close = [(x, y) for x, y in zip(a, b) if min(len(x), len(y)) > 320 and x != y]
    close = sum(0 < Levenshtein.distance(x, y) <= 62 for x, y in long_close)
    assert close > 100 and len(long_close) - close > 100


def _assert_matches(a: str, b: str) -> None:
    for measure in MEASURES:
        ours = normalized_distance(a, b, measure)
        expected = REFERENCE[measure](a, b)
        assert type(ours) is float
        assert abs(ours - expected) <= 1e-12 and ours == expected, (measure, a, b, ours, expected)


@given(overlapping_pairs)
def test_overlapping_pairs_match_rapidfuzz(pair: tuple[str, str]) -> None:
    _assert_matches(*pair)


@given(texts, texts)
def test_any_texts_match_rapidfuzz(a: str, b: str) -> None:
    _assert_matches(a, b)


@given(st.text(max_size=150), st.text(max_size=150))
def test_any_code_points_match_rapidfuzz(a: str, b: str) -> None:
    _assert_matches(a, b)


small_alphabet = st.text(alphabet=st.sampled_from("ab\xe9\u4e2d\U0001f600"), max_size=140)


@given(small_alphabet, small_alphabet)
def test_few_symbols_match_rapidfuzz(a: str, b: str) -> None:
    _assert_matches(a, b)


@given(st.lists(st.tuples(texts, texts), max_size=40), st.sampled_from(MEASURES))
def test_the_batch_is_the_pairs_one_by_one(rows: list[tuple[str, str]], measure: str) -> None:
    a, b = [x for x, _ in rows], [y for _, y in rows]
    expected = [normalized_distance(x, y, measure) for x, y in rows]
    assert normalized_distances(a, b, measure).tolist() == expected


def test_known_values() -> None:
    assert normalized_distance("kitten", "sitting") == 3 / 7
    assert normalized_distance("abc", "abcdef", "hamming") == 0.5
    assert normalized_distance("ab", "ba", "jaro") == 1.0
    assert normalized_distance("", "", "jaro_winkler") == 0.0
    assert normalized_distance("a\U0001f600", "a\U0001f601", "levenshtein") == 0.5
    # 1 - NonLLMStringSimilarity's score, as ragas computes it.
    assert 1 - normalized_distance("MARTHA", "MARHTA", "jaro_winkler") == 1 - JaroWinkler.normalized_distance(
        "MARTHA", "MARHTA"
    )


def test_str_subclasses_numpy_and_tuples() -> None:
    class Text(str):
        pass

    a, b = ["caf\xe9 \u4e2d", Text("cafe \U0001f600"), ""], (Text("caf\xe9"), "cafe \U0001f600!", Text(""))
    expected = [Levenshtein.normalized_distance(x, y) for x, y in zip(a, b)]
    assert normalized_distances(a, b).tolist() == expected
    assert normalized_distances(np.array(a, dtype=object), np.array(b, dtype=object)).tolist() == expected
    assert normalized_distance(Text("ab"), Text("ac"), "hamming") == 0.5


def test_lone_surrogates_compare_as_code_points_like_rapidfuzz() -> None:
    a, b = "x\ud800y", "x\udc00y"
    if sys.version_info >= (3, 14):  # read through UTF-8 there, which a lone surrogate has none of
        with pytest.raises(ValueError, match="lone surrogate"):
            normalized_distance(a, b)
        return
    for measure in MEASURES:
        assert normalized_distance(a, b, measure) == REFERENCE[measure](a, b)
        assert normalized_distances([a], [b], measure)[0] == REFERENCE[measure](a, b)


@pytest.mark.parametrize(
    ("a", "b", "measure", "error", "message"),
    [
        (["x", 3], ["x", "y"], "levenshtein", TypeError, r"a\[1\]: expected str, got int"),
        (["x", "y"], ["x", None], "jaro", TypeError, r"b\[1\]: expected str, got NoneType"),
        (["x"], ["x", "y"], "hamming", ValueError, "a has 1 rows but b has 2"),
        (["x"], ["y"], "Levenshtein", ValueError, "unknown measure 'Levenshtein'"),
        (["x"], ["y"], "damerau", ValueError, "unknown measure 'damerau'"),
        ("x", ["y"], "levenshtein", TypeError, "a: expected a sequence of str"),
    ],
)
def test_bad_inputs_are_named(a: object, b: object, measure: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        normalized_distances(a, b, measure)


def test_bad_single_arguments_are_named() -> None:
    with pytest.raises(TypeError, match="b: expected str, got bytes"):
        normalized_distance("x", b"x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown measure 'cosine'"):
        normalized_distance("x", "y", "cosine")
    assert normalized_distances([], [], "jaro").shape == (0,)
