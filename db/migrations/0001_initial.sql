-- The library's first schema. SQLite is the source of truth; the Whoosh index is derived.

CREATE TABLE papers (
    id             INTEGER PRIMARY KEY,
    title          TEXT    NOT NULL DEFAULT '',
    title_derived  INTEGER NOT NULL DEFAULT 0,
    abstract       TEXT    NOT NULL DEFAULT '',
    -- sha1 of the normalised abstract (NFKC, whitespace folded, case folded): the identity of
    -- papers that have nothing better.
    abstract_key   TEXT,
    authors        TEXT    NOT NULL DEFAULT '[]',   -- JSON array of display names
    venue          TEXT,
    year           INTEGER,
    keywords       TEXT    NOT NULL DEFAULT '[]',   -- JSON array
    url            TEXT,
    doi            TEXT,
    citekey        TEXT    NOT NULL,
    starred        INTEGER NOT NULL DEFAULT 0,
    source         TEXT,
    added_at       TEXT    NOT NULL,
    updated_at     TEXT    NOT NULL,
    -- The library generation of this row's last change: the search index catches up on rows
    -- newer than the generation it has recorded.
    generation     INTEGER NOT NULL DEFAULT 0
);

CREATE UNIQUE INDEX papers_abstract_key ON papers (abstract_key) WHERE abstract_key IS NOT NULL;
CREATE UNIQUE INDEX papers_citekey ON papers (citekey);
CREATE UNIQUE INDEX papers_doi ON papers (doi) WHERE doi IS NOT NULL;
CREATE INDEX papers_generation ON papers (generation);
CREATE INDEX papers_starred ON papers (starred) WHERE starred = 1;

CREATE TABLE notes (
    paper_id    INTEGER PRIMARY KEY REFERENCES papers (id) ON DELETE CASCADE,
    body        TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

CREATE TABLE imports (
    id           INTEGER PRIMARY KEY,
    path         TEXT NOT NULL,
    format       TEXT NOT NULL,
    imported_at  TEXT NOT NULL,
    read         INTEGER NOT NULL,
    new          INTEGER NOT NULL,
    present      INTEGER NOT NULL
);

CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

INSERT INTO meta (key, value) VALUES ('generation', '0');
