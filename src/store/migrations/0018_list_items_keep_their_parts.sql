-- Issue 18: a write to a household's own fields (PATCH, the most frequent write) no longer reads its
-- members and assignments again to rewrite its list item. An item's `members` and `assignments`
-- change only through writes to members, assignments and users' names; every such write already
-- updates the households it touches (refresh_household_counts, users_refresh_list_items), and now
-- also rebuilds their whole items right after, under the row locks that update took. So an update
-- of households keeps the parts of its stored item and rewrites only the household's own fields.

-- The one list of an item's fields (schema HouseholdListItem; LIST_ITEM_PAIRS in
-- src/store/households.ts): the household's own fields from its row, the members and assignments
-- arrays as given.
CREATE FUNCTION household_list_item_with(h households, members json, assignments json) RETURNS json
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN json_build_object(
    'id', h.id,
    'name', h.name, 'externalId', h.external_id,
    'createdAt', to_char(h.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updatedAt', to_char(h.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'isSample', h.is_sample,
    'members', members,
    'assignments', assignments,
    'counts', json_build_object('members', h.member_count, 'assignments', h.assignment_count, 'entities', h.entity_count));
END $$;

-- The whole item, its parts read from members, assignments and users.
CREATE OR REPLACE FUNCTION household_list_item(h households) RETURNS json
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN household_list_item_with(h,
    CASE WHEN h.member_count = 0 THEN '[]'::json ELSE (
      SELECT json_agg(json_build_object('id', m.id, 'name', m.name, 'role', m.role) ORDER BY m.position, m.id)
      FROM members m WHERE m.household_id = h.id) END,
    CASE WHEN h.assignment_count = 0 THEN '[]'::json ELSE (
      SELECT json_agg(json_build_object('userId', u.id, 'name', u.name, 'role', a.role) ORDER BY a.created_at, u.id)
      FROM assignments a JOIN users u ON u.id = a.user_id WHERE a.household_id = h.id) END);
END $$;

-- Whole items for these households, read from their rows now. Callers hold the households' row
-- locks (they have just updated them), so no write can come between this read and their commit.
CREATE FUNCTION rebuild_household_list_items(ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO household_list_items AS i (household_id, item)
  SELECT h.id, household_list_item(h) FROM households h WHERE h.id = ANY (ids)
  ON CONFLICT (household_id) DO UPDATE SET item = excluded.item;
END $$;

-- An update of households: its own fields from the row, the parts from the stored item (`->` on
-- json answers the part's text as stored, so the item stays byte for byte what a whole build
-- gives). A household without a stored item gets a whole one.
CREATE FUNCTION households_update_list_items() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO household_list_items AS i (household_id, item)
  SELECT n.id, CASE WHEN s.item IS NULL THEN household_list_item(n)
    ELSE household_list_item_with(n, s.item -> 'members', s.item -> 'assignments') END
  FROM new_rows n LEFT JOIN household_list_items s ON s.household_id = n.id
  ON CONFLICT (household_id) DO UPDATE SET item = excluded.item;
  RETURN NULL;
END $$;

DROP TRIGGER households_list_items_update ON households;
CREATE TRIGGER households_list_items_update AFTER UPDATE ON households
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION households_update_list_items();

-- Writes to members and assignments: the counts as before (0010), then the touched households'
-- whole items. Entities are in no item's parts, only in its counts, which the update above writes.
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
  IF TG_TABLE_NAME <> 'entities' THEN
    PERFORM rebuild_household_list_items(touched);
  END IF;
  RETURN NULL;
END $$;

-- A user's new name: the households they are assigned to are updated (locked), then rebuilt whole.
CREATE OR REPLACE FUNCTION users_refresh_list_items() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  touched uuid[];
BEGIN
  SELECT array_agg(DISTINCT a.household_id) INTO touched
  FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN assignments a ON a.user_id = n.id
  WHERE n.name IS DISTINCT FROM o.name;
  IF touched IS NULL THEN
    RETURN NULL;
  END IF;
  UPDATE households h SET updated_at = h.updated_at WHERE h.id = ANY (touched);
  PERFORM rebuild_household_list_items(touched);
  RETURN NULL;
END $$;

-- The whole-item trigger function of 0017 stays for inserts (a new household has no stored parts).
