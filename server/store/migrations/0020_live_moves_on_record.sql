-- Every move of live is a publication (docs/decisions/0620): besides the control center's own kinds,
-- `push` (git push through the content repository's hook) and `outside` (the ref moved by hand on the
-- server), both recorded by the live content when it notices them.
ALTER TABLE content_publications DROP CONSTRAINT content_publications_kind_check;
ALTER TABLE content_publications ADD CONSTRAINT content_publications_kind_check
  CHECK (kind IN ('publish', 'rollback', 'scheduled', 'import', 'emergency', 'push', 'outside'));
