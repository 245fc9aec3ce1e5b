-- Issue 18: a list page reads stored items instead of building them, and search in one organization
-- does not pay for the others' rows.

-- Each household's list item (schema HouseholdListItem), as the finished JSON text a list page
-- concatenates. This is the list item of src/store/households.ts (LIST_ITEM_PAIRS, built from the
-- field declarations), written out: test/integration/list-items.test.ts holds the two equal after
-- random writes, so a field added to list items there and not here fails it.
-- PL/pgSQL, not SQL: a trigger calls it once per row written, and a PL/pgSQL function keeps its plan
-- for the session, where a SQL function that cannot be inlined is planned again on every call.
CREATE FUNCTION household_list_item(h households) RETURNS json
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN json_build_object(
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
    'counts', json_build_object('members', h.member_count, 'assignments', h.assignment_count, 'entities', h.entity_count));
END $$;

-- The search text of 0010, in PL/pgSQL for the same reason (the BEFORE trigger calls it on every
-- insert and update of a household).
CREATE OR REPLACE FUNCTION household_search_text(household households) RETURNS text
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN lower(concat_ws(' ', household.name, household.deceased_spouse_name,
    (SELECT string_agg(m.name, ' ' ORDER BY m.position, m.id) FROM members m WHERE m.household_id = household.id),
    (SELECT string_agg(e.name, ' ' ORDER BY e.position, e.id) FROM entities e WHERE e.household_id = household.id)));
END $$;

-- The items, beside the households rather than in their rows: an item is ~0.7 KB, three times a
-- household row, and search reads the matching rows of households (a bitmap heap scan), which must
-- stay narrow. `json`, not `jsonb`: json keeps the text as built (key order, spacing), so a page is
-- byte for byte what it was when it was built per request.
CREATE TABLE household_list_items (
  household_id uuid PRIMARY KEY REFERENCES households (id) ON DELETE CASCADE,
  item json NOT NULL
);

-- Every insert and update of a household writes its item, in the same statement. Writes to members,
-- assignments and entities already update their household (refresh_household_counts, an AFTER
-- statement trigger), and a user's new name does below, so every write that changes an item rewrites
-- it in the write's own transaction. Statement-level, so that a batch of households (an import) is
-- one INSERT here.
CREATE FUNCTION households_write_list_items() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO household_list_items AS i (household_id, item)
  SELECT n.id, household_list_item(n) FROM new_rows n
  ON CONFLICT (household_id) DO UPDATE SET item = excluded.item;
  RETURN NULL;
END $$;

CREATE TRIGGER households_list_items_insert AFTER INSERT ON households
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION households_write_list_items();
CREATE TRIGGER households_list_items_update AFTER UPDATE ON households
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION households_write_list_items();

-- An assigned user's name is in the items of the households they are assigned to: those households
-- are updated (their version and times unchanged), so that the households' trigger rebuilds their
-- items under each household's row lock, as after any other write. (A column list, UPDATE OF name,
-- cannot go with transition tables, hence the comparison.)
CREATE FUNCTION users_refresh_list_items() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE households h SET updated_at = h.updated_at
  WHERE h.id IN (
    SELECT a.household_id FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN assignments a ON a.user_id = n.id
    WHERE n.name IS DISTINCT FROM o.name);
  RETURN NULL;
END $$;

CREATE TRIGGER users_refresh_list_items AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION users_refresh_list_items();

-- Every household's item (`hearth doctor --rebuild-list-items` checks and mends them later).
INSERT INTO household_list_items (household_id, item) SELECT h.id, household_list_item(h) FROM households h;

-- Search per organization: the trigram index of 0001 held every organization's households, so a search
-- in one visited the matches of all of them, and its exact total counted them. With btree_gin the
-- organization is a key of the same GIN index, and the index answers only that organization's matches.
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX households_org_search ON households USING gin (org_id, search_text gin_trgm_ops);
DROP INDEX households_search;
