-- Events at volume (issue 30, docs/decisions/0311): the events table becomes a declarative
-- partitioned table, one partition per UTC month of the client's time (client_ts), so retention drops
-- whole months and the queries that bound client_ts read only their months. The primary key has to
-- hold the partition key: (id, client_ts) — a redelivered event carries the same body, so the same
-- timestamp, and is still stored once. Existing rows are copied into the new table. Same SQL on
-- PGlite and PostgreSQL.

ALTER TABLE events RENAME TO events_unpartitioned;
ALTER INDEX events_pkey RENAME TO events_unpartitioned_pkey;
DROP INDEX events_received_at_idx;
DROP INDEX events_session_idx;
DROP INDEX events_anonymous_ts_idx;
DROP INDEX events_exposure_idx;
DROP INDEX events_conversion_idx;

CREATE TABLE events (
  id           text NOT NULL,
  type         text NOT NULL CHECK (type IN ('page', 'track')),
  name         text NOT NULL,
  brand_id     text,
  session_id   text NOT NULL,
  anonymous_id text NOT NULL,
  user_id      text,
  paid         boolean,
  client_ts    timestamptz NOT NULL,
  received_at  timestamptz NOT NULL,
  ip           text,
  body         jsonb NOT NULL,
  experiment_id text GENERATED ALWAYS AS (body #>> '{properties,page,experiment,id}') STORED,
  experiment_variant text GENERATED ALWAYS AS (body #>> '{properties,page,experiment,variant}') STORED,
  bot boolean GENERATED ALWAYS AS (COALESCE(body #>> '{properties,bot,bot}', 'false') = 'true') STORED,
  PRIMARY KEY (id, client_ts)
) PARTITION BY RANGE (client_ts);

-- The indexes of migrations 0001, 0005 and 0007, on every partition.
CREATE INDEX events_received_at_idx ON events (received_at DESC);
CREATE INDEX events_session_idx ON events (session_id);
CREATE INDEX events_anonymous_ts_idx ON events (anonymous_id, client_ts);
CREATE INDEX events_exposure_idx ON events (experiment_id, anonymous_id, client_ts)
  INCLUDE (experiment_variant, bot) WHERE experiment_id IS NOT NULL;
CREATE INDEX events_conversion_idx ON events (anonymous_id, client_ts)
  WHERE (type = 'page' AND body->>'category' = 'thank-you')
     OR (type = 'track' AND name IN ('funnelCompleted', 'formStepSubmitted'));

-- The partition of the month holding `at`, created when missing (events_YYYY_MM). One caller at a
-- time (two servers may ask for the same month together); returns the partition's name.
CREATE FUNCTION events_ensure_partition(at timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  lo timestamptz := date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  hi timestamptz := (date_trunc('month', at AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  part text := 'events_' || to_char(lo AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
  IF to_regclass(quote_ident(part)) IS NOT NULL THEN RETURN part; END IF;
  PERFORM pg_advisory_xact_lock(7302, hashtext(current_schema()));
  IF to_regclass(quote_ident(part)) IS NULL THEN
    EXECUTE format('CREATE TABLE %I PARTITION OF events FOR VALUES FROM (%L) TO (%L)', part, lo, hi);
  END IF;
  RETURN part;
END
$$;

DO $$
DECLARE m timestamptz;
BEGIN
  FOR m IN SELECT DISTINCT date_trunc('month', client_ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' FROM events_unpartitioned
  LOOP
    PERFORM events_ensure_partition(m);
  END LOOP;
  PERFORM events_ensure_partition(now());
END
$$;

INSERT INTO events (id, type, name, brand_id, session_id, anonymous_id, user_id, paid, client_ts, received_at, ip, body)
  SELECT id, type, name, brand_id, session_id, anonymous_id, user_id, paid, client_ts, received_at, ip, body
  FROM events_unpartitioned;
DROP TABLE events_unpartitioned;

-- Rollups (docs/decisions/0312): every insert marks the browsers it touched; the rollup job
-- (server/store/rollups.ts) takes the marks and recomputes those browsers' rows from their events.
-- A mark commits with the events it stands for, so no commit order, restart or second instance can
-- lose one.
CREATE TABLE rollup_dirty (
  anonymous_id text PRIMARY KEY,
  marked_at    timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION events_mark_dirty() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rollup_dirty (anonymous_id) SELECT DISTINCT anonymous_id FROM inserted_events
    ON CONFLICT (anonymous_id) DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER events_mark_dirty AFTER INSERT ON events REFERENCING NEW TABLE AS inserted_events
  FOR EACH STATEMENT EXECUTE FUNCTION events_mark_dirty();
-- The browsers of the events copied above: the rollup job builds their rows after the migration.
INSERT INTO rollup_dirty (anonymous_id) SELECT DISTINCT anonymous_id FROM events;

-- Drop-off: one row per browser, funnel page and step it reached (bots left out), with the
-- dimensions of the browser's first event on the page and where it went after its last moment on
-- the step: another step's name, '(completed)' or '(left)'.
CREATE TABLE funnel_step_visits (
  anonymous_id text NOT NULL,
  page         text NOT NULL,
  step         text NOT NULL,
  first_ts     timestamptz NOT NULL,        -- the browser's first event on the page
  brand        text NOT NULL,
  source       text NOT NULL,
  device       text NOT NULL,
  variant      text NOT NULL,
  submitted    boolean NOT NULL,
  next         text NOT NULL,
  entry        boolean NOT NULL,            -- the step of the browser's first event on the page
  PRIMARY KEY (anonymous_id, page, step)
);
CREATE INDEX funnel_step_visits_page_idx ON funnel_step_visits (page, first_ts)
  INCLUDE (step, submitted, next, entry, brand, source, device, variant);

-- The same per UTC day of first_ts, page, step, next and dimension: browsers (reached), those that
-- submitted, and those whose entry step it is. Kept by deltas: the rollup job subtracts the rows it
-- deletes and adds the rows it inserts. A drop-off over whole days reads only this table.
CREATE TABLE funnel_step_days (
  day       date NOT NULL,
  page      text NOT NULL,
  step      text NOT NULL,
  next      text NOT NULL,
  brand     text NOT NULL,
  source    text NOT NULL,
  device    text NOT NULL,
  variant   text NOT NULL,
  reached   integer NOT NULL,
  submitted integer NOT NULL,
  visitors  integer NOT NULL,
  PRIMARY KEY (page, day, step, next, brand, source, device, variant)
);

-- Experiment results: the windows (experiment, phase start, phase end or 'infinity') asked for,
-- each built once from the events and then kept up to date by the rollup job; one unit per browser
-- exposed in the window, as the results query of decision 0900 defines it.
CREATE TABLE experiment_windows (
  experiment_id text NOT NULL,
  from_ts       timestamptz NOT NULL,
  to_ts         timestamptz NOT NULL,
  built_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (experiment_id, from_ts, to_ts)
);
CREATE TABLE experiment_units (
  experiment_id text NOT NULL,
  from_ts       timestamptz NOT NULL,
  to_ts         timestamptz NOT NULL,
  anonymous_id  text NOT NULL,
  first_ts      timestamptz NOT NULL,
  variants      integer NOT NULL,
  variant       text,
  bot           boolean NOT NULL,
  brand         text NOT NULL,
  paid          text NOT NULL,
  utm_source    text NOT NULL,
  lead          boolean NOT NULL,
  started       boolean NOT NULL,
  steps         integer,
  PRIMARY KEY (experiment_id, from_ts, to_ts, anonymous_id),
  FOREIGN KEY (experiment_id, from_ts, to_ts) REFERENCES experiment_windows ON DELETE CASCADE
);
-- The units of a window counted per UTC day of first exposure and every value the results group by;
-- kept by deltas with the units (the rollup job subtracts the units it deletes and adds those it
-- inserts). The results read only this table: its size grows with days and value combinations, not
-- with browsers.
CREATE TABLE experiment_unit_days (
  experiment_id text NOT NULL,
  from_ts       timestamptz NOT NULL,
  to_ts         timestamptz NOT NULL,
  day           date NOT NULL,
  variants      integer NOT NULL,             -- least(variants seen, 2)
  variant       text NOT NULL,
  bot           boolean NOT NULL,
  brand         text NOT NULL,
  paid          text NOT NULL,
  utm_source    text NOT NULL,
  lead          boolean NOT NULL,
  started       boolean NOT NULL,
  steps         integer NOT NULL,             -- 0: no step submitted
  n             integer NOT NULL,
  PRIMARY KEY (experiment_id, from_ts, to_ts, day, variants, variant, bot, brand, paid, utm_source, lead, started, steps),
  FOREIGN KEY (experiment_id, from_ts, to_ts) REFERENCES experiment_windows ON DELETE CASCADE
);
