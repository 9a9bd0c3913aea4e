-- Citation keys a paper answers to besides its own: the keys of the source entries merged
-- into it (two entries of one .bib sharing an arXiv id are one paper) and the ones a source
-- lists as aliases (biblatex's `ids`). Documents that cite any of them still work. A key is
-- either one paper's key or one paper's alias, never both: the library checks it on write.
CREATE TABLE citekey_aliases (
    alias TEXT PRIMARY KEY,
    paper_id INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE
);
CREATE INDEX citekey_aliases_paper ON citekey_aliases (paper_id);
