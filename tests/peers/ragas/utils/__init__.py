# Copied from the ragas 0.4.3 source distribution (ragas-0.4.3.tar.gz: tests/utils/__init__.py).
# Copyright 2023 Vibrant Labs; Apache License, Version 2.0 (ragas's LICENSE); the file has no header of its own.
# Only the import lines were changed (to test rapideval's drop-in); nothing else.
"""Shared test utilities for Ragas tests.

This module provides reusable utilities for both pytest tests and Jupyter notebooks,
including LLM setup, embeddings configuration, and common test helpers.
"""

from .llm_setup import (
    check_api_key,
    create_legacy_embeddings,
    create_legacy_llm,
    create_modern_embeddings,
    create_modern_llm,
)
from .metric_comparison import (
    MetricDiffResult,
    compare_metrics,
    export_comparison_results,
    run_metric_on_dataset,
    run_metric_on_dataset_with_batching,
)

__all__ = [
    # LLM and embeddings setup
    "check_api_key",
    "create_legacy_llm",
    "create_modern_llm",
    "create_legacy_embeddings",
    "create_modern_embeddings",
    # Metric comparison utilities
    "MetricDiffResult",
    "compare_metrics",
    "export_comparison_results",
    "run_metric_on_dataset",
    "run_metric_on_dataset_with_batching",
]
