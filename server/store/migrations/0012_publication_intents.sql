-- Publish is one step (issue 27, docs/decisions/0612): before live moves, the publish it intends is
-- committed here with everything its content_publications and audit rows will say. After the ref
-- move both rows are written and the intent is marked done in one transaction; an intent left pending
-- by a crash is settled from where the ref is: at (or under) new_commit it is completed, otherwise it
-- is abandoned (and audited as such). Same SQL on PGlite and PostgreSQL.
CREATE TABLE content_publication_intents (
  id           bigserial PRIMARY KEY,
  state        text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'abandoned')),
  old_commit   text NOT NULL,
  new_commit   text NOT NULL,
  branch       text,
  kind         text NOT NULL,
  actor        text NOT NULL,
  snapshot_id  text NOT NULL,
  gate_report  jsonb NOT NULL DEFAULT '{}',
  audit_id     bigint NOT NULL,            -- reserved audit_log id, named by the commit's Audit-Id trailer
  action       text NOT NULL,              -- the audit action of the publish ('publish', 'rollback', …)
  details      jsonb NOT NULL DEFAULT '{}', -- the audit details, without the publication id
  publication  bigint,                     -- the content_publications row once done
  created_at   timestamptz NOT NULL DEFAULT now(),
  settled_at   timestamptz
);
CREATE INDEX content_publication_intents_pending_idx ON content_publication_intents (id) WHERE state = 'pending';
