"""``sacrebleu.compat`` of sacrebleu 2.6.0, the function API: ``corpus_bleu``, ``raw_corpus_bleu``,
``sentence_bleu``, ``corpus_chrf``, ``sentence_chrf``, ``corpus_ter`` and ``sentence_ter``, with
sacrebleu's arguments (references as *streams*: a list of reference documents, each holding one string,
or ``None``, per hypothesis) and score objects, bit for bit sacrebleu's on its 0-100 scale. Each builds
the metric of :mod:`.metrics` and calls its ``corpus_score`` / ``sentence_score``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore
from .metrics.base import Streams

__all__ = [
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]

Number = int | float


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = False,
) -> BLEUScore:
    """``sacrebleu.corpus_bleu`` of sacrebleu 2.6.0 (references as streams): BLEU on 0-100, bit for bit;
    signature ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0`` with the defaults."""
    metric = BLEU(
        lowercase=lowercase,
        force=force,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=use_effective_order,
    )
    score: BLEUScore = metric.corpus_score(hypotheses, references)
    return score


def raw_corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    smooth_value: float | None = BLEU.SMOOTH_DEFAULTS["floor"],
) -> BLEUScore:
    """``sacrebleu.raw_corpus_bleu`` of sacrebleu 2.6.0: BLEU on 0-100 without tokenization, floor
    smoothing, effective order; bit for bit; signature
    ``nrefs:1|case:mixed|eff:yes|tok:none|smooth:floor[0.10]|version:2.6.0``."""
    return corpus_bleu(
        hypotheses,
        references,
        smooth_method="floor",
        smooth_value=smooth_value,
        force=True,
        tokenize="none",
        use_effective_order=True,
    )


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str | None],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = True,
) -> BLEUScore:
    """``sacrebleu.sentence_bleu`` of sacrebleu 2.6.0: BLEU on 0-100 of one hypothesis, bit for bit;
    signature ``nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0`` with the defaults."""
    metric = BLEU(
        lowercase=lowercase,
        tokenize=tokenize,
        force=False,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=use_effective_order,
    )
    score: BLEUScore = metric.sentence_score(hypothesis, references)
    return score


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Streams,
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: Number = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """``sacrebleu.corpus_chrf`` of sacrebleu 2.6.0 (references as streams): chrF / chrF++ on 0-100, bit for
    bit; signature ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0`` with the defaults."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                  eps_smoothing=eps_smoothing)  # fmt: skip
    score: CHRFScore = metric.corpus_score(hypotheses, references)
    return score


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str | None],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: Number = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """``sacrebleu.sentence_chrf`` of sacrebleu 2.6.0: chrF / chrF++ on 0-100 of one hypothesis, bit for
    bit; signature ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0`` with the defaults."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                  eps_smoothing=eps_smoothing)  # fmt: skip
    score: CHRFScore = metric.sentence_score(hypothesis, references)
    return score


def corpus_ter(
    hypotheses: Sequence[str],
    references: Streams,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """``sacrebleu.corpus_ter`` of sacrebleu 2.6.0 (references as streams): TER on 0-100, bit for bit;
    signature ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0`` with the defaults."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive)
    score: TERScore = metric.corpus_score(hypotheses, references)
    return score


def sentence_ter(
    hypothesis: str,
    references: Sequence[str | None],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """``sacrebleu.sentence_ter`` of sacrebleu 2.6.0: TER on 0-100 of one hypothesis, bit for bit;
    signature ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0`` with the defaults."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive)
    score: TERScore = metric.sentence_score(hypothesis, references)
    return score
