-- Staff sign-in hardening (issue 12, docs/decisions/0702): an account locked after too many failed
-- sign-ins stays locked until `npm run staff -- unlock EMAIL`; a session also ends after being idle.
ALTER TABLE staff_users ADD COLUMN locked_at timestamptz;
ALTER TABLE auth_sessions ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now();
