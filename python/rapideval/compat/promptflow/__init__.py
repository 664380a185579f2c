"""Drop-in for promptflow-evals 0.3.5's evaluators and ``evaluate``: change ``promptflow.evals`` to
``rapideval.compat.promptflow`` in the import lines.

    from rapideval.compat.promptflow.evaluators import BleuScoreEvaluator, CoherenceEvaluator, ...
    from rapideval.compat.promptflow.evaluate import evaluate

The deterministic evaluators give promptflow's numbers bit for bit; the LLM-judged and safety ones are
rapideval's metrics (:mod:`rapideval.judged`) on any OpenAI-compatible judge. This package maps names,
arguments and output keys only."""
