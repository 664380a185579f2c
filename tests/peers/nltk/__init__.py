# Copied from the nltk 3.10.4 source distribution (nltk-3.10.4.tar.gz: nltk/test/unit/__init__.py).
# Copyright (C) 2001-2026 NLTK Project; Apache License, Version 2.0 (nltk's LICENSE.txt).
# Unchanged: it gives the copied tests nltk's _mp_ctx (`from .. import _mp_ctx`).
import multiprocessing
import sys


def _mp_ctx():
    """Return multiprocessing context suitable for tests on this platform."""
    # macOS/Windows: prefer spawn for stability with pooled workers.
    if sys.platform.startswith("win") or sys.platform == "darwin":
        return multiprocessing.get_context("spawn")

    # Other platforms: prefer fork when available, else fall back to spawn.
    available = set(multiprocessing.get_all_start_methods())
    method = "fork" if "fork" in available else "spawn"
    return multiprocessing.get_context(method)
