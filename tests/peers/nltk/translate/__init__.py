# Copied from the nltk 3.10.4 source distribution (nltk-3.10.4.tar.gz: nltk/test/unit/translate/__init__.py).
# Copyright (C) 2001-2026 NLTK Project; Apache License, Version 2.0 (nltk's LICENSE.txt).
# Empty, as there.
