"""Parity of :mod:`rapideval.compat.promptflow.evaluators`' deterministic evaluators with promptflow-evals
0.3.5's own: every output dict equal, same keys, same value types (nltk's and rouge-score's int ``0``
included), floats bit for bit, on 5,000+ cases per evaluator family (seeded generated text: prose,
fragments, Unicode, CJK, punctuation, newlines, empty strings; and the shipped example pairs), through
both ``__call__`` and the batch method ``evaluate`` uses; and promptflow's exception types on bad input."""

from __future__ import annotations

import asyncio
import inspect
import json
import pathlib
import random
import sys
from collections.abc import Callable
from importlib import resources
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import promptflow.evals.evaluators as pf
import pytest

import rapideval.compat.promptflow.evaluators as ours
from strategies import FRAGMENTS, PROSE, WORDS

# ---------------------------------------------------------------- cases

#: Code point ranges the generated text draws from (no surrogates: see test_lone_surrogate_is_rejected).
RANGES = [
    (0x20, 0x7E), (0x20, 0x7E), (0xA0, 0xFF), (0x00, 0x1F), (0x100, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF),
    (0x2000, 0x206F), (0x3000, 0x303F), (0x3040, 0x30FF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0x1F300, 0x1F64F),
]  # fmt: skip
SEPARATORS = ["", " ", " ", " ", "  ", "\n", "\t", "\xa0", "\u3000", ", ", ". "]


def _random_text(rng: random.Random) -> str:
    lo, hi = rng.choice(RANGES)
    return "".join(chr(rng.randint(lo, hi)) if rng.random() < 0.8 else " " for _ in range(rng.randint(0, 25)))


def _pieces(rng: random.Random, vocabulary: list[str], n: int) -> str:
    return "".join(rng.choice(vocabulary) + rng.choice(SEPARATORS) for _ in range(n))


def _text(rng: random.Random) -> str:
    kind = rng.randrange(9)
    if kind == 0:
        return rng.choice(["", " ", "\n", "\t ", "None", ".", "the", "a an the", "?!"])
    if kind == 1:
        return rng.choice(PROSE)
    if kind == 2:
        line, cut = rng.choice(PROSE), rng.randint(0, 120)
        return line[:cut] + rng.choice(FRAGMENTS) + line[cut:]
    if kind == 3:
        return _pieces(rng, FRAGMENTS, rng.randint(0, 14))
    if kind == 4:
        return _random_text(rng)
    if kind == 5:
        return _pieces(rng, WORDS + [",", ".", "!", "?", "'s", "n't"], rng.randint(0, 25))
    if kind == 6:
        cjk = ["日本語", "です", "。", "中文", "，", "测试", "Привет", "мир", "😀", "café"]
        return _pieces(rng, cjk, rng.randint(0, 8))
    if kind == 7:
        return " ".join(rng.choice(PROSE).split()[: rng.randint(1, 12)]) + rng.choice(["", ".", "\n", " ..."])
    return _pieces(rng, WORDS[:8], rng.randint(1, 10)).strip()


def _overlapping(rng: random.Random, text: str) -> str:
    """A text sharing words with ``text``: shuffled, cut, with a fragment swapped in."""
    words = text.split(" ")
    rng.shuffle(words)
    words = words[: rng.randint(0, len(words))]
    if words and rng.random() < 0.5:
        words[rng.randrange(len(words))] = rng.choice(FRAGMENTS + WORDS)
    return rng.choice([" ", "  ", "\n"]).join(words)


def _example_pairs() -> list[tuple[str, str]]:
    """The shipped example dataset's (response, reference) pairs: real prose and rewrites of it."""
    with resources.as_file(resources.files("rapideval") / "data" / "example.jsonl") as p:
        rows = [json.loads(line) for line in p.read_text(encoding="utf8").splitlines() if line.strip()]
    return [(r["response"], r["reference"]) for r in rows]


def cases(n: int, seed: int) -> list[tuple[str, str]]:
    """``n`` (answer, ground_truth) pairs: the example pairs (real), then seeded generated ones, a third
    of them overlapping, a few equal."""
    rng = random.Random(seed)
    out = _example_pairs()[: n // 10]
    while len(out) < n:
        answer = _text(rng)
        roll = rng.random()
        truth = answer if roll < 0.05 else _overlapping(rng, answer) if roll < 0.4 else _text(rng)
        out.append((answer, truth) if rng.random() < 0.5 else (truth, answer))
    return out


# ---------------------------------------------------------------- comparison


def _image(value: Any) -> Any:
    """Type and exact bits: a dict's keys with each value's type name and float hex."""
    if isinstance(value, dict):
        return {k: (type(v).__name__, v.hex() if isinstance(v, float) else v) for k, v in value.items()}
    return ("raise", type(value).__name__)


def _reference(evaluator: Callable[..., Any], answer: Any, truth: Any) -> Any:
    try:
        return evaluator(answer=answer, ground_truth=truth)
    except Exception as e:  # noqa: BLE001 - the exception type is the compared outcome
        return e


def _ours(evaluator: Callable[..., Any], answer: Any, truth: Any) -> Any:
    try:
        return evaluator(answer=answer, ground_truth=truth)
    except (TypeError, ValueError, AttributeError) as e:
        return e


def _reference_rows(reference: Any, pairs: list[tuple[str, str]]) -> list[Any]:
    """promptflow's outputs (or exceptions) on many pairs: its async evaluator, the code its ``__call__``
    and its ``evaluate`` run, awaited in one event loop (``__call__`` starts one per call)."""
    evaluator = reference._to_async()

    async def score(answer: str, truth: str) -> Any:
        try:
            return await evaluator(answer=answer, ground_truth=truth)
        except Exception as e:  # noqa: BLE001 - the exception type is the compared outcome
            return e

    async def score_all() -> list[Any]:
        return [await score(a, g) for a, g in pairs]

    return asyncio.run(score_all())


def assert_same(reference: Any, mine: Any, pairs: list[tuple[str, str]]) -> None:
    """``mine`` gives ``reference``'s dict (or exception type) on every pair, by ``__call__`` and in one
    batch call."""
    want = [_image(r) for r in _reference_rows(reference, pairs)]
    batch = mine.rapideval_batch([{"answer": a, "ground_truth": g} for a, g in pairs])
    for i, (a, g) in enumerate(pairs):
        assert _image(batch[i]) == want[i], (a, g)
        assert _image(_ours(mine, a, g)) == want[i], (a, g)


# ---------------------------------------------------------------- parity: 5,000+ cases per family

N = 5000


def test_bleu() -> None:
    pairs = cases(N, 1)
    assert_same(pf.BleuScoreEvaluator(), ours.BleuScoreEvaluator(), pairs)


def test_gleu() -> None:
    assert_same(pf.GleuScoreEvaluator(), ours.GleuScoreEvaluator(), cases(N, 2))


@pytest.mark.parametrize(("params", "share"), [((), 0.6), ((0.5, 2.0, 0.25), 0.2), ((1.0, 1, 0), 0.2)])
def test_meteor(params: tuple[float, ...], share: float) -> None:
    # 5,000 cases over the default and two other (alpha, beta, gamma).
    assert_same(pf.MeteorScoreEvaluator(*params), ours.MeteorScoreEvaluator(*params), cases(int(N * share), 3))


@pytest.mark.parametrize("rouge_type", [*pf.RougeType, "rougeLsum"])
def test_rouge(rouge_type: Any) -> None:
    # 1,000 cases per type: each RougeType (promptflow's enum; ours is checked by name below) and rougeLsum.
    mine = ours.RougeScoreEvaluator(ours.RougeType(rouge_type) if isinstance(rouge_type, pf.RougeType) else rouge_type)
    assert_same(pf.RougeScoreEvaluator(rouge_type), mine, cases(1000, 4))


def test_f1() -> None:
    assert_same(pf.F1ScoreEvaluator(), ours.F1ScoreEvaluator(), cases(N, 5))


def test_rouge_type_matches_promptflow() -> None:
    assert [(m.name, m.value) for m in ours.RougeType] == [(m.name, m.value) for m in pf.RougeType]
    assert issubclass(ours.RougeType, str)
    assert ours.RougeScoreEvaluator(pf.RougeType.ROUGE_L)(answer="a b", ground_truth="a c")["rouge_f1_score"] == 0.5


# ---------------------------------------------------------------- edge values and bad input

EVALUATORS = [
    (pf.BleuScoreEvaluator, ours.BleuScoreEvaluator, ()),
    (pf.GleuScoreEvaluator, ours.GleuScoreEvaluator, ()),
    (pf.MeteorScoreEvaluator, ours.MeteorScoreEvaluator, ()),
    (pf.RougeScoreEvaluator, ours.RougeScoreEvaluator, ("rougeL",)),
    (pf.RougeScoreEvaluator, ours.RougeScoreEvaluator, ("rouge2",)),
    (pf.F1ScoreEvaluator, ours.F1ScoreEvaluator, ()),
]

EDGE_PAIRS = [
    ("", ""), ("a", ""), ("", "a"), (" ", "\n"), ("None", "None"), ("x", "y " * 400), ("y " * 400, "y"),
    ("Tokyo is the capital of Japan.", "The capital of Japan is Tokyo."), ("日本語です。", "日本語"),
    ("the a an", "The cat"), ("\x00\x1f", "\x7f"), ("😀 😀", "😀"), ("can't won't", "can not will not"),
]  # fmt: skip


@pytest.mark.parametrize(("theirs", "mine", "args"), EVALUATORS)
def test_edge_values(theirs: Any, mine: Any, args: tuple[Any, ...]) -> None:
    assert_same(theirs(*args), mine(*args), EDGE_PAIRS)
    reference, evaluator = theirs(*args), mine(*args)
    for a, g in EDGE_PAIRS + cases(100, 6):  # promptflow's public __call__ as well
        assert _image(_ours(evaluator, a, g)) == _image(_reference(reference, a, g)), (a, g)


BAD_VALUES = [None, 0, 1, 1.5, True, False, [], ["a", "b"], {"a": 1}, (), b"abc"]


@pytest.mark.parametrize(("theirs", "mine", "args"), EVALUATORS)
@pytest.mark.parametrize("field", ["answer", "ground_truth"])
def test_bad_input_raises_promptflows_type_naming_evaluator_and_field(
    theirs: Any, mine: Any, args: tuple[Any, ...], field: str
) -> None:
    reference, evaluator = theirs(*args), mine(*args)
    for value in BAD_VALUES:
        if mine is ours.RougeScoreEvaluator and isinstance(value, bytes):
            continue  # promptflow's rouge-score decodes bytes; rapideval rejects them (see below)
        kwargs = {"answer": "a b c", "ground_truth": "a b c", field: value}
        want = _reference(reference, kwargs["answer"], kwargs["ground_truth"])
        assert isinstance(want, Exception), value
        with pytest.raises(type(want)) as caught:
            evaluator(**kwargs)
        assert type(caught.value) is type(want)
        assert str(caught.value).startswith(f"{type(evaluator).__name__}: {field} "), caught.value


def test_both_fields_bad_fails_on_the_field_promptflow_reads_first() -> None:
    with pytest.raises(TypeError, match="BleuScoreEvaluator: ground_truth"):
        ours.BleuScoreEvaluator()(answer=None, ground_truth=None)
    with pytest.raises(ValueError, match="F1ScoreEvaluator: answer"):
        ours.F1ScoreEvaluator()(answer="", ground_truth="")


@pytest.mark.parametrize(("theirs", "mine", "args"), EVALUATORS)
def test_lone_surrogate_is_rejected(theirs: Any, mine: Any, args: tuple[Any, ...]) -> None:
    # A deliberate difference: promptflow tokenizes a lone surrogate, rapideval's kernels take valid Unicode.
    with pytest.raises(ValueError, match="answer contains a lone surrogate"):
        mine(*args)(answer="a \ud800 b", ground_truth="a b")
    assert isinstance(theirs(*args)(answer="a \ud800 b", ground_truth="a b"), dict)


def test_rouge_rejects_bytes() -> None:
    with pytest.raises(TypeError, match="RougeScoreEvaluator: answer must be a str, got bytes"):
        ours.RougeScoreEvaluator("rouge1")(answer=b"a b", ground_truth="a b")


def test_batch_mixes_good_and_bad_rows() -> None:
    rows = [{"answer": "a b", "ground_truth": "a b"}, {"answer": "", "ground_truth": "x"},
            {"answer": None, "ground_truth": "x"}, {"answer": "c", "ground_truth": "c d", "extra": 1}]  # fmt: skip
    got = ours.F1ScoreEvaluator().rapideval_batch(rows)
    assert got[0] == {"f1_score": 1.0} and got[3] == pf.F1ScoreEvaluator()(**rows[3])
    assert isinstance(got[1], ValueError) and isinstance(got[2], ValueError)
    assert ours.BleuScoreEvaluator().rapideval_batch([]) == []


def test_constructor_errors() -> None:
    with pytest.raises(ValueError, match="RougeScoreEvaluator: Invalid rouge type: rougeX"):
        ours.RougeScoreEvaluator("rougeX")
    with pytest.raises(TypeError, match="MeteorScoreEvaluator: beta must be a number"):
        ours.MeteorScoreEvaluator(beta="3")


def _parameters(function: Any) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


def test_constructor_and_call_parameters_match_promptflow() -> None:
    for theirs, mine, args in EVALUATORS:
        assert _parameters(mine) == _parameters(theirs)
        assert _parameters(mine(*args)) == _parameters(theirs(*args))
