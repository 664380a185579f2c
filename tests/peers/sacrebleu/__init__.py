"""sacrebleu 2.6.0's own tests, run against ``rapideval.compat.sacrebleu`` (see ../README.md)."""
