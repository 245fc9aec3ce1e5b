-- Issue 18: a list page reads stored items instead of building them, and search in one organization
-- does not pay for the others' rows.

-- Each household's list item (schema HouseholdListItem), as the finished JSON text a list page
-- concatenates. This is the list item of src/store/households.ts (LIST_ITEM_PAIRS, built from the
-- field declarations), written out: test/integration/list-items.test.ts holds the two equal after random
-- writes, so a field added to list items there and not here fails it. `json`, not `jsonb`: json keeps
-- the text as built (key order, spacing), so a page is byte for byte what it was when built per request.
CREATE FUNCTION household_list_item(h households) RETURNS json
LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'id', h.id,
    'name', h.name, 'externalId', h.external_id,
    'createdAt', to_char(h.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updatedAt', to_char(h.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'isSample', h.is_sample,
    'members', CASE WHEN h.member_count = 0 THEN '[]'::json ELSE (
      SELECT json_agg(json_build_object('id', m.id, 'name', m.name, 'role', m.role) ORDER BY m.position, m.id)
      FROM members m WHERE m.household_id = h.id) END,
    'assignments', CASE WHEN h.assignment_count = 0 THEN '[]'::json ELSE (
      SELECT json_agg(json_build_object('userId', u.id, 'name', u.name, 'role', a.role) ORDER BY a.created_at, u.id)
      FROM assignments a JOIN users u ON u.id = a.user_id WHERE a.household_id = h.id) END,
    'counts', json_build_object('members', h.member_count, 'assignments', h.assignment_count, 'entities', h.entity_count))
$$;

ALTER TABLE households ADD COLUMN list_item json;

-- The columns derived from the household and its parts, set by one trigger before every insert and
-- update of a household. Writes to members, assignments and entities already update their household
-- (refresh_household_counts, an AFTER statement trigger), and a user's name below does too, so every
-- write that changes an item rewrites it in the write's own transaction. This replaces the trigger
-- of 0001 that kept only search_text.
CREATE FUNCTION households_refresh_derived() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := household_search_text(NEW);
  NEW.list_item := household_list_item(NEW);
  RETURN NEW;
END $$;

DROP TRIGGER households_search_text ON households;
DROP FUNCTION households_refresh_search_text();
CREATE TRIGGER households_derived BEFORE INSERT OR UPDATE ON households
  FOR EACH ROW EXECUTE FUNCTION households_refresh_derived();

-- An assigned user's name is in the items of the households they are assigned to. (A column list,
-- UPDATE OF name, cannot go with transition tables, hence the comparison.)
CREATE FUNCTION users_refresh_list_items() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE households h SET list_item = NULL
  WHERE h.id IN (
    SELECT a.household_id FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN assignments a ON a.user_id = n.id
    WHERE n.name IS DISTINCT FROM o.name);
  RETURN NULL;
END $$;

CREATE TRIGGER users_refresh_list_items AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION users_refresh_list_items();

-- Every household's item, through the trigger (`hearth doctor --rebuild-list-items` does the same).
UPDATE households SET list_item = NULL;
ALTER TABLE households ALTER COLUMN list_item SET NOT NULL;

-- Search per organization: the trigram index of 0001 held every organization's households, so a search
-- in one visited the matches of all of them, and its exact total counted them. With btree_gin the
-- organization is a key of the same GIN index, and the index answers only that organization's matches.
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX households_org_search ON households USING gin (org_id, search_text gin_trgm_ops);
DROP INDEX households_search;
