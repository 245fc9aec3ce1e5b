-- Lists sorted by name find their page's ids in the name index, skipping OFFSET entries first.
-- With only the expression lower(name) in the index, PostgreSQL cannot answer that from the index
-- alone (its planner wants the column name itself: "Index-Only Scans and Covering Indexes" in the
-- PostgreSQL manual), so each skipped entry cost a heap fetch, and in an org of 500,000
-- households the planner took a sequential scan and a 25 MB sort on disk instead: 570 ms for
-- page 12,000 of 40. With name included it is an index-only scan, like the createdAt and members
-- sorts: 54 ms (bench/RESULTS.md, "1,000,000 households").
--
-- A new name, so that on a big table an operator can build it beforehand without blocking writes
-- (the same statement with CREATE INDEX CONCURRENTLY IF NOT EXISTS); this migration then only
-- drops the old index (docs/scaling.md).
CREATE INDEX IF NOT EXISTS households_org_name_covering ON households (org_id, (lower(name) COLLATE "C"), id) INCLUDE (name);
DROP INDEX IF EXISTS households_org_name;
