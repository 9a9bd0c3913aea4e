-- Highlights and notes on a passage of a reply (a review, a meta-review, a comment), as on
-- the abstract. reply_id is the reply's note id (NULL: the passage is of the abstract);
-- offsets count characters of the reply as the reading view shows it (its sections, each
-- heading then its text rendered; see reader/store/highlights.py). When a later import
-- edits the reply, the quote re-anchors the highlight: `moved` says the reply was edited
-- and the passage found again elsewhere in it, `orphaned` that its words are gone (kept,
-- never dropped).
ALTER TABLE highlights ADD COLUMN reply_id TEXT;
ALTER TABLE highlights ADD COLUMN moved INTEGER NOT NULL DEFAULT 0;
CREATE INDEX highlights_reply ON highlights (reply_id) WHERE reply_id IS NOT NULL;
