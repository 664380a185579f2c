"""What the copied tests import from azure-ai-evaluation's private modules at import time and rapideval does not
provide (see ../README.md): stand-ins, so that the files import without importing azure itself."""

from __future__ import annotations

import importlib.util
from typing import Any

#: azure's ``_legacy._adapters._check.MISSING_LEGACY_SDK`` (whether the promptflow SDK is missing), a ``skipif``
#: condition of two tests, both deselected in ../README.md: computed as azure computes it.
MISSING_LEGACY_SDK = importlib.util.find_spec("promptflow") is None


class EvaluatorBase:
    """azure's private ``_evaluators._common.EvaluatorBase`` (the base of its evaluators' machinery), which the
    copied ``test_inputs_evaluators.py`` subclasses for ``CountingEval``; only tests deselected in ../README.md
    use that class. rapideval has no such base: making one raises."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("rapideval.compat.azure has no EvaluatorBase: azure's evaluator machinery is not "
                                  "reproduced")
