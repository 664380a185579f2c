"""The docstring examples of nltk 3.10.4's ``nltk/translate/bleu_score.py``, ``gleu_score.py`` and
``meteor_score.py``, run against rapideval's modules of the same path.

Each example is read from the installed nltk module (``doctest.DocTestFinder``, so nothing is copied
or edited) and run twice: in a copy of nltk's module namespace and in a copy of ours, with the
examples' own option flags. Both runs must pass every example, and emit the same warnings. The
number of docstrings with examples is pinned, so that a change in how they are found cannot make
this test pass on nothing.
"""

from __future__ import annotations

import doctest
import importlib
import io
import warnings

import pytest

#: (nltk's module, ours, how many docstrings of nltk's module hold examples)
MODULES = [
    ("nltk.translate.bleu_score", "rapideval.compat.nltk.translate.bleu_score", 5),
    ("nltk.translate.gleu_score", "rapideval.compat.nltk.translate.gleu_score", 2),
    ("nltk.translate.meteor_score", "rapideval.compat.nltk.translate.meteor_score", 2),
]


def _docstrings(module_name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(module_name)
    found = doctest.DocTestFinder(exclude_empty=True).find(module)
    return sorted((t for t in found if t.examples), key=lambda t: t.name)


CASES = [
    pytest.param(nltk_name, ours_name, test.name, id=test.name)
    for nltk_name, ours_name, _ in MODULES
    for test in _docstrings(nltk_name)
]


@pytest.mark.parametrize(("nltk_name", "expected"), [(n, c) for n, _, c in MODULES])
def test_every_docstring_with_examples_is_run(nltk_name: str, expected: int) -> None:
    tests = _docstrings(nltk_name)
    assert len(tests) == expected, [t.name for t in tests]
    assert all(len(t.examples) > 0 for t in tests)


def _run(test: doctest.DocTest, module_name: str) -> tuple[doctest.TestResults, str, list[tuple[str, str]]]:
    """Runs ``test``'s examples in a copy of ``module_name``'s namespace: (results, report, warnings)."""
    namespace = dict(vars(importlib.import_module(module_name)))
    test = doctest.DocTest(test.examples, namespace, test.name, test.filename, test.lineno, test.docstring)
    report = io.StringIO()
    runner = doctest.DocTestRunner(verbose=False)
    with warnings.catch_warnings(record=True) as caught:
        # As nltk's own doctest runs: warnings are shown, not raised; both runs are compared below.
        warnings.simplefilter("always")
        results = runner.run(test, out=report.write, clear_globs=True)
    return results, report.getvalue(), [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize(("nltk_name", "ours_name", "name"), CASES)
def test_docstring_examples_pass_on_our_module(nltk_name: str, ours_name: str, name: str) -> None:
    test = next(t for t in _docstrings(nltk_name) if t.name == name)
    theirs, their_report, their_warnings = _run(test, nltk_name)
    assert theirs.failed == 0 and theirs.attempted == len(test.examples), their_report
    ours, our_report, our_warnings = _run(test, ours_name)
    assert ours.failed == 0 and ours.attempted == len(test.examples), our_report
    assert our_warnings == their_warnings
