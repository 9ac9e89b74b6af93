-- The role the API and the worker connect as (README, "Database role"): it reads and writes rows and
-- nothing more. It owns no table, so it cannot ALTER TABLE ... DISABLE TRIGGER (the append-only and
-- balance guards of usage_events, ledger_entries, ledger_journals and audit_log) or drop them, it has
-- no TRUNCATE privilege, and it is no superuser (it cannot SET session_replication_role = replica,
-- which would skip every trigger). Migrations run as the owner of the schema, the role that runs this.
-- psql variables: app_role (the role's name) and app_password.
CREATE ROLE :"app_role" LOGIN PASSWORD :'app_password' NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
GRANT USAGE ON SCHEMA public TO :"app_role";
-- Tables and sequences that exist already (the script may run after migrations) ...
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app_role";
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO :"app_role";
-- ... and those the owner's migrations create later.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app_role";
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO :"app_role";
