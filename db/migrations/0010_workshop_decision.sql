-- A paper of a conference's workshops ("Invite to Workshop Track", paperlists' "Workshop",
-- a venue "ICLR 2026 Workshop") has its own normalised decision, `workshop`: it was stored
-- as `reject`. The raw words decide, as reader/signals/decisions.py reads them: the word
-- "workshop" on its own.
UPDATE paper_signals SET decision = 'workshop'
WHERE decision = 'reject'
  AND ' ' || lower(decision_raw) || ' ' GLOB '*[^a-z]workshop[^a-z]*';
