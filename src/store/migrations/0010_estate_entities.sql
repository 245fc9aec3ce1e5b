-- The estate in the records (issue 14): a household's entities (trusts, business entities,
-- charities, holdings and parties such as a corporate trustee), each value change of an entity,
-- and the links that say who holds what (grantor, trustee, beneficiary, owner, …). The kinds and
-- link types are declared once in src/domain/estate-vocabulary.ts; the CHECKs here repeat them so
-- that the database refuses what the API would, and test/households/estate-vocabulary.test.ts
-- compares the two.

CREATE TABLE entities (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  household_id uuid NOT NULL REFERENCES households (id) ON DELETE CASCADE,
  name text NOT NULL,
  short_name text,
  kind text NOT NULL CHECK (kind IN (
    'revocableTrust', 'irrevocableTrust', 'ilit', 'slat', 'grat', 'crt', 'clt', 'qprt', 'qtip',
    'creditShelterTrust', 'dynastyTrust', 'specialNeedsTrust',
    'llc', 'flp', 'corporation',
    'foundation', 'daf', 'publicCharity',
    'taxableAccount', 'retirementAccount', 'lifeInsurance', 'realEstate', 'businessInterest', 'otherAsset',
    'corporateTrustee', 'lawFirm', 'otherParty',
    'other'
  )),
  -- In the household's currency; null when not known. A party (corporateTrustee, lawFirm,
  -- otherParty) never holds one (the use case refuses it).
  value numeric(15, 2) CHECK (value >= 0),
  value_as_of date,
  -- Inside or outside the taxable estate as the advisor set it; null = the kind's default.
  estate text CHECK (estate IN ('in', 'out')),
  notes text,
  external_id text,
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz(3) NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX entities_household ON entities (household_id, position, id);
-- A partner's own id names at most one entity of a household (the chart import matches on it).
CREATE UNIQUE INDEX entities_external_id ON entities (household_id, external_id) WHERE external_id IS NOT NULL;

-- Every value an entity has had, with the date it was valued at: a row per create with a value and
-- per change of value or valueAsOf. value null records that the value was cleared.
CREATE TABLE entity_valuations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  household_id uuid NOT NULL REFERENCES households (id) ON DELETE CASCADE,
  entity_id uuid NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  value numeric(15, 2),
  value_as_of date,
  recorded_at timestamptz(3) NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX entity_valuations_entity ON entity_valuations (entity_id, recorded_at, id);

-- Who holds what: from a member or an entity (exactly one of the two) to an entity.
CREATE TABLE entity_links (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  household_id uuid NOT NULL REFERENCES households (id) ON DELETE CASCADE,
  from_member_id uuid REFERENCES members (id) ON DELETE CASCADE,
  from_entity_id uuid REFERENCES entities (id) ON DELETE CASCADE,
  to_entity_id uuid NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN (
    'grantor', 'trustee', 'successorTrustee', 'beneficiary', 'owner', 'insured', 'generalPartner', 'limitedPartner'
  )),
  -- A percentage in (0, 100]: for beneficiaries, owners and partners.
  share numeric(7, 4) CHECK (share > 0 AND share <= 100),
  beneficiary_type text CHECK (beneficiary_type IN ('primary', 'contingent', 'income', 'remainder')),
  created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  CHECK ((from_member_id IS NULL) <> (from_entity_id IS NULL)),
  CHECK (from_entity_id IS DISTINCT FROM to_entity_id),
  CHECK (beneficiary_type IS NULL OR type = 'beneficiary')
);
CREATE INDEX entity_links_household ON entity_links (household_id);
CREATE INDEX entity_links_to ON entity_links (to_entity_id);
CREATE INDEX entity_links_from_member ON entity_links (from_member_id) WHERE from_member_id IS NOT NULL;
CREATE INDEX entity_links_from_entity ON entity_links (from_entity_id) WHERE from_entity_id IS NOT NULL;

-- The entity an entity.* action, and the link a link.* action, concerned.
ALTER TABLE audit_log ADD COLUMN entity_id uuid;
ALTER TABLE audit_log ADD COLUMN link_id uuid;

-- counts.entities of list items, kept like member_count.
ALTER TABLE households ADD COLUMN entity_count integer NOT NULL DEFAULT 0;

-- Search now also matches entity names.
CREATE OR REPLACE FUNCTION household_search_text(household households) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT lower(concat_ws(' ', household.name, household.deceased_spouse_name,
    (SELECT string_agg(m.name, ' ' ORDER BY m.position, m.id) FROM members m WHERE m.household_id = household.id),
    (SELECT string_agg(e.name, ' ' ORDER BY e.position, e.id) FROM entities e WHERE e.household_id = household.id)))
$$;

CREATE OR REPLACE FUNCTION refresh_household_counts() RETURNS trigger
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
    assignment_count = (SELECT count(*) FROM assignments a WHERE a.household_id = h.id),
    entity_count = (SELECT count(*) FROM entities e WHERE e.household_id = h.id)
  WHERE h.id = ANY (touched);
  RETURN NULL;
END $$;

CREATE TRIGGER entities_refresh_insert AFTER INSERT ON entities
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_household_counts();
CREATE TRIGGER entities_refresh_delete AFTER DELETE ON entities
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_household_counts();
CREATE TRIGGER entities_refresh_update AFTER UPDATE ON entities
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_household_counts();
