-- A person's data on request (issue 36, docs/decisions/0811): erasure redacts a consent record in place
-- and keeps its proof, and each erasure is remembered by the hashes of the keys it covered.

-- A consent record may change once: its erasure. The trigger lets exactly that update through — the
-- identifying columns cleared, every column of the proof (text, hash, version, time, page, revision,
-- seller, button, brand, step) unchanged — and still refuses any other UPDATE, every DELETE and TRUNCATE.
ALTER TABLE consent_records ADD COLUMN erased_at timestamptz;

CREATE FUNCTION consent_records_erasure_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.erased_at IS NULL AND NEW.erased_at IS NOT NULL
     AND NEW.id = OLD.id AND NEW.received_at = OLD.received_at
     AND NEW.brand_id = OLD.brand_id AND NEW.page_key = OLD.page_key AND NEW.form_version = OLD.form_version
     AND NEW.step_name = OLD.step_name AND NEW.step_number = OLD.step_number
     AND NEW.consent_id = OLD.consent_id AND NEW.version = OLD.version
     AND NEW.text = OLD.text AND NEW.text_sha256 = OLD.text_sha256
     AND NEW.seller = OLD.seller AND NEW.button_label = OLD.button_label AND NEW.fields = OLD.fields
     AND NEW.snapshot_id = OLD.snapshot_id AND NEW.content_commit IS NOT DISTINCT FROM OLD.content_commit
     AND NEW.session_id = 'erased' AND NEW.anonymous_id = 'erased' AND NEW.user_id IS NULL
     AND NEW.ip IS NULL AND NEW.user_agent IS NULL
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'consent_records is append-only (only an erasure may redact a record, once): % refused', TG_OP;
END
$$;
DROP TRIGGER consent_records_no_update_delete ON consent_records;
CREATE TRIGGER consent_records_no_update_delete BEFORE UPDATE OR DELETE ON consent_records
  FOR EACH ROW EXECUTE FUNCTION consent_records_erasure_only();

-- Erasures, without the erased values: the SHA-256 of each key they covered (the e-mail, the phone's
-- digits, every anonymous, session and user id), so `npm run leads -- show` can say "erased".
CREATE TABLE lead_erasures (
  id         text PRIMARY KEY,
  at         timestamptz NOT NULL DEFAULT now(),
  actor      text,                            -- staff user id, or null for the CLI
  key_hashes text[] NOT NULL,
  counts     jsonb NOT NULL DEFAULT '{}'      -- rows deleted or redacted per table
);
CREATE INDEX lead_erasures_key_hashes_idx ON lead_erasures USING gin (key_hashes);
