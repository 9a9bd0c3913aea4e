"""Allow ``python -m reader``."""

from reader.cli import main

main()
