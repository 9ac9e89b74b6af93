-- A row on a test clock is stamped in the clock's time (README "Test clocks"). The code that
-- inserts it sets its created_at (the clock's time, or the simulated time a workflow has reached);
-- here its updated_at starts there and every later write moves it to the clock's time, whichever
-- statement made it (Prisma stamps wall time on its writes; raw updates stamp none).
CREATE OR REPLACE FUNCTION clock_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.test_clock_id IS NULL THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'INSERT' THEN
    NEW.updated_at := NEW.created_at;
  ELSE
    NEW.updated_at := COALESCE((SELECT frozen_time FROM test_clocks WHERE id = NEW.test_clock_id), NEW.updated_at);
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER customers_clock_updated_at BEFORE INSERT OR UPDATE ON "customers"
  FOR EACH ROW EXECUTE FUNCTION clock_updated_at();
CREATE TRIGGER subscriptions_clock_updated_at BEFORE INSERT OR UPDATE ON "subscriptions"
  FOR EACH ROW EXECUTE FUNCTION clock_updated_at();
CREATE TRIGGER contracts_clock_updated_at BEFORE INSERT OR UPDATE ON "contracts"
  FOR EACH ROW EXECUTE FUNCTION clock_updated_at();
CREATE TRIGGER dunning_schedules_clock_updated_at BEFORE INSERT OR UPDATE ON "dunning_schedules"
  FOR EACH ROW EXECUTE FUNCTION clock_updated_at();
