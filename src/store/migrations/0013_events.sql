-- The change feed and the webhooks' source: one row per change, written by the change's own
-- transaction (a transactional outbox), so an event exists exactly when its write committed.
--
-- Order. A sequence number is taken when a row is inserted, not when its transaction commits, so
-- a reader that saw event 7 could later find event 6 commit behind it. Each row therefore records
-- the id of the transaction that wrote it (tx, from pg_current_xact_id(), 64 bits: it never wraps),
-- and the feed reads in (tx, seq) order and returns only rows whose tx is below the oldest
-- transaction of this database still running (src/store/event-horizon.ts). Every transaction below that line has ended, and
-- every later one gets a larger id, so nothing can ever appear behind a position the feed has
-- handed out (src/store/events.ts; test/events/change-feed-order.test.ts proves it).
CREATE TABLE events (
  tx bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  type text NOT NULL,
  household_id uuid NOT NULL,
  -- The event's data as JSON text, exactly as the feed and the webhooks send it.
  data text NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (tx, seq)
);
-- The feed of one organization, in order.
CREATE INDEX events_org_order ON events (org_id, tx, seq);
-- Retention: the oldest go first. BRIN, not btree: events are written in time order, so block
-- ranges summarize them well, and an insert costs almost nothing here (this table takes a row on
-- every write of the API).
CREATE INDEX events_occurred_at ON events USING brin (occurred_at);

-- The last position the retention purge deleted (the largest (tx, seq) it removed): a cursor at or
-- behind it may have lost events, and is refused (410); one past it has lost none, since everything
-- after a position is after the largest one deleted. One row.
CREATE TABLE events_purged (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  tx bigint NOT NULL,
  seq bigint NOT NULL
);
INSERT INTO events_purged (tx, seq) VALUES (-1, -1);
