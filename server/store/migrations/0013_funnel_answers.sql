-- Answers of funnel steps posted as plain forms (issue 29, docs/decisions/0216): the same buckets the
-- browser keeps in localStorage (docs/decisions/0202) — one per form version and one shared — kept
-- under the visitor's anonymous id (the fw_anon cookie) so the server can run the funnel machine with
-- them. Rows untouched for FUNNEL_ANSWERS_TTL are not read (and may be deleted).
CREATE TABLE funnel_answers (
  anonymous_id text NOT NULL,
  bucket       text NOT NULL,
  answers      jsonb NOT NULL DEFAULT '{}',
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (anonymous_id, bucket)
);
CREATE INDEX funnel_answers_updated_at ON funnel_answers (updated_at);
