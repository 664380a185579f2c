"""Drop-in for nltk 3.10.4 ``nltk.tokenize``'s ``word_tokenize`` and ``sent_tokenize`` (Punkt with
nltk's english tables, then ``NLTKWordTokenizer``), ported to Rust, bit for bit: no NLTK data needed.

Only ``language="english"`` is supported, and ``word_tokenize(..., preserve_line=False)``; other
values raise ``ValueError`` instead of tokenizing differently.
"""

from __future__ import annotations

from ... import tokenize as _tokenize

__all__ = ["sent_tokenize", "word_tokenize"]


def word_tokenize(text: str, language: str = "english", preserve_line: bool = False) -> list[str]:
    """``nltk.word_tokenize(text)`` (Punkt english + NLTKWordTokenizer of nltk 3.10.4), bit-exact.

    Only ``language="english"`` and ``preserve_line=False`` are supported."""
    if language != "english" or preserve_line:
        raise ValueError("rapideval's word_tokenize supports language='english', preserve_line=False only")
    return _tokenize.word_tokenize(text)


def sent_tokenize(text: str, language: str = "english") -> list[str]:
    """``nltk.sent_tokenize(text)`` (Punkt with nltk 3.10.4's english punkt_tab tables), bit-exact.

    Only ``language="english"`` is supported."""
    if language != "english":
        raise ValueError("rapideval's sent_tokenize supports language='english' only")
    return _tokenize.sent_tokenize(text)
