"""Parity of ``rapideval.compat.sacrebleu`` as a drop-in for sacrebleu 2.6.0, beyond the scores of
test_sacrebleu_bleu.py, test_chrf.py and test_ter.py: sacrebleu's namespaces and signatures,
``BLEU.compute_bleu``, segment statistics (``_extract_corpus_statistics``, ``_aggregate_and_compute``,
``_compute_score_from_stats`` on lists and on sacrebleu's numpy arrays), bootstrap confidence intervals
(``corpus_score(..., n_bootstrap=N)``), ``PairedTest`` (paired bootstrap and approximate randomisation)
with the same ``SACREBLEU_SEED``, the ``zh`` BLEU tokenizer and ``TercomTokenizer``. Every value is
compared with its type, floats by bit pattern; generated text and real text (prose, and WMT17 en-de
system outputs from sacrebleu's own test data).
"""

from __future__ import annotations

import bz2
import contextlib
import functools
import importlib
import inspect
import os
import pathlib
import pickle
import sys
from collections.abc import Iterator
from typing import Any, Optional
from unittest import mock

import numpy as np
import pytest
import sacrebleu
import sacrebleu.significance as sb_significance
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SbTercomTokenizer
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh as SbTokenizerZh

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from strategies import fragment_text, overlapping_pairs, prose_text, texts, word_text  # noqa: E402

import rapideval.compat.sacrebleu as ours  # noqa: E402
from rapideval.compat.sacrebleu import significance as ours_significance  # noqa: E402
from rapideval.compat.sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer  # noqa: E402
from rapideval.compat.sacrebleu.tokenizers.tokenizer_zh import _CHINESE, TokenizerZh  # noqa: E402

#: sacrebleu 2.6.0's own test data (from its source distribution), kept for tests/peers/sacrebleu.
WMT17 = pathlib.Path(__file__).parents[1] / "peers" / "sacrebleu" / "test" / "wmt17_en_de_systems.pkl.bz2"

# --- comparing values


def bits(x: Any) -> Any:
    """A value with its type; floats (Python and numpy) as bit patterns, containers element-wise."""
    if isinstance(x, (float, np.floating)):
        return type(x).__name__, float(x).hex()
    if isinstance(x, (list, tuple, np.ndarray)):
        return type(x).__name__, [bits(v) for v in x]
    return type(x).__name__, repr(x)


def state(obj: Any) -> dict[str, Any]:
    """Every attribute of a score or result, with types and bit patterns."""
    return {k: bits(v) for k, v in sorted(vars(obj).items())}


def shown(score: Any, signature: str = "") -> tuple:
    """The state of a score and everything ``format`` prints of it."""
    formats = [str(score), repr(score), score.format(width=4), score.format(score_only=True)]
    if signature:
        formats += [score.format(signature=signature), score.format(signature=signature, is_json=True)]
    return state(score), formats


def outcome(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """``fn``'s result, or the name of the exception sacrebleu's arithmetic raises: math domain errors
    of negative smoothing values, and ``statistics.mean`` refusing bootstrap scores that mix float and
    numpy float32 (chrF and TER return a Python ``0.0`` or ``100 * 1.0`` for some resamples)."""
    try:
        return fn(*args, **kwargs)
    except (ValueError, ZeroDivisionError, TypeError) as e:
        return type(e).__name__


@contextlib.contextmanager
def seed_env(seed: Optional[str]) -> Iterator[None]:
    """``SACREBLEU_SEED`` set (or unset: sacrebleu's default 12345) for both libraries."""
    env = dict(os.environ)
    env.pop("SACREBLEU_SEED", None)
    if seed is not None:
        env["SACREBLEU_SEED"] = seed
    with mock.patch.dict(os.environ, env, clear=True):
        yield


def to_streams(rows: list[list[str]]) -> list[list[Optional[str]]]:
    """Per-segment references to sacrebleu's streams, padding short rows with None."""
    width = max(len(r) for r in rows)
    return [[r[k] if k < len(r) else None for r in rows] for k in range(width)]


# --- strategies

#: Characters around every bound of sacrebleu's zh table (including its two-character bounds), CJK,
#: kana, full-width forms, and the Latin side's punctuation and numbers.
CJK = [
    "中", "文", "测", "试", "日本語", "한국어", "。", "，", "、", "「", "」", "（", "）", "！", "？", "：", "；", "ｱ", "ｶ",
    "Ａ", "ａ", "１", "\u3000", "\u3400", "\u4db5", "\u4db6", "\u4e00", "\u9fa5", "\u9fa6", "\u9fbb", "\u9fbc",
    "\u9fff", "\uf900", "\ufa2d", "\ufa2e", "\ufa30", "\ufa6a", "\ufa6b", "\ufa70", "\ufad9", "\ufada",
    "\U00020000", "\U0002a6d6", "\U0002f800", "\U0002fa1d", "\u2000", "\u2001", "\u2014", "\u201c", "\u201d",
    "\u2026", "\u20ac", "\u2192", "\u2a6d", "\u2a6e", "\u2f80", "\u2f81", "\u2fa1", "\u2fa2", "\u2e80", "\u2eff",
    "\u2f00", "\u2fdf", "\u2ff0", "\u3100", "\u312f", "\u31a0", "\u31c0", "\u31ef", "\u31f0", "\ufe10", "\ufe30",
    "\ufe4f", "\u2600", "\u26ff", "\u2700", "\u27bf", "\u3200", "\u33ff", "\uff00", "\uffef", "\ufff0", "ー",
    "ひらがな", "カタカナ", "ㇰ", "㈠", "㍿", "豈", "︰", "〈", "〉", "【", "】", "〔", "〕", "･", "・", "．", "＂",
]  # fmt: skip
LATIN = [
    "hello", "World", "3.5", "1,000", "2024.", "5.", ".5", "-", "5-6", ".", ",", "'s", "can't", "&amp;", "&quot;",
    "&lt;", "<skipped>", "U.S.A.", "e.g.", "(", ")", "$", "%", "...", "@", "/", "{", "~", "`", "\n", "-\n", "\n-",
    " ", "  ", "\t", "\xa0", "\r",
]  # fmt: skip
pieces = st.sampled_from(CJK + LATIN)
zh_text = st.one_of(
    st.lists(pieces, max_size=20).map("".join),
    st.lists(pieces, max_size=20).map(" ".join),
    st.text(alphabet=st.characters(min_codepoint=0x1F00, max_codepoint=0x3400), max_size=30),
    st.lists(st.one_of(pieces, st.characters(exclude_categories=("Cs",))), max_size=30).map("".join),
    texts,
)
any_text = st.one_of(texts, zh_text, fragment_text, word_text)

#: One hypothesis with one to three references (every row has a reference: sacrebleu errors on rows
#: without one, differently from rapideval, as documented).
segment = st.one_of(
    overlapping_pairs.map(lambda p: (p[0], [p[1]])),
    st.tuples(zh_text, zh_text).map(lambda p: (p[0], [p[1]])),
    st.tuples(overlapping_pairs, st.lists(any_text, max_size=2)).map(lambda t: (t[0][0], [t[0][1], *t[1]])),
)
corpus = st.lists(segment, min_size=1, max_size=8)

SMOOTH_METHODS = ["exp", "floor", "add-k", "none"]
SMOOTH_VALUES = [None, 0, 0.0, 0.01, 0.1, 0.5, 1, 1.0, 2, 3.7, -0.5]

bleu_options = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(["13a", "intl", "none", "char", "zh"]),
        "lowercase": st.booleans(),
        "smooth_method": st.sampled_from(SMOOTH_METHODS),
        "smooth_value": st.sampled_from(SMOOTH_VALUES),
        "max_ngram_order": st.integers(1, 6),
        "effective_order": st.booleans(),
    }
)
chrf_options = st.fixed_dictionaries(
    {
        "char_order": st.integers(0, 6),
        "word_order": st.integers(0, 2),
        "beta": st.sampled_from([1, 2, 3, 0.5]),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    }
).filter(lambda o: o["char_order"] + o["word_order"] > 0)
ter_options = st.fixed_dictionaries(
    {
        "normalized": st.booleans(),
        "no_punct": st.booleans(),
        "asian_support": st.booleans(),
        "case_sensitive": st.booleans(),
    }
)
metric_spec = st.one_of(
    st.tuples(st.just("BLEU"), bleu_options), st.tuples(st.just("CHRF"), chrf_options),
    st.tuples(st.just("TER"), ter_options),
)  # fmt: skip

#: ``SACREBLEU_SEED`` values: unset (12345), and any seed numpy takes (0 and 2**64 - 1 included).
seeds = st.one_of(st.none(), st.integers(0, 2**64 - 1).map(str), st.sampled_from(["12345", "0", "1", "007"]))


def make(spec: tuple[str, dict]) -> tuple[Any, Any]:
    """The metric of ``spec`` in sacrebleu and in rapideval."""
    name, options = spec
    return getattr(sacrebleu.metrics, name)(**options), getattr(ours.metrics, name)(**options)


# --- namespaces


NAMESPACES = {
    "": ["BLEU", "CHRF", "TER", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu", "corpus_chrf", "sentence_chrf",
         "corpus_ter", "sentence_ter", "compat", "metrics"],
    "compat": ["corpus_bleu", "raw_corpus_bleu", "sentence_bleu", "corpus_chrf", "sentence_chrf", "corpus_ter",
               "sentence_ter", "BLEU", "CHRF", "TER", "BLEUScore", "CHRFScore", "TERScore"],
    "metrics": ["BLEU", "CHRF", "TER", "BLEUScore", "CHRFScore", "TERScore", "METRICS"],
    "metrics.base": ["Score", "Signature", "Metric"],
    "metrics.bleu": ["BLEU", "BLEUScore", "BLEUSignature", "MAX_NGRAM_ORDER"],
    "metrics.chrf": ["CHRF", "CHRFScore", "CHRFSignature"],
    "metrics.ter": ["TER", "TERScore", "TERSignature"],
    "significance": ["PairedTest", "Result", "estimate_ci", "_bootstrap_resample", "_compute_p_value",
                     "_paired_ar_test", "_paired_bs_test"],
    "tokenizers": ["BaseTokenizer"],
    "tokenizers.tokenizer_base": ["BaseTokenizer"],
    "tokenizers.tokenizer_ter": ["TercomTokenizer"],
    "tokenizers.tokenizer_zh": ["TokenizerZh"],
}  # fmt: skip

#: Callables whose parameters (names, kinds and defaults) must be sacrebleu's.
CALLABLES = [
    "compat.corpus_bleu", "compat.raw_corpus_bleu", "compat.sentence_bleu", "compat.corpus_chrf",
    "compat.sentence_chrf", "compat.corpus_ter", "compat.sentence_ter", "metrics.BLEU", "metrics.CHRF",
    "metrics.TER", "metrics.BLEU.compute_bleu", "metrics.BLEU.corpus_score", "metrics.BLEU.sentence_score",
    "metrics.base.Score.format", "metrics.base.Signature.format", "metrics.base.Signature.update",
    "metrics.bleu.BLEUScore", "metrics.chrf.CHRFScore", "metrics.ter.TERScore", "significance.PairedTest",
    "significance.Result", "significance.estimate_ci", "significance._bootstrap_resample",
    "significance._paired_ar_test", "significance._paired_bs_test", "tokenizers.tokenizer_ter.TercomTokenizer",
]  # fmt: skip


def _module(root: str, name: str) -> Any:
    return importlib.import_module(f"{root}.{name}" if name else root)


@pytest.mark.parametrize("module", NAMESPACES)
def test_namespaces(module: str) -> None:
    theirs, mine = _module("sacrebleu", module), _module("rapideval.compat.sacrebleu", module)
    for name in NAMESPACES[module]:
        assert hasattr(theirs, name), f"sacrebleu.{module}.{name}"
        assert hasattr(mine, name), f"rapideval.compat.sacrebleu.{module}.{name}"


def _parameters(root: str, path: str) -> list[tuple[str, Any, Any]]:
    module, _, attr = path.partition(".")
    obj: Any = importlib.import_module(f"{root}.{module}")
    for part in attr.split("."):
        obj = getattr(obj, part)
    return [(p.name, p.kind, p.default) for p in inspect.signature(obj).parameters.values()]


@pytest.mark.parametrize("path", CALLABLES)
def test_call_signatures(path: str) -> None:
    assert _parameters("rapideval.compat.sacrebleu", path) == _parameters("sacrebleu", path)


def test_import_styles() -> None:
    import rapideval.compat.sacrebleu as sb

    assert sb.compat.sentence_bleu is sb.sentence_bleu
    assert sb.metrics.BLEU is sb.BLEU
    from rapideval.compat.sacrebleu.metrics.bleu import BLEU

    assert BLEU is sb.BLEU
    assert sb.metrics.METRICS == {"BLEU": sb.BLEU, "CHRF": sb.CHRF, "TER": sb.TER}


# --- BLEU.compute_bleu


@st.composite
def bleu_statistics(draw: Any) -> tuple[list[int], list[int], int, int]:
    order = draw(st.integers(1, 6))
    total = draw(st.lists(st.integers(0, 30), min_size=order, max_size=order))
    correct = [draw(st.integers(0, t)) for t in total] if draw(st.booleans()) else draw(
        st.lists(st.integers(0, 30), min_size=order, max_size=order)
    )
    return correct, total, draw(st.integers(0, 40)), draw(st.integers(-1, 40))


CONTAINERS = {
    "list": list,
    "float_list": lambda v: [float(x) for x in v],
    "int64": lambda v: np.array(v, dtype=np.int64),
    "float32": lambda v: np.array(v, dtype=np.float32),
    "float64": lambda v: np.array(v, dtype=np.float64),
}


@given(bleu_statistics(), st.sampled_from(SMOOTH_METHODS), st.sampled_from(SMOOTH_VALUES), st.booleans(),
       st.sampled_from(sorted(CONTAINERS)))  # fmt: skip
def test_compute_bleu(stats: tuple, smooth_method: str, smooth_value: Any, effective: bool, container: str) -> None:
    correct, total, sys_len, ref_len = stats
    make_values = CONTAINERS[container]
    results, inputs = [], []
    for cls in (sacrebleu.metrics.BLEU, ours.metrics.BLEU):
        c, t = make_values(correct), make_values(total)
        score = outcome(cls.compute_bleu, c, t, sys_len, ref_len, smooth_method=smooth_method,
                        smooth_value=smooth_value, effective_order=effective, max_ngram_order=len(correct))  # fmt: skip
        results.append(score if isinstance(score, str) else shown(score))
        inputs.append((bits(c), bits(t)))  # add-k changes them in place, in sacrebleu too
    assert results[1] == results[0]
    assert inputs[1] == inputs[0]


def test_compute_bleu_defaults_and_errors() -> None:
    for cls in (sacrebleu.metrics.BLEU, ours.metrics.BLEU):
        assert cls.compute_bleu([9, 7, 5, 3], [10, 8, 6, 4], 11, 11).score == 83.75922397086269  # sacrebleu 2.6.0
    with pytest.raises(AssertionError):
        ours.metrics.BLEU.compute_bleu([1], [1], 1, 1, smooth_method="add-one", max_ngram_order=1)


# --- segment statistics


@given(corpus, metric_spec)
def test_segment_statistics(segments: list[tuple[str, list[str]]], spec: tuple[str, dict]) -> None:
    hyps = [h for h, _ in segments]
    streams = to_streams([r for _, r in segments])
    theirs, mine = make(spec)
    expected = theirs._extract_corpus_statistics(hyps, streams)
    stats = mine._extract_corpus_statistics(hyps, streams)
    assert bits(stats) == bits(expected)
    total = outcome(theirs._aggregate_and_compute, expected)
    if isinstance(total, str):
        assert outcome(mine._aggregate_and_compute, stats) == total
        assert outcome(mine.corpus_score, hyps, streams) == total
        return
    assert shown(mine._aggregate_and_compute(stats)) == shown(total)
    assert shown(mine.corpus_score(hyps, streams)) == shown(total)
    # sacrebleu's resampling sums statistics in float32, its shuffles in int64 / float64 numpy
    for dtype in ("float32", None):
        summed = np.array(expected, dtype=dtype).sum(0)
        expected_score = outcome(theirs._compute_score_from_stats, summed.copy())
        score = outcome(mine._compute_score_from_stats, summed.copy())
        assert (score if isinstance(score, str) else shown(score)) == (
            expected_score if isinstance(expected_score, str) else shown(expected_score)
        )


# --- bootstrap confidence intervals


@given(corpus, metric_spec, st.integers(2, 60), seeds, st.integers(0, 4))
def test_corpus_score_bootstrap(segments: list[tuple[str, list[str]]], spec: tuple[str, dict], n_bootstrap: int,
                                seed: Optional[str], width: int) -> None:  # fmt: skip
    hyps = [h for h, _ in segments]
    streams = to_streams([r for _, r in segments])
    theirs, mine = make(spec)
    with seed_env(seed):
        expected = outcome(theirs.corpus_score, hyps, streams, n_bootstrap=n_bootstrap)
        score = outcome(mine.corpus_score, hyps, streams, n_bootstrap=n_bootstrap)
    if isinstance(expected, str):
        assert score == expected
        return
    signature = theirs.get_signature().format()
    assert mine.get_signature().format() == signature
    assert mine.get_signature().format(short=True) == theirs.get_signature().format(short=True)
    assert shown(score, signature) == shown(expected, signature)
    assert score.format(width=width, signature=signature, is_json=True) == expected.format(
        width=width, signature=signature, is_json=True
    )
    assert score.format(width=width, score_only=True) == expected.format(width=width, score_only=True)


def test_bootstrap_seed_none_and_default() -> None:
    hyps, streams = ["the cat sat on the mat", "a dog ran"], [["the cat sat on a mat", "a dog ran fast"]]
    with seed_env("None"):
        score = ours.BLEU().corpus_score(hyps, streams, n_bootstrap=50)
        metric = ours.BLEU()
        metric.corpus_score(hyps, streams, n_bootstrap=50)
        assert score._mean > 0
        assert str(metric.get_signature()) == (
            "nrefs:1|bs:50|seed:none|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
        )
    with seed_env(None):
        chrf, theirs = ours.CHRF(), sacrebleu.CHRF()
        assert str(chrf.corpus_score(hyps, streams, n_bootstrap=1000)) == str(
            theirs.corpus_score(hyps, streams, n_bootstrap=1000)
        )
        assert str(chrf.get_signature()) == str(theirs.get_signature())
        assert "seed:12345" in str(chrf.get_signature())
    plain = ours.TER().corpus_score(hyps, streams, n_bootstrap=1)
    assert (plain._mean, plain._ci) == (-1.0, -1.0)


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=200),
       st.sampled_from(["float32", "float64"]))  # fmt: skip
def test_estimate_ci(values: list[float], dtype: str) -> None:
    arr = np.array(values, dtype=dtype)
    assert bits(ours_significance.estimate_ci(arr.copy())) == bits(sb_significance.estimate_ci(arr.copy()))
    scores = [sacrebleu.metrics.base.Score("x", v) for v in arr]
    mine, theirs = ours.metrics.base.Score("x", 1.0), sacrebleu.metrics.base.Score("x", 1.0)
    mine.estimate_ci(scores)  # type: ignore[arg-type]  # any object with .score, as in sacrebleu
    theirs.estimate_ci(scores)
    assert shown(mine, "a:b") == shown(theirs, "a:b")


# --- paired tests


@st.composite
def paired_setup(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(1, 6))
    lines = st.lists(any_text, min_size=n, max_size=n)
    systems = [(f"sys{i}", draw(lines)) for i in range(draw(st.integers(2, 4)))]
    streams = [draw(lines) for _ in range(draw(st.integers(1, 2)))]
    specs = []
    if draw(st.booleans()):
        specs.append(("BLEU", draw(bleu_options.filter(lambda o: o["smooth_value"] != -0.5))))
    if draw(st.booleans()) or not specs:
        specs.append(("CHRF", draw(chrf_options)))
    if draw(st.booleans()):
        specs.append(("TER", draw(ter_options)))
    return {
        "systems": systems,
        "streams": streams,
        "specs": specs,
        "test_type": draw(st.sampled_from(["ar", "bs"])),
        "n_samples": draw(st.integers(1, 60)),
        "n_ar_confidence": draw(st.sampled_from([-1, 1, 2, 7, 25])),
        "cached": draw(st.booleans()),
        # 0 makes sacrebleu draw the systems' tests from OS entropy (``seed if seed else None``)
        "seed": draw(st.one_of(st.none(), st.integers(1, 2**64 - 1).map(str))),
    }


def run_paired(lib: Any, setup: dict[str, Any], metrics: dict[str, Any]) -> tuple[dict, dict]:
    references = None if setup["cached"] else setup["streams"]
    with seed_env(setup["seed"]):
        test = lib.significance.PairedTest(
            setup["systems"], metrics, references, test_type=setup["test_type"], n_samples=setup["n_samples"],
            n_ar_confidence=setup["n_ar_confidence"],
        )  # fmt: skip
        signatures, table = test()
    return (
        {k: (v.format(), v.format(short=True)) for k, v in signatures.items()},
        {k: [v if isinstance(v, str) else state(v) for v in column] for k, column in table.items()},
    )


def paired_metrics(lib: Any, setup: dict[str, Any]) -> dict[str, Any]:
    refs = {"references": setup["streams"]} if setup["cached"] else {}
    return {name: getattr(lib.metrics, name)(**options, **refs) for name, options in setup["specs"]}


@given(paired_setup())
def test_paired_test(setup: dict[str, Any]) -> None:
    expected = run_paired(sacrebleu, setup, paired_metrics(sacrebleu, setup))
    assert run_paired(ours, setup, paired_metrics(ours, setup)) == expected


# --- real text: WMT17 en-de systems (sacrebleu's test data)


@functools.cache
def wmt17() -> tuple[list[tuple[str, list[str]]], list[list[str]]]:
    with bz2.BZ2File(WMT17, "rb") as f:
        systems = pickle.load(f)
    _, refs = systems.pop()
    return systems, refs


def wmt17_slice(n_systems: int, start: int, n: int) -> tuple[list[tuple[str, list[str]]], list[list[str]]]:
    systems, refs = wmt17()
    return [(name, hyps[start : start + n]) for name, hyps in systems[:n_systems]], [r[start : start + n] for r in refs]


REAL_METRICS = [
    ("BLEU", {}),
    ("BLEU", {"tokenize": "none", "smooth_method": "floor"}),
    ("BLEU", {"tokenize": "zh", "lowercase": True}),
    ("BLEU", {"tokenize": "intl", "smooth_method": "add-k", "smooth_value": 0.5, "effective_order": True}),
    ("CHRF", {}),
    ("CHRF", {"word_order": 2}),
    ("TER", {}),
    ("TER", {"normalized": True, "no_punct": True}),
]


@pytest.mark.parametrize("spec", REAL_METRICS, ids=lambda s: f"{s[0]}-{'-'.join(f'{k}={v}' for k, v in s[1].items())}")
@pytest.mark.parametrize("seed", [None, "1", "987654321"])
def test_wmt17_bootstrap(spec: tuple[str, dict], seed: Optional[str]) -> None:
    systems, refs = wmt17_slice(2, 100, 150)
    for _, hyps in systems:
        theirs, mine = make(spec)
        with seed_env(seed):
            expected = theirs.corpus_score(hyps, refs, n_bootstrap=300)
            score = mine.corpus_score(hyps, refs, n_bootstrap=300)
        assert shown(score) == shown(expected)
        assert str(mine.get_signature()) == str(theirs.get_signature())


@pytest.mark.parametrize("test_type", ["ar", "bs"])
@pytest.mark.parametrize("cached", [False, True])
def test_wmt17_paired(test_type: str, cached: bool) -> None:
    systems, refs = wmt17_slice(4, 0, 250)
    setup = {
        "systems": systems,
        "streams": refs,
        "specs": [("BLEU", {}), ("CHRF", {"word_order": 2}), ("TER", {})],
        "test_type": test_type,
        "n_samples": 300,
        "n_ar_confidence": 100,
        "cached": cached,
        "seed": None,
    }
    assert run_paired(ours, setup, paired_metrics(ours, setup)) == run_paired(sacrebleu, setup,
                                                                              paired_metrics(sacrebleu, setup))


def test_wmt17_paired_defaults_bleu() -> None:
    # n_samples=0: sacrebleu's defaults (10,000 trials for ar, 1,000 resamples for bs and the ar CI)
    systems, refs = wmt17_slice(3, 500, 400)
    for test_type in ("ar", "bs"):
        setup = {"systems": systems, "streams": [r for r in refs], "specs": [("BLEU", {"tokenize": "none"})],
                 "test_type": test_type, "n_samples": 0, "n_ar_confidence": 0, "cached": True, "seed": "12345"}
        assert run_paired(ours, setup, paired_metrics(ours, setup)) == run_paired(sacrebleu, setup,
                                                                                  paired_metrics(sacrebleu, setup))


# --- zh tokenizer and BLEU


@given(zh_text)
def test_tokenizer_zh(text: str) -> None:
    assert TokenizerZh()(text) == SbTokenizerZh()(text)


def test_zh_table_every_code_point() -> None:
    # sacrebleu's string comparisons against its table, for every code point (surrogates included)
    is_chinese = SbTokenizerZh._is_chinese_char.__wrapped__  # without its lru_cache
    expected = [cp for cp in range(0x110000) if is_chinese(chr(cp))]
    assert [cp for cp in range(0x110000) if _CHINESE.fullmatch(chr(cp))] == expected
    assert [cp for cp in expected if not TokenizerZh._is_chinese_char(chr(cp))] == []


@given(segment, bleu_options.map(lambda o: {**o, "tokenize": "zh"}))
def test_zh_sentence_bleu(seg: tuple[str, list[str]], opts: dict) -> None:
    hyp, refs = seg
    effective = opts.pop("effective_order")
    expected = outcome(sacrebleu.sentence_bleu, hyp, refs, use_effective_order=effective,
                       **{k: v for k, v in opts.items() if k != "max_ngram_order"})  # fmt: skip
    score = outcome(ours.sentence_bleu, hyp, refs, use_effective_order=effective,
                    **{k: v for k, v in opts.items() if k != "max_ngram_order"})  # fmt: skip
    assert (score if isinstance(score, str) else shown(score)) == (
        expected if isinstance(expected, str) else shown(expected)
    )


@given(corpus, bleu_options.map(lambda o: {**o, "tokenize": "zh"}), st.booleans())
def test_zh_corpus_bleu(segments: list[tuple[str, list[str]]], opts: dict, by_language: bool) -> None:
    hyps = [h for h, _ in segments]
    streams = to_streams([r for _, r in segments])
    if by_language:  # sacrebleu picks zh for trg_lang="zh" when no tokenizer is given
        opts = {**opts, "tokenize": None, "trg_lang": "zh"}
    theirs, mine = make(("BLEU", opts))
    expected = outcome(theirs.corpus_score, hyps, streams)
    score = outcome(mine.corpus_score, hyps, streams)
    if isinstance(expected, str):
        assert score == expected
        return
    assert shown(score) == shown(expected)
    assert str(mine.get_signature()) == str(theirs.get_signature())


# --- TercomTokenizer


tercom_text = st.one_of(
    any_text,
    prose_text,
    st.text(alphabet=st.sampled_from(list("ひらがなカタカナㇰㇱ日本語中文、。「」・．，？！＂（）abc 's.,-&;:?!\"()0123\n")), max_size=30),
    st.lists(st.sampled_from(["&quot;", "&amp;", "&lt;", "&gt;", "'s", "'s ", "\n-", "\n", "4.2", "a.", ",b", "-1",
                              "Jim's", "(c)", "ｱｲ", "ｰ"]), max_size=10).map("".join),
)  # fmt: skip


@given(tercom_text, st.booleans(), st.booleans(), st.booleans(), st.booleans())
def test_tercom_tokenizer(text: str, normalized: bool, no_punct: bool, asian_support: bool,
                          case_sensitive: bool) -> None:  # fmt: skip
    options = dict(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive)
    assert TercomTokenizer(**options)(text) == SbTercomTokenizer(**options)(text)
    assert TercomTokenizer(**options).signature() == "tercom"
