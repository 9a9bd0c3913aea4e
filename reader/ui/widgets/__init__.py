"""Widgets of the reader UI."""
