-- The process an import runs in, while it runs: a window that follows an import started
-- elsewhere (another terminal's `reader import`) sees from it, and an unfinished import
-- whose process is gone, that the import is still writing the replies of papers it shows
-- (reader/library/signals.py: replies_awaited). Imports made before it have none.
ALTER TABLE imports ADD COLUMN pid INTEGER;
