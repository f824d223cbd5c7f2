#!/bin/sh
# docker-entrypoint-initdb.d hook of the postgres image (runs once, on an empty data volume):
# creates the owner and application roles and the database named in the two URLs
# (MIGRATE_DATABASE_URL: the owner; DATABASE_URL: the application) with deploy/postgres/roles.sql.
# Use URL-safe passwords (letters, digits, - and _), e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(24))'.
set -eu
part() { # part <url> <user|password|dbname>
  case "$2" in
    user) printf '%s' "$1" | sed -E 's#^[a-z]+://([^:@/]+).*#\1#' ;;
    password) printf '%s' "$1" | sed -E 's#^[a-z]+://[^:@/]+:([^@]*)@.*#\1#' ;;
    dbname) printf '%s' "$1" | sed -E 's#^.*/([^/?]+)(\?.*)?$#\1#' ;;
  esac
}
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "${POSTGRES_DB:-$POSTGRES_USER}" \
  -v owner="$(part "$MIGRATE_DATABASE_URL" user)" -v owner_password="$(part "$MIGRATE_DATABASE_URL" password)" \
  -v app="$(part "$DATABASE_URL" user)" -v app_password="$(part "$DATABASE_URL" password)" \
  -v dbname="$(part "$DATABASE_URL" dbname)" \
  -f "${HANSEWEB_ROLES_SQL:-/hanseweb/roles.sql}"
