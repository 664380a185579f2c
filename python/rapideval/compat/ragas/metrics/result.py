"""Ragas 0.4.3 ``ragas.metrics.result``: :class:`MetricResult`, the result of ``ascore`` and ``score``."""

from __future__ import annotations

from .._result import MetricResult

__all__ = ["MetricResult"]
