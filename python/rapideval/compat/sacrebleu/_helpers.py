"""sacrebleu 2.6.0's two numeric helpers (``sacrebleu.utils.my_log`` and ``sum_of_lists``), used where
scores are computed from statistics that sacrebleu itself hands around (``compute_bleu``, resampled
statistics in ``significance``): there only the same Python operations on the same (possibly numpy)
values give sacrebleu's last bits, so they are sacrebleu's operations, one for one.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["my_log", "sum_of_lists"]


def my_log(num: float) -> float:
    """``sacrebleu.utils.my_log``: ``math.log``, with ``-9999999999`` for 0."""
    if num == 0.0:
        return -9999999999
    return math.log(num)


def sum_of_lists(lists: Any) -> Any:
    """``sacrebleu.utils.sum_of_lists``: the element-wise sum, left to right, in the type of the first
    value (a single list is returned as it is, not copied)."""
    if len(lists) == 1:
        return lists[0]
    size = len(lists[0])
    init_val = type(lists[0][0])(0.0)
    total = [init_val] * size
    for ll in lists:
        for i in range(size):
            total[i] += ll[i]
    return total
