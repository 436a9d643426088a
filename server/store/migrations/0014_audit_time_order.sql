-- The audit log in time order (issue 28, docs/decisions/0966). A row's id is often reserved early
-- (nextAuditId, so a git commit's Audit-Id trailer can name it) and written later, and now() is the
-- start of the writing transaction: neither says when the row was written. `at` becomes the clock at
-- the insert, and the log is read by (at, id). Same SQL on PGlite and PostgreSQL.
ALTER TABLE audit_log ALTER COLUMN at SET DEFAULT clock_timestamp();
DROP INDEX audit_log_at_idx;
CREATE INDEX audit_log_at_id_idx ON audit_log (at DESC, id DESC);
