-- A delivery's first attempt is made by the instance that dispatched it, without a pg-boss job
-- (src/webhooks/dispatcher.ts): queuing, fetching and completing a job for every delivery was most
-- of what webhooks cost the database (bench/RESULTS.md, issue 17). The dispatcher gives such a
-- delivery a job id all the same (the attempt is recorded under it, as a job's is) and a lease:
-- until lease_until, the instance that dispatched it owns the attempt. An instance killed before
-- it recorded the attempt leaves a pending delivery whose lease ran out: the next dispatcher round
-- of any instance queues a pg-boss job for it under a new job id, so a late recording of the first
-- attempt is a stale one (worker.ts). NULL: the delivery's attempts are pg-boss jobs.
ALTER TABLE webhook_deliveries ADD COLUMN lease_until timestamptz;

-- What the dispatcher still has to queue: pending without a job (new from "send again"), or
-- leased (a first attempt in flight, queued only once its lease has run out). Few rows at any time.
DROP INDEX webhook_deliveries_unqueued;
CREATE INDEX webhook_deliveries_unqueued ON webhook_deliveries (created_at)
  WHERE status = 'pending' AND (job_id IS NULL OR lease_until IS NOT NULL);
