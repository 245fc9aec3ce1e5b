-- A delete that cascades (or sets null) through a foreign key finds the referencing rows with a
-- query on the key's column; with no index led by that column it reads the whole table, of every
-- organization. Two keys had none (test/households/foreign-key-indexes.test.ts now checks them all):
-- deleting a household read every entity valuation, and deleting an organization every session.
CREATE INDEX entity_valuations_household ON entity_valuations (household_id);
CREATE INDEX sessions_org ON sessions (org_id);

-- Links are read oldest first (the links list, the chart payload, an import's plan). created_at has
-- millisecond precision, so links written within one millisecond (an import writes hundreds at once)
-- tied and were ordered by their random ids instead: after an import, GET …/chart listed the links
-- in no particular order. seq numbers links in the order they are written; existing links are
-- numbered in the order the table is read.
ALTER TABLE entity_links ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;

-- The same for users: the organizations a person may sign in to, and the one they are in, are
-- listed oldest first, and two users made within one millisecond (an invitation in each of two
-- organizations) came back in the order of their random ids.
ALTER TABLE users ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
