-- API keys are resolved from a cache in each API process (src/auth/api-key-cache.ts): the lookup
-- was one round trip to the database for every request, about a quarter of what a create cost
-- (bench/RESULTS.md, issue 17). A cached key must be let go the moment it may have changed, in
-- every process: any change to what resolving a key reads (the key's organization, hash,
-- permissions, expiry, revocation; its organization's rate-limit overrides; either row's deletion)
-- notifies the channel `hearth_api_keys` when its transaction commits, and every API process
-- listening empties its cache (src/store/key-changes.ts). Other columns (a key's name, its last
-- use, written every few seconds) do not notify: they are not part of a resolved key.
-- One statement notifies once, however many rows it touched.
CREATE FUNCTION notify_api_key_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hearth_api_keys', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_notify_change
  AFTER UPDATE OF org_id, secret_hash, permissions, expires_at, revoked_at OR DELETE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_change();
CREATE TRIGGER orgs_notify_key_change
  AFTER UPDATE OF id, rate_limit_max, key_rate_limit_max, admin_rate_limit_max, admin_key_rate_limit_max OR DELETE ON orgs
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_change();
