# Copied from the ragas 0.4.3 source distribution (ragas-0.4.3.tar.gz: tests/e2e/metrics_migration/conftest.py).
# Copyright 2023 Vibrant Labs; Apache License, Version 2.0 (ragas's LICENSE); the file has no header of its own.
# Only the import lines were changed (to test rapideval's drop-in); nothing else.
"""Common fixtures for metrics migration E2E tests.

This module provides pytest fixtures that wrap the shared utility functions
from tests.utils.llm_setup for use in E2E migration tests.
"""

import pytest

from ...utils import (
    create_legacy_embeddings,
    create_legacy_llm,
    create_modern_embeddings,
    create_modern_llm,
)


@pytest.fixture
def legacy_llm():
    """Create a test LLM for legacy metric evaluation.

    Uses legacy llm_factory for legacy implementation.
    Skips if LLM factory is not available or API key is missing.
    """
    try:
        return create_legacy_llm("gpt-3.5-turbo")
    except Exception as e:
        pytest.skip(str(e))


@pytest.fixture
def modern_llm():
    """Create a modern LLM for v2 implementation.

    Uses llm_factory with OpenAI client.
    Skips if LLM factory is not available or API key is missing.
    """
    try:
        return create_modern_llm("openai", model="gpt-3.5-turbo")
    except Exception as e:
        pytest.skip(str(e))


@pytest.fixture
def legacy_embeddings():
    """Create legacy embeddings for legacy implementation.

    Uses legacy embedding_factory interface.
    Skips if embedding factory is not available or API key is missing.
    """
    try:
        return create_legacy_embeddings("text-embedding-ada-002")
    except Exception as e:
        pytest.skip(str(e))


@pytest.fixture
def modern_embeddings():
    """Create modern embeddings for v2 implementation.

    Uses modern interface with explicit provider and client.
    Skips if OpenAI or embedding factory is not available or API key is missing.
    """
    try:
        return create_modern_embeddings(
            provider="openai",
            model="text-embedding-ada-002",
        )
    except Exception as e:
        pytest.skip(str(e))
