"""``rapideval.compat.azure.ai``: the ``azure.ai`` namespace of the drop-in."""
