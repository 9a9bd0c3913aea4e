-- When an import finished: every paper and every reply of its files written. An import
-- stopped part way (a kill while the reviews were written) has none, and the next import
-- of the same file finishes it (reader/store/import_history.py: finish_import). Imports made
-- before this column were finished or are past mending: they count as finished.
ALTER TABLE imports ADD COLUMN finished_at TEXT;
UPDATE imports SET finished_at = imported_at;
