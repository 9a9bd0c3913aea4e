-- Ratings read again from the words the reviews gave them: a library whose reviews were
-- read by an older reader (a NeurIPS label past 200 characters, "7: Accept: Technically
-- solid paper, …", read as no number) held the wrong numbers until the file was imported
-- again. The scores' words are stored (reply_versions.scores, {"rating": {"value": …,
-- "raw": …}}), so reader/store/rereading.py reads each version's again in Python after
-- this script, in the same transaction, and brings replies.rating, replies.confidence and
-- the papers' ratings in line. Nothing else changes: no version is added, and no rating
-- counts as changed by its reviewer.
SELECT 1;
