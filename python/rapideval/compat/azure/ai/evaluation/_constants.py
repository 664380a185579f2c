"""``rapideval.compat.azure.ai.evaluation._constants``: :mod:`rapideval.compat.azure._constants` under azure's
module path."""

from __future__ import annotations

from ..._constants import *  # noqa: F403
from ..._constants import __all__ as __all__
