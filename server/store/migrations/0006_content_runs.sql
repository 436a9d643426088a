-- Content-factory runs (issue 16, CONTROL-CENTER §5): one row per generation, claimed by a worker
-- with FOR UPDATE SKIP LOCKED (safe on several instances). Same SQL on PGlite and PostgreSQL.
CREATE TABLE content_runs (
  id                bigserial PRIMARY KEY,
  branch            text NOT NULL,
  author_id         text NOT NULL,
  brief             jsonb NOT NULL,
  messages          jsonb NOT NULL,
  model             text,
  status            text NOT NULL DEFAULT 'queued'
                    CHECK (status IN ('queued', 'running', 'validating', 'succeeded', 'failed', 'cancelled')),
  attempt           int NOT NULL DEFAULT 0,
  output            text NOT NULL DEFAULT '',
  draft             jsonb,
  validation        jsonb,
  error             text,
  prompt_tokens     int,
  completion_tokens int,
  created_by        text NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  started_at        timestamptz,
  finished_at       timestamptz,
  article_id        text,
  commit            text
);
CREATE INDEX content_runs_branch_idx ON content_runs (branch, id DESC);
CREATE INDEX content_runs_queued_idx ON content_runs (id) WHERE status = 'queued';
