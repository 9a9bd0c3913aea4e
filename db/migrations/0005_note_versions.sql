-- Every version of every note. A save records the version it started from (`base_id`), so
-- a save made while another writer changed the note is merged instead of overwriting it;
-- `writer` says who saved (the CLI, or one editor window), `kind` whether the text was
-- typed ('save'), merged with another writer's ('merge'), or put back from history
-- ('restore'). notes.version_id is the version the note holds now.
CREATE TABLE note_versions (
    id          INTEGER PRIMARY KEY,
    paper_id    INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    body        TEXT    NOT NULL,
    saved_at    TEXT    NOT NULL,
    writer      TEXT    NOT NULL,
    kind        TEXT    NOT NULL DEFAULT 'save',
    base_id     INTEGER,
    conflicts   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX note_versions_paper ON note_versions (paper_id, id);

ALTER TABLE notes ADD COLUMN version_id INTEGER;

-- The notes written before versions existed become each note's first version.
INSERT INTO note_versions (paper_id, body, saved_at, writer, kind)
    SELECT paper_id, body, updated_at, 'earlier', 'save' FROM notes ORDER BY paper_id;
UPDATE notes SET version_id = (
    SELECT max(id) FROM note_versions v WHERE v.paper_id = notes.paper_id
);
