-- A new household or entity was last updated when it was created. Both columns defaulted to
-- clock_timestamp(), which PostgreSQL evaluates once per column: a millisecond could pass between
-- the two, and a new household answered with `updatedAt` after its `createdAt`. created_at keeps its
-- default (distinct, ordered creation times within one transaction); updated_at takes its value.
-- Rows created before stay as they are: their ETags and stored list items depend on updated_at.
CREATE FUNCTION updated_when_created() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := NEW.created_at;
  RETURN NEW;
END
$$;

CREATE TRIGGER households_updated_when_created BEFORE INSERT ON households
  FOR EACH ROW EXECUTE FUNCTION updated_when_created();
CREATE TRIGGER entities_updated_when_created BEFORE INSERT ON entities
  FOR EACH ROW EXECUTE FUNCTION updated_when_created();

