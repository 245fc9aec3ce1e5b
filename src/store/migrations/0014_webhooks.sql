-- Webhooks: the endpoints an organization's admins register, one delivery per event and endpoint,
-- and each attempt to deliver it (the delivery log). The attempts themselves run as jobs of
-- pg-boss, which keeps its own tables in the pgboss schema (src/webhooks/queue.ts).
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- The event types sent to it; NULL: every type.
  event_types text[],
  -- The signing secret (whsec_…). It has to be kept as it is to sign with: it is shown to the
  -- admin once, never listed again.
  secret text NOT NULL,
  -- After a rotation, the secret before it also signs until previous_secret_expires_at, so that a
  -- receiver can switch over without missing a delivery.
  previous_secret text,
  previous_secret_expires_at timestamptz,
  enabled boolean NOT NULL DEFAULT true,
  -- Why it was disabled (by the three-day rule, or by an admin), for the admin to read.
  disabled_reason text,
  disabled_at timestamptz,
  -- Since when every attempt to it has failed (NULL once one succeeds): the three-day rule.
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_org ON webhook_endpoints (org_id, created_at);

-- One event (or test message) for one endpoint. payload is the exact body sent, kept so that
-- "send again" works after the event has left the change feed. job_id names the pg-boss job that
-- makes its next attempt; NULL while pending means "not queued yet" (the dispatcher queues it), and
-- a job whose id is no longer here is stale and does nothing.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  -- The webhook-id header: the event's id, so that receivers can drop a repeat.
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  payload text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  job_id uuid,
  next_attempt_at timestamptz DEFAULT now(),
  last_attempt_at timestamptz,
  last_response_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (endpoint_id, event_id)
);
-- The delivery log of one endpoint, newest first.
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
-- What the dispatcher still has to queue.
CREATE INDEX webhook_deliveries_unqueued ON webhook_deliveries (created_at) WHERE status = 'pending' AND job_id IS NULL;
-- Retention: the oldest go first.
CREATE INDEX webhook_deliveries_created_at ON webhook_deliveries (created_at);
-- Deleting an organization finds its deliveries through this (foreign keys that cascade are indexed:
-- test/households/foreign-key-indexes.test.ts).
CREATE INDEX webhook_deliveries_org ON webhook_deliveries (org_id);

-- Each attempt to deliver: when, how long, and what came back.
CREATE TABLE webhook_attempts (
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  -- 'schedule' (the first or a retry) or 'manual' (send again).
  trigger text NOT NULL,
  at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  succeeded boolean NOT NULL,
  response_status integer,
  error text,
  PRIMARY KEY (delivery_id, attempt)
);

-- The dispatcher's place in the events, across every organization, in the feed's (tx, seq) order
-- (migration 0013). One row: the dispatcher locks it (FOR UPDATE SKIP LOCKED, so one instance
-- dispatches at a time, through PgBouncer in transaction mode too) and moves it in the
-- transaction that records the deliveries, so a crash neither loses nor repeats an event. It
-- starts at the newest event now: webhooks begin with the events after this migration.
CREATE TABLE webhook_dispatch (
  id integer PRIMARY KEY CHECK (id = 1),
  tx bigint NOT NULL,
  seq bigint NOT NULL
);
INSERT INTO webhook_dispatch (id, tx, seq)
SELECT 1, coalesce(max(tx), 0), coalesce(max(seq), 0) FROM events;
