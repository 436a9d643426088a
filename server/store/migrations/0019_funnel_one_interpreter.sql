-- One interpreter of funnel steps (issue 35, docs/decisions/0230, 0231, 0232).
--
-- 1. Events in a stable order: every stored event carries `seq`, drawn from one sequence in insertion
--    order (the rows of one request are inserted in the order the request recorded them), so it
--    increases along each visitor's events. Drop-off and `leads show` order a visitor's events by
--    (client_ts, seq): events of one request that share a millisecond keep the order they happened in,
--    never a random id's. Rows stored before this migration get values in an arbitrary order.
CREATE SEQUENCE events_seq AS bigint;
ALTER TABLE events ADD COLUMN seq bigint NOT NULL DEFAULT nextval('events_seq');
ALTER SEQUENCE events_seq OWNED BY events.seq;

-- 2. A browser that opened a resume link (docs/decisions/0232) is given no contact details (name,
--    e-mail, phone, address) until it has posted a step of the funnel itself: `contact_hidden` on its key.
ALTER TABLE funnel_answer_keys ADD COLUMN contact_hidden boolean NOT NULL DEFAULT false;

-- 3. Resume links die when their funnel completes or the visitor starts over: every link of an
--    anonymous id issued at or before `ended_at` is refused.
CREATE TABLE funnel_resume_ends (
  anonymous_id text PRIMARY KEY,
  ended_at     timestamptz NOT NULL
);
