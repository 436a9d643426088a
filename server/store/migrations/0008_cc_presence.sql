-- Presence in the control center (docs/decisions/0950): who has which file's editor open on which
-- branch, refreshed by a heartbeat. In the database, so every instance behind the load balancer sees
-- every editor. Rows older than the expiry are ignored on read and deleted on the next heartbeat.
-- Same SQL on PGlite and PostgreSQL.
CREATE TABLE cc_presence (
  user_id text NOT NULL,
  branch  text NOT NULL,
  path    text NOT NULL,
  since   timestamptz NOT NULL DEFAULT now(),  -- when this stretch of editing began
  seen_at timestamptz NOT NULL DEFAULT now(),  -- the last heartbeat
  PRIMARY KEY (branch, path, user_id)
);
CREATE INDEX cc_presence_seen_idx ON cc_presence (seen_at);
