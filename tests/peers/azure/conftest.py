"""Puts the entries of ../README.md for this folder into effect (see ``peers._readme``): the listed
deselections and warning allowances, nothing else.

Also (ours, not azure's): registers the markers azure's tests use (``unittest``, ``localtest``, ``azuretest``,
``performance_test``; this repository runs pytest with ``--strict-markers``), and stands in for the fixtures of
azure-ai-evaluation's ``tests/conftest.py`` that the copied tests name (azure's needs ``devtools_testutils``,
the Azure SDK's test proxy, which records and replays Azure traffic): ``mock_model_config`` and
``model_config`` (azure's ``model_config`` is ``mock_model_config`` outside live runs), with azure's values, and
``recording_injection`` and ``recorded_test``, which do nothing here, as no copied test that runs reaches a
service. And, as azure's ``tests/unittests`` is no package, its tests import ``test_evaluators.test_inputs_evaluators``
as a top-level module: that name is bound to the copy in ``unittests/test_evaluators/``.
"""

from __future__ import annotations

import gc
import pathlib
import sys
from collections.abc import Iterator

import pytest

from rapideval.compat.azure import AzureOpenAIModelConfiguration

from .._readme import apply
from .unittests import test_evaluators
from .unittests.test_evaluators import test_inputs_evaluators

HERE = pathlib.Path(__file__).resolve().parent

MARKERS = {
    "unittest": "azure-ai-evaluation's unit tests",
    "localtest": "azure-ai-evaluation's e2e tests that run locally",
    "azuretest": "azure-ai-evaluation's e2e tests that reach Azure",
    "performance_test": "azure-ai-evaluation's timed tests",
}

sys.modules.setdefault("test_evaluators", test_evaluators)
sys.modules.setdefault("test_evaluators.test_inputs_evaluators", test_inputs_evaluators)


def pytest_configure(config: pytest.Config) -> None:
    for name, description in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {description}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    apply(config, items, HERE)


@pytest.fixture(scope="session")
def mock_model_config() -> AzureOpenAIModelConfiguration:
    return AzureOpenAIModelConfiguration(
        azure_endpoint="https://Sanitized.api.cognitive.microsoft.com",
        api_key="aoai-api-key",
        api_version="2023-07-01-preview",
        azure_deployment="aoai-deployment",
    )


@pytest.fixture(scope="session")
def model_config(mock_model_config: AzureOpenAIModelConfiguration) -> AzureOpenAIModelConfiguration:
    return mock_model_config


@pytest.fixture
def recording_injection() -> Iterator[None]:
    yield


@pytest.fixture
def recorded_test() -> Iterator[None]:
    yield


@pytest.fixture(autouse=True)
def collect_garbage() -> Iterator[None]:
    yield
    gc.collect()
