"""The examples in the docstrings of Hugging Face evaluate 0.4.6's metric scripts, for every metric
:mod:`rapideval.compat.hf_evaluate` provides, run against it.

evaluate's package holds no metric script (``evaluate.load`` fetches them from the Hub), so the text that
holds a script's examples, its ``_KWARGS_DESCRIPTION`` (which evaluate puts at the head of the metric
class's docstring), is copied unchanged into ``metrics/<name>.py`` here, with its licence and provenance,
and read with ``ast`` (nothing of it is imported). evaluate's own suite runs these examples with
``doctest.testmod`` on the script's module, default option flags, ``evaluate.load`` patched to load the
local script. Here they run the same way (``doctest``, default option flags) in a namespace whose
``evaluate`` is ``rapideval.compat.hf_evaluate``: the migration guide's one changed line, ``from
rapideval.compat import hf_evaluate as evaluate``, so every example, its ``evaluate.load("bleu")``
included, runs as written.

Each docstring runs a second time with an ``evaluate`` whose ``load(name).compute(...)`` is the scripts'
computation (tests/hf_evaluate_reference.py, the parity tests' reference). Both runs must pass every
example, and every dict ``compute`` returns must be the same in both: keys, order, types, floats bit for
bit.

numpy: the printed values date from numpy 1. ``print(results)`` of a dict of numpy floats shows
``np.float64(1.0)`` under numpy 2 (NEP 51), evaluate's own result included, so the examples run under
``numpy.printoptions(legacy="1.25")``. :func:`test_numpy_2_repr_is_the_only_difference` runs them without
it: exactly the examples in :data:`NUMPY_2_REPR` fail, in both runs, and by that repr alone.

The number of examples per docstring is pinned, so that a change in how they are read cannot make these
tests pass on nothing.
"""

from __future__ import annotations

import ast
import doctest
import io
import math
import pathlib
import re
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from rapideval.compat import hf_evaluate

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
import hf_evaluate_reference as reference  # noqa: E402

#: Each metric rapideval.compat.hf_evaluate provides: how many examples its script's docstring holds.
METRICS = {
    "bleu": 5,
    "sacrebleu": 12,
    "rouge": 5,
    "meteor": 5,
    "chrf": 15,
    "ter": 25,
    "exact_match": 25,
    "squad": 5,
}

#: The examples (metric, index) whose printed text is numpy 1's: rouge's ``print(results)``, a dict of
#: numpy floats (rouge-score's ``BootstrapAggregator`` values, evaluate's types).
NUMPY_2_REPR = {("rouge", 4)}


def _docstring(name: str) -> doctest.DocTest:
    """The examples of ``metrics/<name>.py``'s ``_KWARGS_DESCRIPTION``, line numbers those of that file."""
    path = HERE / "metrics" / f"{name}.py"
    tree = ast.parse(path.read_text(encoding="utf8"))
    [node] = [
        n
        for n in tree.body
        if isinstance(n, ast.Assign) and [getattr(t, "id", None) for t in n.targets] == ["_KWARGS_DESCRIPTION"]
    ]
    text = ast.literal_eval(node.value)
    return doctest.DocTestParser().get_doctest(text, {}, f"{name}._KWARGS_DESCRIPTION", str(path), node.lineno - 1)


class _Runner(doctest.DocTestRunner):
    """doctest's runner, keeping each failure as (example index, want, got)."""

    def __init__(self) -> None:
        super().__init__(verbose=False)
        self.failed_examples: list[tuple[int, str, str]] = []

    def report_failure(self, out: Any, test: doctest.DocTest, example: doctest.Example, got: str) -> None:
        self.failed_examples.append((test.examples.index(example), example.want, got))
        super().report_failure(out, test, example, got)


def _run(
    test: doctest.DocTest, evaluate: Any, legacy_printing: bool = True
) -> tuple[doctest.TestResults, str, list[tuple[int, str, str]]]:
    """Runs ``test``'s examples with ``evaluate`` as their ``evaluate``: (results, report, failures).
    numpy's global generator is seeded for the run (the modules take their seed from it) and restored."""
    test = doctest.DocTest(test.examples, {"evaluate": evaluate}, test.name, test.filename, test.lineno, test.docstring)
    report = io.StringIO()
    runner = _Runner()
    state = np.random.get_state()
    np.random.seed(0)
    try:
        with np.printoptions(legacy="1.25" if legacy_printing else False):
            results = runner.run(test, out=report.write, clear_globs=True)
    finally:
        np.random.set_state(state)
    return results, report.getvalue(), runner.failed_examples


@contextmanager
def _ours(results: list[dict[str, Any]]) -> Iterator[types.ModuleType]:
    """``rapideval.compat.hf_evaluate`` itself, each ``compute`` result appended to ``results``."""
    compute = hf_evaluate.EvaluationModule.compute

    def recording(self: hf_evaluate.EvaluationModule, **kwargs: Any) -> dict[str, Any]:
        result = compute(self, **kwargs)
        results.append(result)
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hf_evaluate.EvaluationModule, "compute", recording)
        yield hf_evaluate


def _theirs(results: list[dict[str, Any]]) -> Any:
    """An ``evaluate`` whose ``load(name).compute(...)`` is the script's computation, under the seed evaluate
    gives the module (read from numpy's generator at ``load``); each result appended to ``results``."""

    def load(path: str) -> Any:
        seed = reference.module_seed()

        def compute(*, predictions: Any, references: Any, **kwargs: Any) -> dict[str, Any]:
            result = reference.reference_compute(path, seed, predictions, references, **kwargs)
            results.append(result)
            return result

        return types.SimpleNamespace(compute=compute)

    return types.SimpleNamespace(load=load)


def canon(x: Any) -> Any:
    """A result as nested tuples of (type name, exact value); floats as bit patterns."""
    if isinstance(x, dict):
        return ("dict", tuple((k, canon(v)) for k, v in x.items()))
    if isinstance(x, list):
        return ("list", tuple(canon(v) for v in x))
    if isinstance(x, (float, np.floating)):
        return (type(x).__name__, "nan" if math.isnan(x) else float(x).hex())
    return (type(x).__name__, x)


def test_every_metric_of_the_facade_is_covered() -> None:
    exported = [getattr(hf_evaluate, n) for n in hf_evaluate.__all__]
    modules = {c for c in exported if isinstance(c, type) and issubclass(c, hf_evaluate.EvaluationModule)}
    modules.discard(hf_evaluate.EvaluationModule)
    assert {type(hf_evaluate.load(name)) for name in METRICS} == modules


@pytest.mark.parametrize(("name", "expected"), METRICS.items())
def test_every_example_is_read(name: str, expected: int) -> None:
    test = _docstring(name)
    assert len(test.examples) == expected
    source = "".join(e.source for e in test.examples)
    # The examples reach evaluate by its load only, and load this metric.
    assert set(re.findall(r"\bevaluate\.\w+\(", source)) == {"evaluate.load("}
    assert {m[1] for m in re.findall(r"evaluate\.load\((['\"])(\w+)\1\)", source)} == {name}
    assert source.count("evaluate.load(") == len(re.findall(r"evaluate\.load\((['\"])\w+\1\)", source))


@pytest.mark.parametrize("name", METRICS)
def test_docstring_examples(name: str) -> None:
    test = _docstring(name)
    ours: list[dict[str, Any]] = []
    with _ours(ours) as evaluate:
        results, report, _ = _run(test, evaluate)
    assert results.failed == 0 and results.attempted == len(test.examples), report
    theirs: list[dict[str, Any]] = []
    results, report, _ = _run(test, _theirs(theirs))
    assert results.failed == 0 and results.attempted == len(test.examples), report
    assert len(ours) == sum(".compute(" in e.source for e in test.examples) > 0
    assert [canon(r) for r in ours] == [canon(r) for r in theirs]


def _numpy_1_text(got: str) -> str:
    return re.sub(r"np\.float64\(([^()]*)\)", r"\1", got)


@pytest.mark.parametrize("which", ["ours", "theirs"])
def test_numpy_2_repr_is_the_only_difference(which: str) -> None:
    failed: set[tuple[str, int]] = set()
    for name in METRICS:
        test = _docstring(name)
        results: list[dict[str, Any]] = []
        if which == "ours":
            with _ours(results) as evaluate:
                outcome, report, failures = _run(test, evaluate, legacy_printing=False)
        else:
            outcome, report, failures = _run(test, _theirs(results), legacy_printing=False)
        assert outcome.attempted == len(test.examples), report
        for index, want, got in failures:
            assert got != want and _numpy_1_text(got) == want, report
            failed.add((name, index))
    assert failed == NUMPY_2_REPR
