"""``rapideval.compat.azure.ai.evaluation``: :mod:`rapideval.compat.azure` under azure's module path."""

from __future__ import annotations

from ... import *  # noqa: F403
from ... import __all__ as __all__
