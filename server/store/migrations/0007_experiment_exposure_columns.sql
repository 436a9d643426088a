-- Experiment results on a realistic volume (issue 16, docs/decisions/0902): the three values the
-- exposure scan needs become stored generated columns, so one covering index answers it with an
-- index-only scan instead of reading and parsing every exposure event's JSON body (1 M events:
-- the results query went from ~600 ms to ~250 ms on PostgreSQL). Conversion events (thank-you
-- pageviews, funnelCompleted, formStepSubmitted) get a partial index, so the per-visitor lookup
-- after exposure reads only those. Same SQL on PGlite and PostgreSQL. Adding the columns rewrites
-- the table once.
ALTER TABLE events
  ADD COLUMN experiment_id text GENERATED ALWAYS AS (body #>> '{properties,page,experiment,id}') STORED,
  ADD COLUMN experiment_variant text GENERATED ALWAYS AS (body #>> '{properties,page,experiment,variant}') STORED,
  ADD COLUMN bot boolean GENERATED ALWAYS AS (COALESCE(body #>> '{properties,bot,bot}', 'false') = 'true') STORED;
DROP INDEX events_experiment_idx;
CREATE INDEX events_exposure_idx ON events (experiment_id, anonymous_id, client_ts)
  INCLUDE (experiment_variant, bot) WHERE experiment_id IS NOT NULL;
CREATE INDEX events_conversion_idx ON events (anonymous_id, client_ts)
  WHERE (type = 'page' AND body->>'category' = 'thank-you')
     OR (type = 'track' AND name IN ('funnelCompleted', 'formStepSubmitted'));
