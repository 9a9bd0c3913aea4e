"""Text: pure string work shared by every part (TeX to Unicode, derived titles, hygiene of
hostile text, identifiers such as DOIs and arXiv ids, the three-way merge of notes).

Uses nothing of reader but itself.
"""
