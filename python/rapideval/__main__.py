"""``python -m rapideval``: the command line (:mod:`rapideval.cli`)."""

import sys

from .cli import main

sys.exit(main())
