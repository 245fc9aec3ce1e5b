-- Sign-in with OpenID Connect. The identity provider proves who someone is; Hearth decides what
-- they may do. A user row is an invitation until its first sign-in binds it to the provider's
-- identity (issuer + subject): from then on that identity, and only it, signs in as this user,
-- even if the address at the provider changes.
ALTER TABLE users ADD COLUMN idp_issuer text;
ALTER TABLE users ADD COLUMN idp_subject text;
ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz;
ALTER TABLE users ADD CONSTRAINT users_identity_complete CHECK ((idp_issuer IS NULL) = (idp_subject IS NULL));
CREATE UNIQUE INDEX users_org_identity ON users (org_id, idp_issuer, idp_subject);
CREATE INDEX users_identity ON users (idp_issuer, idp_subject);
CREATE INDEX users_email ON users (lower(email));

-- A sign-in under way: created when the browser is sent to the provider, consumed (deleted) by
-- the callback, so a state, and the code it came with, work once. Only the state's SHA-256 is a
-- key here; the browser holds the state itself in a short-lived cookie, which ties the callback
-- to the browser that started the sign-in.
CREATE TABLE sign_in_attempts (
  state_hash text PRIMARY KEY,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  return_to text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sign_in_attempts_expiry ON sign_in_attempts (expires_at);
