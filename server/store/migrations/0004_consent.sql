-- Consent evidence (issue 17, docs/decisions/0800): every consent text version the server has served,
-- and a record per step submitted under a consent text. Both tables are append-only: a record is proof,
-- so not even the application may change or remove one. Same SQL on PGlite and PostgreSQL.

CREATE TABLE consent_versions (
  version       text PRIMARY KEY,           -- <consent id>@<first 16 hex of sha256(template)>
  consent_id    text NOT NULL,
  language      text NOT NULL,
  template      text NOT NULL,              -- the stored text, placeholders unfilled
  template_sha256 text NOT NULL,
  first_snapshot_id text NOT NULL,          -- the snapshot it was first served in
  first_seen_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE consent_records (
  id             text PRIMARY KEY,          -- the browser's record id: a redelivery is stored once
  received_at    timestamptz NOT NULL,      -- server time
  session_id     text NOT NULL,
  anonymous_id   text NOT NULL,
  user_id        text,
  brand_id       text NOT NULL,
  page_key       text NOT NULL,
  form_version   text NOT NULL,
  step_name      text NOT NULL,
  step_number    integer NOT NULL,
  consent_id     text NOT NULL,
  version        text NOT NULL REFERENCES consent_versions (version),
  text           text NOT NULL,             -- exactly as shown
  text_sha256    text NOT NULL,
  seller         text NOT NULL,
  button_label   text NOT NULL,
  fields         jsonb NOT NULL,            -- names of the fields collected on the step, not values
  url            text NOT NULL,
  ip             text,
  user_agent     text,
  snapshot_id    text NOT NULL,             -- the content revision the page was rendered from
  content_commit text,                      -- the published commit of that snapshot, when known
  experiment     jsonb,
  body           jsonb NOT NULL             -- the validated body as received
);
CREATE INDEX consent_records_session_idx ON consent_records (session_id);
CREATE INDEX consent_records_anonymous_idx ON consent_records (anonymous_id);

CREATE FUNCTION consent_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP;
END
$$;
CREATE TRIGGER consent_records_no_update_delete BEFORE UPDATE OR DELETE ON consent_records
  FOR EACH ROW EXECUTE FUNCTION consent_append_only();
CREATE TRIGGER consent_records_no_truncate BEFORE TRUNCATE ON consent_records
  FOR EACH STATEMENT EXECUTE FUNCTION consent_append_only();
CREATE TRIGGER consent_versions_no_update_delete BEFORE UPDATE OR DELETE ON consent_versions
  FOR EACH ROW EXECUTE FUNCTION consent_append_only();
CREATE TRIGGER consent_versions_no_truncate BEFORE TRUNCATE ON consent_versions
  FOR EACH STATEMENT EXECUTE FUNCTION consent_append_only();

-- The ad-marketplace calls the server proxied for a visitor (demand checks and phone leases), so a
-- lead's record can say which number was shown to whom and when. sub_2 / sub_3 of the payload are the
-- visitor's user and session ids (spec point 7).
CREATE TABLE marketplace_calls (
  id          bigserial PRIMARY KEY,
  at          timestamptz NOT NULL DEFAULT now(),
  kind        text NOT NULL CHECK (kind IN ('demand-check', 'get-phone')),
  user_id     text,
  session_id  text,
  page_url    text,
  ok          boolean NOT NULL,
  status      integer,
  phone       text,                         -- the number leased (get-phone)
  expires_at  timestamptz,
  answer      jsonb                         -- the demand check's answer, or the error
);
CREATE INDEX marketplace_calls_session_idx ON marketplace_calls (session_id);
CREATE INDEX marketplace_calls_user_idx ON marketplace_calls (user_id);
