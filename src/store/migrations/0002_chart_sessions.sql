-- Chart tokens: the keys that sign them (shared by every instance through the database, so a
-- token minted by one verifies against the JWKS served by any other), and one row per mint for
-- metering.

CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  algorithm text NOT NULL,
  public_jwk jsonb NOT NULL,
  private_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE chart_mints (
  jti uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  -- The API key that minted it (no foreign key: metering outlives a deleted key).
  key_id uuid NOT NULL,
  frame_origin text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chart_mints_org_created ON chart_mints (org_id, created_at);
