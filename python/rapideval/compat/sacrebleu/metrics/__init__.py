"""``sacrebleu.metrics`` of sacrebleu 2.6.0: ``BLEU``, ``CHRF``, ``TER``, their score classes and
``METRICS`` (name to class), bit for bit sacrebleu's on its 0-100 scale (see the submodules)."""

from __future__ import annotations

from .bleu import BLEU, BLEUScore
from .chrf import CHRF, CHRFScore
from .ter import TER, TERScore

__all__ = ["BLEU", "CHRF", "METRICS", "TER", "BLEUScore", "CHRFScore", "TERScore"]

METRICS = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}
