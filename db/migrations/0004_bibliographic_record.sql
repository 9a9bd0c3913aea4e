-- The full bibliographic record: a paper's CSL data beyond the columns the list and the
-- index read, the source fields the record does not model, and where the key came from.

-- CSL variables as JSON: type, container/collection titles, volume, issue, page, number,
-- edition, publisher, ISBN/ISSN, issued and accessed date parts, structured names (author,
-- editor, translator …). Title, abstract, DOI, URL and keywords stay in their own columns.
-- '{}' (every paper carried over from an older library) means "derived from the columns",
-- which is what older versions cited.
ALTER TABLE papers ADD COLUMN csl TEXT NOT NULL DEFAULT '{}';
-- Fields of the source the record does not model, verbatim, by source format:
-- {"bibtex": {"file": "…", "annote": "…"}, "ris": {"L1": ["…"]}}. An export in that format
-- writes them back.
ALTER TABLE papers ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
-- 'source' (the file's own key), 'user' (typed in the details form) or 'generated'. A merge
-- gives a paper its source's key only in place of a generated one.
ALTER TABLE papers ADD COLUMN citekey_origin TEXT NOT NULL DEFAULT 'generated';

-- Two distinct papers may share an abstract (two arXiv ids, one text): the abstract finds
-- candidates, it no longer decides identity alone.
DROP INDEX papers_abstract_key;
CREATE INDEX papers_abstract_key ON papers (abstract_key) WHERE abstract_key IS NOT NULL;
