"""The terminal UI: a thin Textual layer over the headless core."""
