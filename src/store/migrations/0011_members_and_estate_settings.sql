-- Members the chart can draw, and the household's estate settings (issue 14).
--
-- The member roles are the chart's list (src/domain/household-roles.ts MEMBER_ROLES): spouse (a
-- deceased spouse is a member with this role and a death date), inLaw, greatGrandchild. The
-- constraint is the one 0001 declared inline, which PostgreSQL (and PGlite) named members_role_check.
ALTER TABLE members DROP CONSTRAINT members_role_check;
ALTER TABLE members ADD CONSTRAINT members_role_check CHECK (role IN (
  'primaryClient', 'coClient', 'spouse', 'child', 'grandchild', 'greatGrandchild', 'parent', 'sibling', 'inLaw', 'other'
));

-- A partner's own id for the member (the chart payload's id rule); names at most one member of a
-- household, as entities' external_id does (the chart import matches on it).
ALTER TABLE members ADD COLUMN external_id text;
CREATE UNIQUE INDEX members_external_id ON members (household_id, external_id) WHERE external_id IS NOT NULL;

-- What kind of parent (null = not stated), and when a couple married or partnered and parted.
ALTER TABLE member_relationships ADD COLUMN parent_kind text
  CHECK (parent_kind IN ('biological', 'adopted', 'step', 'foster'));
ALTER TABLE member_relationships ADD COLUMN since date;
ALTER TABLE member_relationships ADD COLUMN until date;
ALTER TABLE member_relationships ADD CONSTRAINT member_relationships_parent_kind_of_parent
  CHECK (parent_kind IS NULL OR type = 'parent');
ALTER TABLE member_relationships ADD CONSTRAINT member_relationships_dates_of_couples
  CHECK (type <> 'parent' OR (since IS NULL AND until IS NULL));
ALTER TABLE member_relationships ADD CONSTRAINT member_relationships_until_after_since
  CHECK (until >= since);

-- The estate facts a projection needs, stored as sent (the chart computes; the API does not).
-- A NOT NULL column with a constant default is added without rewriting the table.
ALTER TABLE households ADD COLUMN currency text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$');
ALTER TABLE households ADD COLUMN portability_elected text CHECK (portability_elected IN ('yes', 'no', 'unknown'));
ALTER TABLE households ADD COLUMN primary_client_lifetime_gifts numeric(15, 2) CHECK (primary_client_lifetime_gifts >= 0);
ALTER TABLE households ADD COLUMN co_client_lifetime_gifts numeric(15, 2) CHECK (co_client_lifetime_gifts >= 0);
ALTER TABLE households ADD COLUMN primary_client_exemption_used numeric(15, 2) CHECK (primary_client_exemption_used >= 0);
ALTER TABLE households ADD COLUMN co_client_exemption_used numeric(15, 2) CHECK (co_client_exemption_used >= 0);
ALTER TABLE households ADD COLUMN primary_client_us_citizen boolean;
ALTER TABLE households ADD COLUMN co_client_us_citizen boolean;
