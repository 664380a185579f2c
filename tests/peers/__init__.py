"""The reference libraries' own test files, run against rapideval's drop-ins (see README.md). A package,
so that their modules (``test_bleu``, ``test_ter``, ...) do not clash with tests/parity's by name and
no folder named after a reference library is put on ``sys.path``."""
