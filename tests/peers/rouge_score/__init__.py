"""rouge-score 0.1.2's own tests, run against ``rapideval.compat.rouge_score`` (see ../README.md)."""
