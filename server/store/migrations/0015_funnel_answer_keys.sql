-- Who may read and change the answers kept under an anonymous id (issue 29, docs/decisions/0220).
-- The anonymous id is not a secret (every analytics event and the tag manager's dataLayer carry it),
-- so the answers of funnel_answers are only given to a browser holding a key whose SHA-256 is listed
-- here for that id: the httpOnly fw_akey cookie, set when the id is first claimed or a resume link is
-- opened on another device (one row per browser). Rows older than FUNNEL_ANSWERS_TTL are not read.
CREATE TABLE funnel_answer_keys (
  anonymous_id text NOT NULL,
  key_sha256   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (anonymous_id, key_sha256)
);
CREATE INDEX funnel_answer_keys_created_at ON funnel_answer_keys (created_at);
