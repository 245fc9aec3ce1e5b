-- Choosing an organization at sign-in. When an identity could sign in to more than one
-- organization (memberships, or invitations to its verified address), or has an open invitation
-- beside a membership, nothing is bound at the callback: the choice waits here, keyed by the
-- SHA-256 of a random token the browser holds in a cookie scoped to /auth, and is taken (deleted)
-- once by the organization the person picks. Only then is that one invitation bound.
CREATE TABLE sign_in_choices (
  token_hash text PRIMARY KEY,
  idp_issuer text NOT NULL,
  idp_subject text NOT NULL,
  -- The address the provider verified at this sign-in: the only one whose invitations may be accepted.
  verified_email text,
  return_to text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sign_in_choices_expiry ON sign_in_choices (expires_at);

-- A session remembers the address the provider verified when it was signed in, so that switching
-- organizations can accept an invitation to that address (and to no other: a user's email in one
-- organization is whatever its admins typed, not something the provider vouched for).
ALTER TABLE sessions ADD COLUMN verified_email text;
