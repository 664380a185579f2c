"""Batch metric functions over columns of texts; each returns numpy arrays and names the reference it matches."""
