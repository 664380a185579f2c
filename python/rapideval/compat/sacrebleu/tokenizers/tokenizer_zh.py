"""``sacrebleu.tokenizers.tokenizer_zh.TokenizerZh`` of sacrebleu 2.6.0 (BLEU ``tokenize="zh"``), in
Python: identical strings for every input.

sacrebleu strips the line, puts spaces around every "Chinese character", then runs the regular
expressions of its ``TokenizerRegexp`` (the punctuation rules of ``13a`` without 13a's other steps: no
``<skipped>`` removal, no ``&amp;``-style unescaping, no padding of the line, newlines left to the
final whitespace split), so rapideval's 13a kernel does not give the same tokens and there is no zh
kernel. "Chinese character" is sacrebleu's table of ranges compared as *strings*, where two bounds
are written as 5-hex-digit ``\\u`` escapes that Python reads as two characters (``'\\u20000'`` is
U+2000 followed by ``0``). The table below is sacrebleu's, compared the same way, so those two
ranges cover what they cover in sacrebleu: U+2001..U+2A6D (general punctuation such as ``—`` ``“``
``…``, currency, arrows, mathematical operators, ...) and U+2F81..U+2FA1, not the supplementary-plane
ideographs their comments name (those are not split, as in sacrebleu).

Port of sacrebleu's ``tokenizer_zh.py`` (Copyright 2017--2018 Amazon.com, Inc. or its affiliates,
Apache-2.0; character table and method by Shujian Huang, MIT licence).
"""

from __future__ import annotations

import re

from .tokenizer_base import BaseTokenizer

__all__ = ["TokenizerZh"]

#: sacrebleu 2.6.0's ``_UCODE_RANGES``, character for character (see the module docstring).
_UCODE_RANGES = [
    ("\u3400", "\u4db5"),
    ("\u4e00", "\u9fa5"),
    ("\u9fa6", "\u9fbb"),
    ("\uf900", "\ufa2d"),
    ("\ufa30", "\ufa6a"),
    ("\ufa70", "\ufad9"),
    ("\u20000", "\u2a6d6"),  # two characters each, as in sacrebleu
    ("\u2f800", "\u2fa1d"),
    ("\uff00", "\uffef"),
    ("\u2e80", "\u2eff"),
    ("\u3000", "\u303f"),
    ("\u31c0", "\u31ef"),
    ("\u2f00", "\u2fdf"),
    ("\u2ff0", "\u2fff"),
    ("\u3100", "\u312f"),
    ("\u31a0", "\u31bf"),
    ("\ufe10", "\ufe1f"),
    ("\ufe30", "\ufe4f"),
    ("\u2600", "\u26ff"),
    ("\u2700", "\u27bf"),
    ("\u3200", "\u32ff"),
    ("\u3300", "\u33ff"),
]


def _code_point_range(start: str, end: str) -> tuple[int, int]:
    """The code points ``c`` with ``start <= c <= end`` as strings: a one-character string is below a
    longer one that starts with it, so a longer ``start`` excludes its first character and a longer
    ``end`` includes its first character."""
    return ord(start[0]) + (len(start) > 1), ord(end[0])


def _char_class() -> str:
    ranges = sorted(_code_point_range(s, e) for s, e in _UCODE_RANGES)
    return "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in ranges)


#: One "Chinese character" (sacrebleu's ``_is_chinese_char``).
_CHINESE = re.compile(f"([{_char_class()}])")

#: sacrebleu's ``TokenizerRegexp`` rules, in its order (stdlib ``re``).
_REGEXP_RULES = [
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]


class TokenizerZh(BaseTokenizer):
    """sacrebleu 2.6.0 ``TokenizerZh()``: ``tokenizer(line)`` strips the line, splits off every Chinese
    character (sacrebleu's table, see the module docstring) and tokenizes the rest with 13a's
    punctuation rules; the result is one string with single spaces. ``signature()`` is ``zh``."""

    def signature(self) -> str:
        return "zh"

    @staticmethod
    def _is_chinese_char(uchar: str) -> bool:
        """sacrebleu's ``TokenizerZh._is_chinese_char``: whether the character is in its table."""
        return any(start <= uchar <= end for start, end in _UCODE_RANGES)

    def __call__(self, line: str) -> str:
        line = _CHINESE.sub(r" \1 ", line.strip())
        for pattern, repl in _REGEXP_RULES:
            line = pattern.sub(repl, line)
        return " ".join(line.split())
