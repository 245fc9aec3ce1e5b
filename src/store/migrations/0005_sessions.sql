-- Web app sessions: the idp-session cookie holds an opaque random value; only its SHA-256 is
-- stored, so a copy of this table signs nobody in. A session ends when it is revoked (sign out),
-- when it has not been used for the idle timeout (idle_expires_at slides forward with use), or
-- at its absolute expiry, whichever comes first. See src/auth/sessions.ts for the durations.
CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  idle_expires_at timestamptz NOT NULL,
  absolute_expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Chart tokens can now be minted by a signed-in user as well as by an API key: key_id holds
-- the id of whichever minted it, and actor_type says which.
ALTER TABLE chart_mints ADD COLUMN actor_type text NOT NULL DEFAULT 'apiKey' CHECK (actor_type IN ('apiKey', 'user'));
COMMENT ON COLUMN chart_mints.key_id IS 'id of the minting API key, or of the user when actor_type = user';
