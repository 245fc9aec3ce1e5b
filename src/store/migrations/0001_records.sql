-- Organizations, households (wire name of "relationships"), their members and advisors,
-- API keys, embed frame origins, idempotency records and per-key usage.
--
-- Derived values (per-org household counts, per-household member/assignment counts and the
-- search text) are kept by statement-level triggers, so that every write path — API, CLI,
-- bulk loads, a later migration — keeps them correct inside its own transaction, and a bulk
-- insert costs one counter update per statement rather than one per row.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE orgs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  is_demo boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Households per org, kept by the households_count_* triggers; an unfiltered (or sample-only)
-- list reads its total here instead of counting. Spread over 16 rows per org: each writing
-- statement adds to one row picked at random, so concurrent creates in one org do not all queue
-- on one row lock until they commit. A total is the sum of the org's rows (at most 16).
CREATE TABLE org_household_counts (
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  shard smallint NOT NULL,
  households integer NOT NULL DEFAULT 0,
  samples integer NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, shard)
);

-- Advisors and other people of an organization (assignments point at them; sign-in comes later).
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  email text NOT NULL,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'advisor', 'viewer')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_org_email ON users (org_id, lower(email));

CREATE TABLE households (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  name text NOT NULL,
  is_sample boolean NOT NULL DEFAULT false,
  dsue_received numeric(15, 2),
  deceased_spouse_name text,
  dsue_date_of_death date,
  metadata jsonb,
  primary_client_as_donor boolean,
  co_client_as_donor boolean,
  -- Maintained by triggers (see below).
  member_count integer NOT NULL DEFAULT 0,
  assignment_count integer NOT NULL DEFAULT 0,
  search_text text NOT NULL DEFAULT '',
  -- clock_timestamp(), not now(): households created in one transaction (samples, imports)
  -- still get distinct, ordered creation times. Millisecond precision, as the API shows them,
  -- so that the database's own JSON and JavaScript's toISOString() always agree.
  created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz(3) NOT NULL DEFAULT clock_timestamp()
);
-- One index per sort key; each ends in id, the tie-breaker, so pages never overlap.
CREATE INDEX households_org_created ON households (org_id, created_at, id);
CREATE INDEX households_org_name ON households (org_id, (lower(name) COLLATE "C"), id);
CREATE INDEX households_org_members ON households (org_id, member_count, id);
-- Substring search over names (household, members, deceased spouse).
CREATE INDEX households_search ON households USING gin (search_text gin_trgm_ops);

CREATE TABLE members (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  household_id uuid NOT NULL REFERENCES households (id) ON DELETE CASCADE,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('primaryClient', 'coClient', 'child', 'grandchild', 'parent', 'sibling', 'other')),
  birth_date date,
  death_date date,
  email text,
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX members_household ON members (household_id, position, id);
CREATE UNIQUE INDEX members_one_primary_client ON members (household_id) WHERE role = 'primaryClient';
CREATE UNIQUE INDEX members_one_co_client ON members (household_id) WHERE role = 'coClient';

CREATE TABLE assignments (
  household_id uuid NOT NULL REFERENCES households (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('leadAdvisor', 'advisor', 'paraplanner', 'serviceAssociate')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (household_id, user_id)
);
CREATE INDEX assignments_user ON assignments (user_id);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- The first characters of the key, shown in listings so people can tell keys apart.
  prefix text NOT NULL,
  -- SHA-256 of the whole key, hex. The key itself is never stored.
  secret_hash text NOT NULL UNIQUE,
  permissions text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_keys_org ON api_keys (org_id, created_at);

-- Calls per key per UTC day, split by legacy (/api/v1/households) and current paths.
CREATE TABLE api_key_usage (
  key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  day date NOT NULL,
  legacy boolean NOT NULL,
  calls integer NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, day, legacy)
);

CREATE TABLE frame_origins (
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  origin text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, origin)
);

-- Responses to creates made with an Idempotency-Key (always 201), replayed for 24 hours. The row is
-- claimed with a null response inside the create's transaction and completed before it commits.
CREATE TABLE idempotency_keys (
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  key text NOT NULL,
  request_hash text NOT NULL,
  response jsonb,
  location text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- Search text: lower-cased names of the household, its deceased spouse and its members.
CREATE FUNCTION household_search_text(household households) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT lower(concat_ws(' ', household.name, household.deceased_spouse_name,
    (SELECT string_agg(m.name, ' ' ORDER BY m.position, m.id) FROM members m WHERE m.household_id = household.id)))
$$;

CREATE FUNCTION households_refresh_search_text() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := household_search_text(NEW);
  RETURN NEW;
END $$;

CREATE TRIGGER households_search_text BEFORE INSERT OR UPDATE ON households
  FOR EACH ROW EXECUTE FUNCTION households_refresh_search_text();

-- Per-org counts. Transition tables make a bulk insert or delete one upsert per org.
CREATE FUNCTION households_count_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  picked smallint := floor(random() * 16);
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO org_household_counts AS c (org_id, shard, households, samples)
    SELECT org_id, picked, count(*), count(*) FILTER (WHERE is_sample) FROM new_rows GROUP BY org_id
    ON CONFLICT (org_id, shard) DO UPDATE SET households = c.households + excluded.households, samples = c.samples + excluded.samples;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO org_household_counts AS c (org_id, shard, households, samples)
    SELECT org_id, picked, -count(*), -count(*) FILTER (WHERE is_sample) FROM old_rows GROUP BY org_id
    ON CONFLICT (org_id, shard) DO UPDATE SET households = c.households + excluded.households, samples = c.samples + excluded.samples;
  ELSE
    -- Only a flip of is_sample changes a count; other updates write no count row at all.
    INSERT INTO org_household_counts AS c (org_id, shard, households, samples)
    SELECT n.org_id, picked, 0, sum(CASE WHEN n.is_sample THEN 1 ELSE -1 END)
    FROM new_rows n JOIN old_rows p ON p.id = n.id
    WHERE n.is_sample <> p.is_sample GROUP BY n.org_id
    ON CONFLICT (org_id, shard) DO UPDATE SET samples = c.samples + excluded.samples;
  END IF;
  RETURN NULL;
END $$;

-- A household never moves between organizations.
CREATE FUNCTION households_keep_org() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.org_id <> OLD.org_id THEN
    RAISE EXCEPTION 'a household cannot move to another organization';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER households_keep_org BEFORE UPDATE OF org_id ON households
  FOR EACH ROW EXECUTE FUNCTION households_keep_org();
CREATE TRIGGER households_count_insert AFTER INSERT ON households
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION households_count_changes();
CREATE TRIGGER households_count_delete AFTER DELETE ON households
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION households_count_changes();
CREATE TRIGGER households_count_update AFTER UPDATE ON households
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION households_count_changes();

-- Member and assignment counts (and, through the BEFORE UPDATE trigger, the search text) of the
-- households that a statement on members or assignments touched; both tables have household_id.
-- An INSERT trigger has no old_rows and a DELETE trigger no new_rows, hence the three branches.
CREATE FUNCTION refresh_household_counts() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  touched uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT household_id) INTO touched FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT household_id) INTO touched FROM old_rows;
  ELSE
    SELECT array_agg(DISTINCT household_id) INTO touched FROM (SELECT household_id FROM new_rows UNION SELECT household_id FROM old_rows) t;
  END IF;
  UPDATE households h SET
    member_count = (SELECT count(*) FROM members m WHERE m.household_id = h.id),
    assignment_count = (SELECT count(*) FROM assignments a WHERE a.household_id = h.id)
  WHERE h.id = ANY (touched);
  RETURN NULL;
END $$;

CREATE TRIGGER members_refresh_insert AFTER INSERT ON members
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_household_counts();
CREATE TRIGGER members_refresh_delete AFTER DELETE ON members
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_household_counts();
CREATE TRIGGER members_refresh_update AFTER UPDATE ON members
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_household_counts();

CREATE TRIGGER assignments_refresh_insert AFTER INSERT ON assignments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_household_counts();
CREATE TRIGGER assignments_refresh_delete AFTER DELETE ON assignments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_household_counts();
CREATE TRIGGER assignments_refresh_update AFTER UPDATE ON assignments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_household_counts();
