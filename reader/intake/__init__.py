"""Intake: records becoming papers of the library. What a record is worked out of alone
(:mod:`~reader.intake.prepare`: identifiers, identities, sketch), which paper it is
(:mod:`~reader.intake.identity`), what a paper's own export reads back as
(:mod:`~reader.intake.echo`), whether it is added or merged (:mod:`~reader.intake.merge`)
and what of it merges into a known paper (:mod:`~reader.intake.fields`), which the store
then writes.

Sits above the store, the sources and the citations (it uses all three: the store to read
and write rows, the sources and the exporters to read a paper's own export back) and below
the library, which is its only caller. Its modules are imported on first use: matching
brings numpy and rapidfuzz, no part of opening the reader.
"""
