-- Operational data (ARCHITECTURE decision 4): events, visitor records, staff users, their sessions,
-- and the audit log. Applied once, in a transaction, by server/store/migrate.ts.

CREATE TABLE events (
  id           text PRIMARY KEY,            -- the client's event id: a redelivery is stored once
  type         text NOT NULL CHECK (type IN ('page', 'track')),
  name         text NOT NULL,               -- page name for a pageview, event name otherwise
  brand_id     text,
  session_id   text NOT NULL,
  anonymous_id text NOT NULL,
  user_id      text,
  paid         boolean,
  client_ts    timestamptz NOT NULL,
  received_at  timestamptz NOT NULL,        -- server time
  ip           text,
  body         jsonb NOT NULL               -- the validated body as received
);
CREATE INDEX events_received_at_idx ON events (received_at DESC);
CREATE INDEX events_session_idx ON events (session_id);

CREATE TABLE visitors (
  user_id       text PRIMARY KEY,
  anonymous_id  text NOT NULL,
  session       jsonb NOT NULL,
  url_params    jsonb NOT NULL,
  updated_at    bigint NOT NULL,            -- client time of the change (ms); the newest wins
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  ip            text
);

CREATE TABLE staff_users (
  id            text PRIMARY KEY,
  email         text NOT NULL UNIQUE,
  name          text NOT NULL,
  password_hash text NOT NULL,
  role          text NOT NULL DEFAULT 'editor',
  disabled      boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE auth_sessions (
  token_hash  text PRIMARY KEY,             -- sha-256 of the cookie value; the value itself is never stored
  user_id     text NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  ip          text,
  user_agent  text
);
CREATE INDEX auth_sessions_user_idx ON auth_sessions (user_id);

CREATE TABLE audit_log (
  id       bigserial PRIMARY KEY,
  at       timestamptz NOT NULL DEFAULT now(),
  actor    text,                            -- staff user id, or null for the system
  action   text NOT NULL,
  target   text,
  details  jsonb NOT NULL DEFAULT '{}',
  ip       text
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC);
