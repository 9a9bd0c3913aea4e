"""Allow ``python -m reader``."""

from reader.cli import main

# Guarded: the index build's worker processes import this module again when the reader was
# started with ``python -m reader``, and must not start a second reader.
if __name__ == "__main__":
    main()
