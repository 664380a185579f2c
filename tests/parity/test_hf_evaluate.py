"""Parity of ``rapideval.compat.hf_evaluate`` with Hugging Face evaluate 0.4.6's metric scripts: the same
keys in the same order, the same values with the same types, floats bit for bit.

The reference for each metric is the script's ``_compute`` run on the library it wraps, plus what evaluate
does around it (the module seed, ``temp_seed``): tests/hf_evaluate_reference.py, which says why no
installed script is used. The metrics' docstrings name the same references.
"""

from __future__ import annotations

import math
import pathlib
import random
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import hf_evaluate_reference as reference  # noqa: E402
from strategies import FRAGMENTS, PROSE, WORDS, overlapping_pairs, prose_text, texts, word_text  # noqa: E402

from rapideval.compat import hf_evaluate  # noqa: E402


def canon(x: Any) -> Any:
    """A result as nested tuples of (type name, exact value); floats as bit patterns."""
    if isinstance(x, dict):
        return ("dict", tuple((k, canon(v)) for k, v in x.items()))
    if isinstance(x, list):
        return ("list", tuple(canon(v) for v in x))
    if isinstance(x, (float, np.floating)):
        return (type(x).__name__, "nan" if math.isnan(x) else float(x).hex())
    return (type(x).__name__, x)


def assert_parity(name: str, predictions: Any, references: Any, seed: int = 0, **kwargs: Any) -> dict:
    """``load(name, seed=seed).compute(...)`` against the script's computation under the same seed."""
    want = reference.reference_compute(name, seed, predictions, references, **kwargs)
    got = hf_evaluate.load(name, seed=seed).compute(predictions=predictions, references=references, **kwargs)
    assert canon(got) == canon(want)
    return got


def columns(rows: list[tuple[Any, Any]]) -> tuple[list[Any], list[Any]]:
    return [p for p, _ in rows], [r for _, r in rows]


seeds = st.integers(0, 2**32 - 1)
any_text = st.one_of(texts, word_text, prose_text)
#: Rows with one reference (str) each, overlapping often.
single_rows = st.lists(st.one_of(overlapping_pairs, st.tuples(word_text, word_text)), min_size=1, max_size=6)
#: Rows with one to three references (lists) each.
multi_rows = st.lists(st.tuples(any_text, st.lists(any_text, min_size=1, max_size=3)), min_size=1, max_size=5).map(
    lambda rows: [(p, [p[: len(p) // 2] + r for r in refs]) if i % 2 else (p, refs) for i, (p, refs) in enumerate(rows)]
)
#: Rows with the same number of references each (sacrebleu, chrF, TER streams).
stream_rows = st.one_of(
    single_rows,
    st.integers(1, 3).flatmap(
        lambda k: st.lists(st.tuples(any_text, st.lists(any_text, min_size=k, max_size=k)), min_size=1, max_size=5)
    ),
)
text_rows = st.one_of(single_rows, multi_rows)

#: Real prose: each paragraph against the next one, and against itself with a fragment inserted.
REAL_PAIRS = [(PROSE[i], PROSE[i + 1]) for i in range(0, len(PROSE) - 1, 2)]
REAL_MUTATED = [
    (line, line[: (7 * i) % (len(line) + 1)] + FRAGMENTS[i % len(FRAGMENTS)] + line[(7 * i) % (len(line) + 1) :])
    for i, line in enumerate(PROSE)
]
REAL_MULTI = [(PROSE[i], [PROSE[i + 1], PROSE[i], PROSE[i + 2]]) for i in range(0, len(PROSE) - 2, 3)]


def whitespace_tokens(text: str) -> list[str]:
    """A custom tokenizer with empty tokens (not whitespace-free words), for the token-list paths."""
    return text.split(" ")


tokenizers: dict[str, Callable[[str], Any]] = {"split": str.split, "chars": list, "spaces": whitespace_tokens}


# --- bleu ------------------------------------------------------------------------------------------


@given(text_rows, st.integers(1, 6), st.booleans(), st.sampled_from([None, None, "split", "chars", "spaces"]))
def test_bleu_matches_script(rows, max_order, smooth, tokenizer):
    predictions, references = columns(rows)
    kwargs: dict[str, Any] = {"max_order": max_order, "smooth": smooth}
    if tokenizer:
        kwargs["tokenizer"] = tokenizers[tokenizer]
    assert_parity("bleu", predictions, references, **kwargs)


@pytest.mark.parametrize("rows", [REAL_PAIRS, REAL_MUTATED, REAL_MULTI], ids=["pairs", "mutated", "multi"])
@pytest.mark.parametrize("smooth", [False, True])
def test_bleu_real_corpora(rows, smooth):
    assert_parity("bleu", *columns(rows), smooth=smooth)


def test_bleu_documented_example():
    result = hf_evaluate.load("bleu").compute(
        predictions=["hello there general kenobi", "foo bar foobar"],
        references=[["hello there general kenobi", "hello there!"], ["foo bar foobar"]],
    )
    assert result == {
        "bleu": 1.0,
        "precisions": [1.0, 1.0, 1.0, 1.0],
        "brevity_penalty": 1.0,
        "length_ratio": 1.1666666666666667,
        "translation_length": 7,
        "reference_length": 6,
    }


def test_bleu_tokenizer_keeps_the_scripts_newline_handling():
    # sacrebleu strips the segment before 13a ("a-" stays); the script's tokenizer does not ("-\n" goes).
    assert_parity("bleu", ["a-\nb c", "x -\n"], ["ab c", "x"])


# --- sacrebleu ---------------------------------------------------------------------------------------


@given(
    stream_rows,
    st.sampled_from(["exp", "floor", "add-k", "none"]),
    st.sampled_from([None, None, 0.01, 2, 1.5]),
    st.booleans(),
    st.sampled_from([None, "", "13a", "intl", "char", "none"]),
    st.booleans(),
    st.booleans(),
)
def test_sacrebleu_matches_script(rows, smooth_method, smooth_value, lowercase, tokenize, effective, force):
    assert_parity("sacrebleu", *columns(rows), smooth_method=smooth_method, smooth_value=smooth_value,
                  lowercase=lowercase, tokenize=tokenize, use_effective_order=effective, force=force)  # fmt: skip


@pytest.mark.parametrize("rows", [REAL_PAIRS, REAL_MUTATED, REAL_MULTI], ids=["pairs", "mutated", "multi"])
def test_sacrebleu_real_corpora(rows):
    assert_parity("sacrebleu", *columns(rows))


# --- rouge -------------------------------------------------------------------------------------------

ROUGE_TYPES = st.sampled_from(
    [None, ["rouge1"], ["rougeL", "rougeLsum"], ["rouge2", "rouge3", "rouge9"], ["rougeLsum"], ["rouge1", "rouge1"]]
)
#: Several lines (rougeLsum sentences) of words that stem.
lines_text = st.lists(st.lists(st.sampled_from([*WORDS, "running", "runs", "happily", ""]), max_size=8).map(" ".join),
                      max_size=4).map("\n".join)  # fmt: skip
rouge_rows = st.one_of(text_rows, st.lists(st.tuples(lines_text, lines_text), min_size=1, max_size=5))


@given(rouge_rows, ROUGE_TYPES, st.booleans(), st.sampled_from([None, None, "split"]))
def test_rouge_per_row_matches_script(rows, rouge_types, use_stemmer, tokenizer):
    kwargs: dict[str, Any] = {"rouge_types": rouge_types, "use_aggregator": False, "use_stemmer": use_stemmer}
    if tokenizer:
        kwargs["tokenizer"] = tokenizers[tokenizer]
    assert_parity("rouge", *columns(rows), **kwargs)


# The bootstrap draws 1000 resamples per type on both sides: a tenth of the examples.
@settings(max_examples=max(20, settings().max_examples // 10))
@given(rouge_rows, ROUGE_TYPES, st.booleans(), st.sampled_from([None, None, "split"]), seeds)
def test_rouge_aggregated_matches_script(rows, rouge_types, use_stemmer, tokenizer, seed):
    kwargs: dict[str, Any] = {"rouge_types": rouge_types, "use_stemmer": use_stemmer}
    if tokenizer:
        kwargs["tokenizer"] = tokenizers[tokenizer]
    assert_parity("rouge", *columns(rows), seed=seed, **kwargs)


@pytest.mark.parametrize("rows", [REAL_PAIRS, REAL_MUTATED, REAL_MULTI], ids=["pairs", "mutated", "multi"])
@pytest.mark.parametrize("aggregate", [True, False])
def test_rouge_real_corpora(rows, aggregate):
    assert_parity("rouge", *columns(rows), seed=7, use_aggregator=aggregate, use_stemmer=True)


def test_rouge_default_seed_is_read_from_numpy_like_evaluate():
    outer = np.random.get_state()
    try:
        np.random.seed(12345)
        np.random.random(100)
        expected = reference.module_seed()
        module = hf_evaluate.load("rouge")
        assert module.seed == expected
        state = np.random.get_state()
        rows = REAL_PAIRS[:40]
        got = module.compute(predictions=[p for p, _ in rows], references=[r for _, r in rows])
        after = np.random.get_state()  # compute leaves the generator as it found it
        assert after[0] == state[0] and np.array_equal(after[1], state[1]) and after[2:] == state[2:]
        want = reference.reference_compute("rouge", expected, [p for p, _ in rows], [r for _, r in rows])
        assert canon(got) == canon(want)
    finally:
        np.random.set_state(outer)


# --- meteor ------------------------------------------------------------------------------------------


@given(text_rows, st.sampled_from([(0.9, 3, 0.5), (0.9, 3.0, 0.5), (0.5, 2, 0.25), (1, 1, 1), (0.1, 4.5, 0.0)]))
def test_meteor_matches_script(rows, params):
    alpha, beta, gamma = params
    assert_parity("meteor", *columns(rows), alpha=alpha, beta=beta, gamma=gamma)


@pytest.mark.parametrize("rows", [REAL_PAIRS, REAL_MUTATED, REAL_MULTI[:150]], ids=["pairs", "mutated", "multi"])
def test_meteor_real_corpora(rows):
    assert_parity("meteor", *columns(rows))


# --- chrf --------------------------------------------------------------------------------------------


@given(
    stream_rows,
    st.sampled_from([6, 6, 1, 2, 4, 9]),
    st.sampled_from([0, 0, 2, 1, 3]),
    st.sampled_from([2, 2, 1, 3, 0.5, 1.5]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_chrf_matches_script(rows, char_order, word_order, beta, lowercase, whitespace, eps_smoothing):
    assert_parity("chrf", *columns(rows), char_order=char_order, word_order=word_order, beta=beta,
                  lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps_smoothing)  # fmt: skip


@pytest.mark.parametrize("rows", [REAL_PAIRS, REAL_MUTATED, REAL_MULTI], ids=["pairs", "mutated", "multi"])
@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_real_corpora(rows, word_order):
    assert_parity("chrf", *columns(rows), word_order=word_order)


# --- ter ---------------------------------------------------------------------------------------------


@given(stream_rows, st.booleans(), st.booleans(), st.booleans(), st.booleans())
def test_ter_matches_script(rows, normalized, ignore_punct, support_zh_ja_chars, case_sensitive):
    assert_parity("ter", *columns(rows), normalized=normalized, ignore_punct=ignore_punct,
                  support_zh_ja_chars=support_zh_ja_chars, case_sensitive=case_sensitive)  # fmt: skip


# sacrebleu's TER (Python) takes seconds on long paragraphs: fewer rows.
@pytest.mark.parametrize("rows", [REAL_PAIRS[:40], REAL_MUTATED[:200], REAL_MULTI[:20]], ids=["pairs", "mut", "multi"])
def test_ter_real_corpora(rows):
    assert_parity("ter", *columns(rows), normalized=True)


# --- exact_match ---------------------------------------------------------------------------------------

#: Strings where numpy's fixed-width arrays matter: trailing NULs, lower() growing the string.
NUMPY_EDGES = ["a\x00", "a", "a\x00\x00", "İ", "i̇", "ǅİx", "ǆi̇", "ﬃ", "ß", "", " ", "\x00", "The Cat.", "the cat"]
EM_WORDS = [*NUMPY_EDGES, "cat?", "123", "agent007", "agent", "YELLING", "yelling"]
em_text = st.one_of(texts, word_text, st.sampled_from(EM_WORDS))
em_rows = st.one_of(
    st.lists(st.tuples(em_text, em_text), min_size=1, max_size=8),
    st.lists(em_text, min_size=1, max_size=8).map(
        lambda xs: [(x, x.upper() if i % 2 else x) for i, x in enumerate(xs)]
    ),
)
REGEXES = st.sampled_from(
    [None, None, [], ["the "], [r"\d"], [r"\d", "[aeiou]"], ["yell", "YELL"], [""], [r"\s+"], ["\x00"]]
)


@given(em_rows, REGEXES, st.booleans(), st.booleans(), st.booleans())
def test_exact_match_matches_script(rows, regexes_to_ignore, ignore_case, ignore_punctuation, ignore_numbers):
    assert_parity("exact_match", *columns(rows), regexes_to_ignore=regexes_to_ignore, ignore_case=ignore_case,
                  ignore_punctuation=ignore_punctuation, ignore_numbers=ignore_numbers)  # fmt: skip


def test_exact_match_documented_examples():
    em = hf_evaluate.load("exact_match")
    refs = ["the cat", "theater", "YELLING", "agent007"]
    preds = ["cat?", "theater", "yelling", "agent"]
    cases = [
        ({}, 0.25),
        ({"regexes_to_ignore": ["the ", "yell"], "ignore_case": True, "ignore_punctuation": True}, 0.5),
        ({"regexes_to_ignore": ["the ", "yell", "YELL"], "ignore_case": True, "ignore_punctuation": True}, 0.75),
        (
            {
                "regexes_to_ignore": ["the ", "yell", "YELL"],
                "ignore_case": True,
                "ignore_punctuation": True,
                "ignore_numbers": True,
            },
            1.0,
        ),
    ]
    for kwargs, expected in cases:
        result = em.compute(references=refs, predictions=preds, **kwargs)
        assert type(result["exact_match"]) is np.float64
        assert round(result["exact_match"], 2) == expected
    result = em.compute(
        references=["The cat sat on the mat.", "Theaters are great.", "It's like comparing oranges and apples."],
        predictions=["The cat sat on the mat?", "Theaters are great.", "It's like comparing apples and oranges."],
    )
    assert round(result["exact_match"], 2) == 0.33


def test_exact_match_real_corpus():
    lines = PROSE[:600]
    predictions = [line if i % 3 else line.upper() for i, line in enumerate(lines)]
    every = {"ignore_case": True, "ignore_punctuation": True, "regexes_to_ignore": ["the "]}
    for kwargs in ({}, {"ignore_case": True}, every):
        assert_parity("exact_match", predictions, lines, **kwargs)


# --- squad -------------------------------------------------------------------------------------------

QIDS = ["q1", "q2", "q3", "q4", "56e10a3be3433e1400422b22"]
#: Texts SQuAD normalises to nothing, or that promptflow's F1 would reject.
SQUAD_EDGES = ["None", "none", "NONE", "", " ", "\n\t", "the", "A", "an the", "...", "A. B. Smith", "1976", "U.S.A."]
squad_text = st.one_of(texts, word_text, st.sampled_from(SQUAD_EDGES))
squad_rows = st.lists(
    st.tuples(st.sampled_from(QIDS), squad_text, st.sampled_from(QIDS), st.lists(squad_text, min_size=1, max_size=3)),
    min_size=1,
    max_size=6,
)


def squad_inputs(rows: list[tuple[str, str, str, list[str]]]) -> tuple[list[dict], list[dict]]:
    predictions = [{"id": qid, "prediction_text": text} for qid, text, _, _ in rows]
    references = [{"id": qid, "answers": {"text": gold, "answer_start": [0] * len(gold)}} for _, _, qid, gold in rows]
    return predictions, references


@given(squad_rows)
def test_squad_matches_script(rows):
    assert_parity("squad", *squad_inputs(rows))


def test_squad_real_corpus(capsys):
    rng = random.Random(3)
    rows = []
    for i, line in enumerate(PROSE[:800]):
        words = line.split()
        start = rng.randrange(len(words)) if words else 0
        answer = " ".join(words[start : start + rng.randrange(1, 6)])
        prediction = " ".join(words[max(0, start - 1) : start + rng.randrange(1, 6)])
        rows.append((f"id{i}", prediction, f"id{i}", [answer, line[:20]]))
    rows.append(("missing", "x", "unanswered", ["y"]))
    predictions, references = squad_inputs(rows)
    assert_parity("squad", predictions, references)
    assert capsys.readouterr().err.count("Unanswered question unanswered will receive score 0.") == 2


def test_squad_documented_example():
    predictions = [{"prediction_text": "1976", "id": "56e10a3be3433e1400422b22"}]
    references = [{"answers": {"answer_start": [97], "text": ["1976"]}, "id": "56e10a3be3433e1400422b22"}]
    assert hf_evaluate.load("squad").compute(predictions=predictions, references=references) == {
        "exact_match": 100.0,
        "f1": 100.0,
    }


# --- the module API ----------------------------------------------------------------------------------


def test_documented_usage():
    from rapideval.compat import hf_evaluate as evaluate

    rouge = evaluate.load("rouge")
    results = rouge.compute(predictions=["hello there", "general kenobi"], references=["hello there", "general kenobi"])
    assert results == {"rouge1": 1.0, "rouge2": 1.0, "rougeL": 1.0, "rougeLsum": 1.0}
    assert all(type(v) is np.float64 for v in results.values())
    assert rouge.name == "rouge" and rouge.module_type == "metric"
    meteor = evaluate.load("meteor")
    results = meteor.compute(
        predictions=["It is a guide to action which ensures that the military always obeys the commands of the party"],
        references=["It is a guide to action that ensures that the military will forever heed Party commands"],
    )
    assert round(results["meteor"], 4) == 0.6944
    assert evaluate.load("evaluate-metric/chrf").name == "chr_f"


@pytest.mark.parametrize("name", list(reference.COMPUTE))
def test_add_batch_and_add_equal_one_compute(name):
    if name == "squad":
        predictions, references = squad_inputs([(f"q{i}", PROSE[i], f"q{i}", [PROSE[i + 1]]) for i in range(9)])
    else:
        predictions, references = PROSE[:9], PROSE[1:10]
    module = hf_evaluate.load(name, seed=5)
    module.add_batch(predictions=predictions[:4], references=references[:4])
    module.add(prediction=predictions[4], reference=references[4])
    assert len(module) == 5
    got = module.compute(predictions=predictions[5:], references=references[5:])
    assert len(module) == 0
    assert canon(got) == canon(reference.reference_compute(name, 5, predictions, references))
    module.add_batch(predictions=predictions, references=references)
    assert canon(module.compute()) == canon(got)


SQUAD_PRED = {"id": "1", "prediction_text": "a"}
SQUAD_REF = {"id": "1", "answers": {"text": ["a"]}}
BAD_CALLS = [
    ("rouge", {"predictions": ["a", "b"], "references": ["a"]}, ValueError, r"predictions \(2\) and references \(1\)"),
    ("bleu", {"predictions": ["a", 3], "references": ["a", "b"]}, TypeError, r"predictions\[1\]"),
    ("meteor", {"predictions": ["a", "b"], "references": ["a", None]}, TypeError, r"references\[1\]"),
    ("chrf", {"predictions": ["a", "b"], "references": [["a"], "b"]}, TypeError, r"references\[1\]"),
    ("ter", {"predictions": ["a", "b"], "references": [["a"], ["b", 2]]}, TypeError, r"references\[1\]\[1\]"),
    ("bleu", {"predictions": ["a"], "references": [[]]}, ValueError, r"references\[0\]"),
    ("sacrebleu", {"predictions": ["a", "b"], "references": [["a"], ["b", "c"]]}, ValueError, "same number of refer"),
    ("exact_match", {"predictions": ["a"], "references": [["a"]]}, TypeError, r"references\[0\]"),
    ("rouge", {"predictions": "abc", "references": ["a", "b", "c"]}, TypeError, "predictions"),
    ("rouge", {"predictions": [], "references": []}, ValueError, "no predictions"),
    ("rouge", {"predictions": ["a"]}, ValueError, "references is missing"),
    ("rouge", {"predictions": ["a"], "references": ["a"], "rouge_types": ["rouge0"]}, ValueError, "rouge0"),
    ("rouge", {"predictions": ["a"], "references": ["a"], "use_agregator": False}, TypeError, "use_agregator"),
    ("bleu", {"predictions": ["a"], "references": ["a"], "max_order": 0}, ValueError, "max_order"),
    (
        "squad",
        {"predictions": [{"id": "1"}], "references": [SQUAD_REF]},
        ValueError,
        r"predictions\[0\]: missing key 'prediction_text'",
    ),
    (
        "squad",
        {"predictions": [SQUAD_PRED], "references": [{"id": "1", "answers": {"text": [1]}}]},
        TypeError,
        r"references\[0\]\['answers'\]\['text'\]\[0\]",
    ),
    (
        "squad",
        {"predictions": [SQUAD_PRED], "references": [{"id": "1", "answers": {"text": []}}]},
        ValueError,
        r"references\[0\]",
    ),
    (
        "squad",
        {"predictions": [SQUAD_PRED], "references": [{"id": 1, "answers": {"text": ["a"]}}]},
        TypeError,
        r"references\[0\]\['id'\]",
    ),
]


@pytest.mark.parametrize(("name", "kwargs", "error", "match"), BAD_CALLS)
def test_bad_inputs_name_the_argument(name, kwargs, error, match):
    with pytest.raises(error, match=match):
        hf_evaluate.load(name).compute(**kwargs)


def test_load_rejects_what_it_does_not_provide():
    with pytest.raises(ValueError, match="unknown metric 'bertscore'"):
        hf_evaluate.load("bertscore")
    with pytest.raises(NotImplementedError):
        hf_evaluate.load("rouge", num_process=2)
    with pytest.raises(ValueError, match="module_type"):
        hf_evaluate.load("rouge", module_type="comparison")
