"""Hypothesis strategies for text that stresses tokenizers and metrics: ASCII, Latin-1, CJK, emoji,
control characters, punctuation runs, contractions, smart quotes, URLs, numbers, abbreviations,
sentence ends, empty strings, and real prose. Every parity test draws from these."""

from __future__ import annotations

import pathlib

from hypothesis import strategies as st

PROSE_FILE = pathlib.Path(__file__).resolve().parent / "data" / "prose.txt"


def _prose_lines() -> list[str]:
    with open(PROSE_FILE, encoding="utf8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


PROSE = _prose_lines()

FRAGMENTS = [
    "can't", "won't", "I'm", "they're", "we've", "she'll", "'tis", "'hello'", "gonna", "cannot", "gimme",
    "Chris'", "don't", "N'T", "'90s", "d'ye", "more'n", "wanna ", "lemme", "'Twas",
    "\"", "''", "``", "`", "“", "”", "‘", "’", "«", "»", "„",
    "...", "..", ". . .", "!!!", "?!", "--", "---", "—", "–", "‒", "―", "…", ";", ":", ",", "@", "#", "$", "%", "&",
    "*", "(", ")", "[", "]", "{", "}", "<", ">", "/", "\\", "|", "~", "^", "_", "=", "+", "-",
    "U.S.A.", "e.g.", "i.e.", "Mr.", "Dr.", "St.", "No.", "vs.", "etc.", "A.", "B.", "Jan.", "p.m.",
    "1,000,000.", "3.14", "$3.88", "10%", "1:30", "2024.", "5.", "-1.5", "1,000.", "##number##", "3-4",
    "http://a.com/x?y=1&z=2", "user@example.com", "www.example.org/a_b", "e-mail", "well--known",
    "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#124;", "&#91;", "&#93;", "<skipped>", "-\n",
    "café", "naïve", "straße", "İstanbul", "\u212a", "x²", "½", "ΟΔΟΣ", "Σ", "ǅ",
    "日本語です。", "中文，测试。", "한국어", "Привет, мир!", "مرحبا", "😀", "👍🏽", "🇫🇷",
    "\n", "\t", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0", "\u2028", "\u3000", "\u200b", "\x00", "\x7f",
    " ", "  ", "The", "the", "a", "an", "A", "An", "THE", "cat", "sat", "on", "mat", "Hello", "World", "is", "big",
]

WORDS = [
    "the", "cat", "sat", "on", "mat", "a", "dog", "ran", "quick", "fast", "brown", "fox", "jumps", "over",
    "lazy", "It", "is", "was", "running", "happily", "generalizations", "big", "large", "house", "home",
    "and", "of", "to", "in", "that", "The", "A", "An", "he", "she", "they", "said", "went", "go",
]

ascii_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x7F), max_size=60)
latin1_text = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=60)
any_text = st.text(max_size=40)
fragment_text = st.lists(
    st.tuples(st.sampled_from(FRAGMENTS), st.sampled_from(["", " ", " ", "  ", "\n", "\xa0", ""])),
    max_size=14,
).map(lambda parts: "".join(a + b for a, b in parts))
word_text = st.lists(st.sampled_from(WORDS + [",", ".", "!", "?", "'s", "n't"]), max_size=25).map(" ".join)
prose_text = st.sampled_from(PROSE)
prose_mutated = st.tuples(st.sampled_from(PROSE), st.integers(0, 200), st.sampled_from(FRAGMENTS)).map(
    lambda t: t[0][: t[1]] + t[2] + t[0][t[1]:]
)

#: Any text a user might send, weighted toward the hard cases.
texts = st.one_of(
    st.just(""), ascii_text, latin1_text, any_text, fragment_text, word_text, prose_text, prose_mutated
)

#: Pairs whose tokens overlap often, so that metrics leave their zero branches.
overlapping_pairs = st.one_of(
    st.tuples(word_text, word_text),
    st.tuples(prose_text, prose_mutated),
    st.tuples(texts, texts),
    prose_text.map(lambda s: (s, s)),
)
