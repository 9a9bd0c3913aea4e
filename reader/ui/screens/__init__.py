"""Screens of the reader UI."""
