-- The whole household record: a version for optimistic concurrency (the ETag), relationships
-- between members, and an audit log of every write.

-- Bumped by every write to the household or its members and assignments, in the writing
-- transaction; its value is the household's ETag. A write names the version it read (If-Match)
-- and updates only that version, so of two writers who read the same one exactly one wins.
ALTER TABLE households ADD COLUMN version integer NOT NULL DEFAULT 1;

-- spouse, partner and exSpouse are symmetric and stored once; parent means from is a parent of to.
CREATE TABLE member_relationships (
  household_id uuid NOT NULL REFERENCES households (id) ON DELETE CASCADE,
  from_member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  to_member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('spouse', 'partner', 'exSpouse', 'parent')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (from_member_id, to_member_id),
  CHECK (from_member_id <> to_member_id)
);
CREATE INDEX member_relationships_household ON member_relationships (household_id);
CREATE INDEX member_relationships_to ON member_relationships (to_member_id);

-- Who changed what, never the values: `changed` names fields only (metadata stays private).
-- No foreign key to households: the log outlives a deleted household.
CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  actor_type text NOT NULL CHECK (actor_type IN ('apiKey', 'user')),
  actor_id uuid NOT NULL,
  action text NOT NULL,
  household_id uuid,
  -- The member a member.* action concerned.
  member_id uuid,
  changed text[] NOT NULL DEFAULT '{}',
  at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX audit_log_org ON audit_log (org_id, at, id);
CREATE INDEX audit_log_household ON audit_log (org_id, household_id, at, id);
