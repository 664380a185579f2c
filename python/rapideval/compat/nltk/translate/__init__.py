"""Drop-in for the parts of nltk 3.10.4 ``nltk.translate`` that rapideval reproduces: the modules
``bleu_score``, ``gleu_score`` and ``meteor_score``, and the names ``nltk.translate`` gives their
main functions: ``bleu`` (``sentence_bleu``), ``gleu`` (``sentence_gleu``) and ``meteor``
(``meteor_score``).

``from nltk.translate import bleu`` becomes ``from rapideval.compat.nltk.translate import bleu``;
``from nltk.translate.bleu_score import ...`` becomes
``from rapideval.compat.nltk.translate.bleu_score import ...``.
"""

from . import bleu_score, gleu_score, meteor_score
from .bleu_score import sentence_bleu as bleu
from .gleu_score import sentence_gleu as gleu
from .meteor_score import meteor_score as meteor

__all__ = ["bleu", "bleu_score", "gleu", "gleu_score", "meteor", "meteor_score"]
