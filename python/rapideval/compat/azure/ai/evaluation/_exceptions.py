"""``rapideval.compat.azure.ai.evaluation._exceptions``: :mod:`rapideval.compat.azure._exceptions` under azure's
module path."""

from __future__ import annotations

from ..._exceptions import *  # noqa: F403
from ..._exceptions import __all__ as __all__
