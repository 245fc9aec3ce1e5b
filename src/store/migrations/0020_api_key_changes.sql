-- API keys are resolved from a cache in each API process (src/auth/api-key-cache.ts): the lookup
-- was one round trip to the database for every request, about a quarter of what a create cost
-- (bench/RESULTS.md, issue 17). A cached key must be let go the moment it may have changed, in
-- every process: any change to what resolving a key reads (the key's id, organization, hash,
-- permissions, expiry, revocation; its organization's rate-limit overrides; either row's deletion,
-- TRUNCATE included) notifies the channel `hearth_api_keys` when its transaction commits, and every
-- API process listening empties its cache (src/store/key-changes.ts). Row triggers with a WHEN:
-- a write that changes none of it (a key's name, its last use, written every few seconds; revoking
-- a revoked key; setting limits to what they are) notifies no one, so nobody can empty every
-- process's cache at will. PostgreSQL sends one notification per transaction however many rows
-- raised it. ENABLE ALWAYS: they fire under session_replication_role = replica too (a restore with
-- --disable-triggers aside, which disables them by name).
CREATE FUNCTION notify_api_key_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hearth_api_keys', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_notify_change AFTER UPDATE ON api_keys FOR EACH ROW
  WHEN ((OLD.id, OLD.org_id, OLD.secret_hash, OLD.permissions, OLD.expires_at, OLD.revoked_at)
    IS DISTINCT FROM (NEW.id, NEW.org_id, NEW.secret_hash, NEW.permissions, NEW.expires_at, NEW.revoked_at))
  EXECUTE FUNCTION notify_api_key_change();
CREATE TRIGGER api_keys_notify_delete AFTER DELETE ON api_keys FOR EACH ROW
  EXECUTE FUNCTION notify_api_key_change();
CREATE TRIGGER api_keys_notify_truncate AFTER TRUNCATE ON api_keys FOR EACH STATEMENT
  EXECUTE FUNCTION notify_api_key_change();

CREATE TRIGGER orgs_notify_key_change AFTER UPDATE ON orgs FOR EACH ROW
  WHEN ((OLD.rate_limit_max, OLD.key_rate_limit_max, OLD.admin_rate_limit_max, OLD.admin_key_rate_limit_max)
    IS DISTINCT FROM (NEW.rate_limit_max, NEW.key_rate_limit_max, NEW.admin_rate_limit_max, NEW.admin_key_rate_limit_max))
  EXECUTE FUNCTION notify_api_key_change();
CREATE TRIGGER orgs_notify_key_delete AFTER DELETE ON orgs FOR EACH ROW
  EXECUTE FUNCTION notify_api_key_change();
CREATE TRIGGER orgs_notify_key_truncate AFTER TRUNCATE ON orgs FOR EACH STATEMENT
  EXECUTE FUNCTION notify_api_key_change();

ALTER TABLE api_keys ENABLE ALWAYS TRIGGER api_keys_notify_change;
ALTER TABLE api_keys ENABLE ALWAYS TRIGGER api_keys_notify_delete;
ALTER TABLE api_keys ENABLE ALWAYS TRIGGER api_keys_notify_truncate;
ALTER TABLE orgs ENABLE ALWAYS TRIGGER orgs_notify_key_change;
ALTER TABLE orgs ENABLE ALWAYS TRIGGER orgs_notify_key_delete;
ALTER TABLE orgs ENABLE ALWAYS TRIGGER orgs_notify_key_truncate;
