-- One event id, one row, under any concurrency (issue 36, docs/decisions/0720). The partitioned events
-- table can only be unique on keys that hold its partition key (id, client_ts), so two deliveries of
-- one id with different client times, or racing each other into different partitions, were both
-- stored. Every id is claimed first in event_ids, an ordinary table whose primary key is the id
-- alone: of two inserts racing for an id, the second waits for the first and claims nothing, and only
-- claimed rows go into events (server/store/event-store.ts). Retention deletes the claims of the
-- months it drops (their client_ts range). Same SQL on PGlite and PostgreSQL.

CREATE TABLE event_ids (
  id        text PRIMARY KEY,
  client_ts timestamptz NOT NULL
);
CREATE INDEX event_ids_client_ts_idx ON event_ids (client_ts);

-- The ids already stored; a duplicate an earlier race left keeps its earliest row (by client time,
-- then received time), the others are deleted.
INSERT INTO event_ids (id, client_ts)
  SELECT DISTINCT ON (id) id, client_ts FROM events ORDER BY id, client_ts, received_at;
DELETE FROM events e USING event_ids c WHERE e.id = c.id AND e.client_ts <> c.client_ts;

-- Two transactions creating the same month together: the second waited for the first on the advisory
-- lock, but its catalog lookup could still miss the table the first had just committed (an advisory
-- lock does not refresh the catalog snapshot), and CREATE TABLE then failed with "already exists".
-- The table is there: that is success.
CREATE OR REPLACE FUNCTION events_ensure_partition(at timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  lo timestamptz := date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  hi timestamptz := (date_trunc('month', at AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  part text := 'events_' || to_char(lo AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
  IF to_regclass(quote_ident(part)) IS NOT NULL THEN RETURN part; END IF;
  PERFORM pg_advisory_xact_lock(7302, hashtext(current_schema()));
  IF to_regclass(quote_ident(part)) IS NULL THEN
    BEGIN
      EXECUTE format('CREATE TABLE %I PARTITION OF events FOR VALUES FROM (%L) TO (%L)', part, lo, hi);
    EXCEPTION WHEN duplicate_table OR unique_violation THEN
      NULL;
    END;
  END IF;
  RETURN part;
END
$$;
