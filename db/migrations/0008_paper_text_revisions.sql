-- A paper's title and abstract as they were before an import replaced them, so that text
-- a file replaced can be seen and put back (`reader revisions REF`), as notes' versions
-- can. `field` is 'title' or 'abstract'; `modified` is the modification date the source
-- gave the record the text came from (NULL: none was known); `import_id` is the import
-- that replaced it (NULL: a restore did); `kind` says what replaced it ('import' or
-- 'restore').
CREATE TABLE paper_revisions (
    id           INTEGER PRIMARY KEY,
    paper_id     INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    field        TEXT    NOT NULL,
    body         TEXT    NOT NULL,
    modified     TEXT,
    replaced_at  TEXT    NOT NULL,
    import_id    INTEGER,
    kind         TEXT    NOT NULL DEFAULT 'import'
);
CREATE INDEX paper_revisions_paper ON paper_revisions (paper_id, id);

-- The modification date the source gave the record the paper's title and abstract came
-- from (ISO 8601, UTC), when it gave one: an import never puts older-dated text over it.
ALTER TABLE papers ADD COLUMN text_modified TEXT;
