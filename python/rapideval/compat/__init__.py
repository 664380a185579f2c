"""Drop-in replacements with the signatures and return values of the reference libraries: change one import line."""
