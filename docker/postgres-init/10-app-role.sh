#!/bin/sh
# Run once by the postgres image when it initialises an empty data volume (files directly under
# /docker-entrypoint-initdb.d; sql/ below is not run on its own): creates the service's database role.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v app_role="${BILLING_APP_DB_USER:?}" -v app_password="${BILLING_APP_DB_PASSWORD:?}" \
  -f /docker-entrypoint-initdb.d/sql/app-role.sql
