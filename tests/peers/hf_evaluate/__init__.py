"""Hugging Face evaluate 0.4.6's metric docstring examples, run against ``rapideval.compat.hf_evaluate``
(see ../README.md)."""
