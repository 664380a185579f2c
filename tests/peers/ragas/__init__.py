# Copied from the ragas 0.4.3 source distribution (ragas-0.4.3.tar.gz: tests/__init__.py).
# Copyright 2023 Vibrant Labs; Apache License, Version 2.0 (ragas's LICENSE); the file has no header of its own.
# Only the import lines were changed (to test rapideval's drop-in); nothing else.
# Tests package
