-- Rate limits per organization (src/rate-limit/org-limits.ts). Null means the instance's default.
-- The operator's columns (hearth orgs limits) set what the organization may use, above or below the
-- defaults; the admin columns (PATCH /api/v1/limits) let the organization's own admins lower that,
-- never raise it: the budget in force is the lower of the two.
ALTER TABLE orgs ADD COLUMN rate_limit_max integer CHECK (rate_limit_max > 0);
ALTER TABLE orgs ADD COLUMN key_rate_limit_max integer CHECK (key_rate_limit_max > 0);
ALTER TABLE orgs ADD COLUMN admin_rate_limit_max integer CHECK (admin_rate_limit_max > 0);
ALTER TABLE orgs ADD COLUMN admin_key_rate_limit_max integer CHECK (admin_key_rate_limit_max > 0);

-- Sign-ins under way are bounded per client address (at most a few pending each; the oldest go
-- first), so that GET /auth/sign-in cannot fill the table. Rows from before this migration have no
-- address: '' counts as one address of its own, and they expire within ten minutes anyway.
ALTER TABLE sign_in_attempts ADD COLUMN client_address text NOT NULL DEFAULT '';
CREATE INDEX sign_in_attempts_address ON sign_in_attempts (client_address, expires_at);
