"""Allow ``python -m reader``."""

# Guarded: the index build's worker processes import this module again when the reader was
# started with ``python -m reader``, and must not start a second reader (nor run without
# the collector).
if __name__ == "__main__":
    from reader.entry import main

    main()
