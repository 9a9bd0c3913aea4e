-- Richer records (arXiv, OpenReview, withdrawn …), identity by id, and the history of
-- imports needed to diff a re-import and undo one.

ALTER TABLE papers ADD COLUMN arxiv_id TEXT;
ALTER TABLE papers ADD COLUMN openreview_id TEXT;
ALTER TABLE papers ADD COLUMN date TEXT;
ALTER TABLE papers ADD COLUMN withdrawn INTEGER NOT NULL DEFAULT 0;
ALTER TABLE papers ADD COLUMN tldr TEXT;
ALTER TABLE papers ADD COLUMN primary_area TEXT;
ALTER TABLE papers ADD COLUMN kind TEXT;

CREATE UNIQUE INDEX papers_arxiv_id ON papers (arxiv_id) WHERE arxiv_id IS NOT NULL;
CREATE UNIQUE INDEX papers_openreview_id ON papers (openreview_id)
    WHERE openreview_id IS NOT NULL;

ALTER TABLE imports ADD COLUMN sha256 TEXT;
ALTER TABLE imports ADD COLUMN merged INTEGER NOT NULL DEFAULT 0;
ALTER TABLE imports ADD COLUMN unchanged INTEGER NOT NULL DEFAULT 0;
ALTER TABLE imports ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;
ALTER TABLE imports ADD COLUMN undone_at TEXT;

-- What one import did to each paper: new, merged, retitled, revised, withdrawn, unchanged.
CREATE TABLE import_items (
    import_id  INTEGER NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
    paper_id   INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    action     TEXT    NOT NULL,
    PRIMARY KEY (import_id, paper_id)
);
CREATE INDEX import_items_paper ON import_items (paper_id);

-- Papers removed from the library, so the search index can drop them too.
CREATE TABLE deleted_papers (
    paper_id    INTEGER PRIMARY KEY,
    generation  INTEGER NOT NULL
);
