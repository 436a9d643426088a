-- The control center (docs/decisions/0600–0603): staff branches, drafts, publications, and the
-- append-only audit log. Same SQL on PGlite and PostgreSQL.

CREATE TABLE cc_branches (
  name             text PRIMARY KEY,        -- refs/heads/cc/<name>
  title            text NOT NULL,
  description      text NOT NULL DEFAULT '',
  base_commit      text NOT NULL,
  created_by       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  status           text NOT NULL DEFAULT 'open'
                   CHECK (status IN ('open', 'in_review', 'approved', 'published', 'archived')),
  approved_commit  text,
  approved_by      text,
  scheduled_at     timestamptz,             -- a scheduled publish fires once, at or after this time
  scheduled_commit text,                    -- what goes live then: the head when it was scheduled
  scheduled_by     text
);
CREATE INDEX cc_branches_scheduled_idx ON cc_branches (scheduled_at) WHERE scheduled_at IS NOT NULL;

CREATE TABLE cc_drafts (
  user_id    text NOT NULL,
  branch     text NOT NULL,
  path       text NOT NULL,
  base_blob  text,                          -- blob of the file when editing began; null: a new file
  text       text,                          -- the unsaved document; null: the file is deleted
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, branch, path)
);

CREATE TABLE content_publications (
  id          bigserial PRIMARY KEY,
  old_commit  text,
  new_commit  text NOT NULL,
  branch      text,
  kind        text NOT NULL CHECK (kind IN ('publish', 'rollback', 'scheduled', 'import', 'emergency')),
  actor       text,
  at          timestamptz NOT NULL DEFAULT now(),
  snapshot_id text NOT NULL,
  gate_report jsonb NOT NULL DEFAULT '{}'
);

ALTER TABLE staff_users ADD CONSTRAINT staff_users_role_check
  CHECK (role IN ('viewer', 'editor', 'publisher', 'admin'));

-- The audit log is append-only: no row is ever changed or removed, not even by the application.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP;
END
$$;
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
