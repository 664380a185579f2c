"""Puts the entries of ../README.md for this folder into effect (see ``peers._readme``): the listed
deselections and warning allowances, nothing else."""

from __future__ import annotations

import pathlib

import pytest

from .._readme import apply

HERE = pathlib.Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    apply(config, items, HERE)
