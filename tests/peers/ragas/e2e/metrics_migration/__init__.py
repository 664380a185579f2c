# Copied from the ragas 0.4.3 source distribution (ragas-0.4.3.tar.gz: tests/e2e/metrics_migration/__init__.py).
# Copyright 2023 Vibrant Labs; Apache License, Version 2.0 (ragas's LICENSE); the file has no header of its own.
# Only the import lines were changed (to test rapideval's drop-in); nothing else.
"""E2E tests for metric migrations from legacy (class-based) to v2 (decorator-based) implementations.

These tests require real LLM and embedding providers to run actual comparisons between
legacy and v2 metric implementations.
"""
