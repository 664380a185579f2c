"""Puts the entries of ../README.md for this folder into effect (see ``peers._readme``): the listed
deselections and warning allowances, nothing else.

Also: sacrebleu's test_significance.py reads ``./test/wmt17_en_de_systems.pkl.bz2`` (relative to the
working directory, sacrebleu's repository root) when its module is imported. The file, from sacrebleu
2.6.0's source distribution, is kept at the same path below this folder, and this folder is the
working directory while that module is imported, so the test file runs unchanged.
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Generator
from typing import Any

import pytest

from .._readme import apply

HERE = pathlib.Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    apply(config, items, HERE)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, Any]:
    if not (isinstance(collector, pytest.Module) and collector.path == HERE / "test_significance.py"):
        return (yield)
    cwd = os.getcwd()
    os.chdir(HERE)
    try:
        return (yield)
    finally:
        os.chdir(cwd)
