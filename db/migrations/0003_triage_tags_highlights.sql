-- Triage (seen and read), tags, passage highlights and saved searches.

-- When the paper was first shown in the detail or reading view, and when it was marked
-- read. Neither bumps the generation: the search index knows nothing of them.
ALTER TABLE papers ADD COLUMN seen_at TEXT;
ALTER TABLE papers ADD COLUMN read_at TEXT;
CREATE INDEX papers_unseen ON papers (id) WHERE seen_at IS NULL;
CREATE INDEX papers_seen ON papers (id) WHERE seen_at IS NOT NULL;
CREATE INDEX papers_read ON papers (id) WHERE read_at IS NOT NULL;

CREATE TABLE tags (
    paper_id  INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    tag       TEXT    NOT NULL,
    PRIMARY KEY (paper_id, tag)
) WITHOUT ROWID;
CREATE INDEX tags_tag ON tags (tag);

-- A passage of the abstract. Offsets are into the abstract as the reader shows it (LaTeX
-- rendered, plain text); the quote re-anchors the highlight when an import revises the
-- abstract, and `orphaned` flags one whose quote no longer occurs (kept, never dropped).
CREATE TABLE highlights (
    id          INTEGER PRIMARY KEY,
    paper_id    INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    start       INTEGER NOT NULL,
    end         INTEGER NOT NULL,
    quote       TEXT    NOT NULL,
    note        TEXT    NOT NULL DEFAULT '',
    orphaned    INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT    NOT NULL
);
CREATE INDEX highlights_paper ON highlights (paper_id);

CREATE TABLE saved_searches (
    name        TEXT PRIMARY KEY,
    query       TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
