"""promptflow-evals 0.3.5 ``promptflow.evals.evaluators``: every evaluator class with promptflow's
constructor, call keywords and output keys, and :class:`EvaluatorError` (a ``ValueError``), raised where
promptflow gives NaN."""

from __future__ import annotations

from ..base import EvaluatorError
from .lexical import *  # noqa: F403
from .lexical import __all__ as _lexical
from .quality import *  # noqa: F403
from .quality import __all__ as _quality
from .safety import *  # noqa: F403
from .safety import __all__ as _safety

__all__ = ["EvaluatorError", *_lexical, *_quality, *_safety]
