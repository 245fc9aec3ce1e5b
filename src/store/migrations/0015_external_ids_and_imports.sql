-- Partners stay in sync (issue 17): a household's external id, and bulk imports.
--
-- A partner's own id for a household, unique in its organization (members' and entities' stay
-- unique per household, as 0010 and 0011 made them). PUT …/by-external-id/{externalId} and each
-- import line find the household by it.
ALTER TABLE households ADD COLUMN external_id text;
CREATE UNIQUE INDEX households_org_external_id ON households (org_id, external_id) WHERE external_id IS NOT NULL;

-- The document (PUT by external id, an import line) that last wrote the household whole: its
-- SHA-256 and the version that write gave the household. The same document again while the
-- version is still that one changes nothing (an import's "unchanged"); any other write moves the
-- version, so the next document is written in full.
ALTER TABLE households ADD COLUMN document_hash text;
ALTER TABLE households ADD COLUMN document_version integer;

-- One upload of JSON Lines. Its lines are stored first (status 'receiving' while the upload
-- streams in, in short statements: one long transaction would hold back the change feed's
-- horizon), then processed in the background ('processing') until none is pending ('done').
CREATE TABLE imports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  -- Who uploaded it: each line's write is audited under them.
  actor_type text NOT NULL CHECK (actor_type IN ('apiKey', 'user')),
  actor_id uuid NOT NULL,
  status text NOT NULL DEFAULT 'receiving' CHECK (status IN ('receiving', 'processing', 'done')),
  -- The lines stored (blank lines are not): the sum of the lines' counts by status.
  total_lines integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  finished_at timestamptz
);
CREATE INDEX imports_org ON imports (org_id, created_at);
-- The worker looks for imports with work left.
CREATE INDEX imports_processing ON imports (created_at) WHERE status = 'processing';

-- One non-blank line of an import and, once processed, its result. A line is claimed for a
-- while (claimed_until) by the instance processing it, so that several instances share the
-- work, and one that died leaves its claims to expire; its result is written in the same
-- transaction as the household it wrote, so a line is applied once even across a crash. Each
-- claim has its own claim_token, and a result is written only under the token that claimed the
-- line: a lane whose lease ran out while it still worked on the line (waiting on a household's
-- lock) finds that another lane took it, and its household write is rolled back instead of
-- applying the line a second time.
CREATE TABLE import_lines (
  import_id uuid NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
  -- The line's number in the file, from 1 (blank lines are counted, not stored).
  line integer NOT NULL,
  -- The line as uploaded; cleared once processed.
  body text,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'created', 'updated', 'unchanged', 'error')),
  claimed_until timestamptz,
  claim_token uuid,
  -- The household's externalId: read from the line at upload (see import_lines_external_id), then
  -- as its result says.
  external_id text,
  household_id uuid,
  error_code text,
  error_message text,
  error_field text,
  PRIMARY KEY (import_id, line)
);
CREATE INDEX import_lines_pending ON import_lines (import_id, line) WHERE status = 'pending';
CREATE INDEX import_lines_errors ON import_lines (import_id, line) WHERE status = 'error';
-- An import names each household once: its lines run in parallel (several lanes, several
-- instances), so two lines of one externalId would end in either order, and the same file again
-- would not be all unchanged. The upload fails a later line naming an externalId an earlier line
-- named (import_external_id_repeated: an error line, not counted here), and looks the earlier one
-- up by this index, which also keeps any other path from storing two.
CREATE UNIQUE INDEX import_lines_external_id ON import_lines (import_id, external_id)
  WHERE external_id IS NOT NULL AND status <> 'error';
