-- Conference signals: the replies papers received on OpenReview (reviews, meta-reviews,
-- decisions, comments), every version of them an import saw, and what they add up to per
-- paper (see reader/signals.py for the model, reader/store/signals.py for the access).

-- One row per reply (OpenReview note id), holding its latest version. paper_id is NULL
-- while the paper it answers (forum) is not in the library: the reply waits for it.
-- content is the note's content as compact JSON (values unwrapped, verbatim), UTF-8 and
-- zlib-compressed (plain JSON rows of review text left most of their pages empty: the
-- library grew to 1.65 times the text); rating and confidence are copied out of it for
-- sorting and filtering; text_hash digests the content without its scores (equal
-- hashes: the same text).
CREATE TABLE replies (
    id           INTEGER PRIMARY KEY,
    note_id      TEXT    NOT NULL UNIQUE,
    paper_id     INTEGER REFERENCES papers (id) ON DELETE CASCADE,
    forum        TEXT,
    replyto      TEXT,
    kind         TEXT    NOT NULL,
    signer       TEXT    NOT NULL DEFAULT '',
    number       INTEGER,
    cdate        INTEGER,
    mdate        INTEGER,
    rating       REAL,
    confidence   REAL,
    invitations  TEXT    NOT NULL DEFAULT '[]',
    signatures   TEXT    NOT NULL DEFAULT '[]',
    content      BLOB    NOT NULL,
    text_hash    TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX replies_paper ON replies (paper_id, cdate);
CREATE INDEX replies_forum ON replies (forum) WHERE paper_id IS NULL;
CREATE INDEX replies_replyto ON replies (replyto);
CREATE INDEX replies_kind_rating ON replies (kind, rating);
CREATE INDEX replies_mdate ON replies (mdate);

-- Every version of a reply seen, by its mdate (cdate when it has none): the scores it gave
-- (JSON: {"rating": {"value": 6.0, "raw": "6"}, …}) and the digest of its text. The text
-- itself is not copied: content is NULL while this version's text is that of the next
-- newer version (the newest's is replies.content), and holds the text only once a newer
-- version changed it. import_id is the import that first saw the version.
CREATE TABLE reply_versions (
    id         INTEGER PRIMARY KEY,
    reply_id   INTEGER NOT NULL REFERENCES replies (id) ON DELETE CASCADE,
    mdate      INTEGER NOT NULL,
    rating     REAL,
    scores     TEXT    NOT NULL DEFAULT '{}',
    text_hash  TEXT    NOT NULL,
    content    BLOB,
    import_id  INTEGER,
    seen_at    TEXT    NOT NULL
);
CREATE UNIQUE INDEX reply_versions_reply ON reply_versions (reply_id, mdate);
CREATE INDEX reply_versions_import ON reply_versions (import_id) WHERE import_id IS NOT NULL;

-- What a paper's replies (or a list's aggregates) add up to. decision is one of oral,
-- spotlight, poster, accept, reject, desk-rejected, withdrawn, pending; decision_raw the
-- words of the source. ratings and confidences are JSON arrays of numbers (the official
-- reviews', in order; empty when a source gave only the mean and count). scale is the
-- venue's rating scale ("1..10" or "0,2,4,6,8,10"). reviews and comments are NULL when no
-- source gave replies. ratings_changed_import is the import whose replies last changed a
-- rating of the paper; decided_import the import that last changed its decision.
CREATE TABLE paper_signals (
    paper_id               INTEGER PRIMARY KEY REFERENCES papers (id) ON DELETE CASCADE,
    decision               TEXT,
    decision_raw           TEXT,
    rating_mean            REAL,
    rating_std             REAL,
    rating_count           INTEGER NOT NULL DEFAULT 0,
    ratings                TEXT    NOT NULL DEFAULT '[]',
    confidences            TEXT    NOT NULL DEFAULT '[]',
    confidence_mean        REAL,
    scale                  TEXT,
    reviews                INTEGER,
    comments               INTEGER,
    ratings_changed_import INTEGER,
    decided_import         INTEGER,
    updated_at             TEXT    NOT NULL
);
CREATE INDEX paper_signals_rating ON paper_signals (rating_mean);
CREATE INDEX paper_signals_spread ON paper_signals (rating_std);
CREATE INDEX paper_signals_decision ON paper_signals (decision);
CREATE INDEX paper_signals_changed ON paper_signals (ratings_changed_import)
    WHERE ratings_changed_import IS NOT NULL;
