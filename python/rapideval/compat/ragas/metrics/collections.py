"""``ragas.metrics.collections``: the same classes as :mod:`rapideval.compat.ragas.metrics` (Ragas's
collections API takes ``llm=`` and ``await metric.ascore(**fields)`` as they do)."""

from __future__ import annotations

from . import *  # noqa: F403
from . import __all__  # noqa: F401
