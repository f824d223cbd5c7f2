-- Hanseweb's two database roles and its database (run once, as a PostgreSQL superuser):
--
--   psql -v ON_ERROR_STOP=1 -v owner=hanseweb_owner -v owner_password=... \
--        -v app=hanseweb_app -v app_password=... -v dbname=hanseweb -f deploy/postgres/roles.sql
--
-- * :owner owns the database, its schema and (through the migrations it runs) every table and
--   trigger. It is used only for `manage.py migrate` (MIGRATE_DATABASE_URL).
-- * :app is what the web server, the workers and beat connect as (DATABASE_URL). It owns nothing,
--   so it cannot ALTER TABLE ... DISABLE TRIGGER, drop the append-only triggers or the tables; it
--   is no superuser, so it cannot set session_replication_role (which skips triggers); it has no
--   TRUNCATE, TRIGGER or REFERENCES privilege: only SELECT, INSERT, UPDATE, DELETE on rows, and
--   the move log's triggers still refuse UPDATE, DELETE and TRUNCATE of moves.
\set ON_ERROR_STOP on

CREATE ROLE :"owner" LOGIN PASSWORD :'owner_password'
    NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
CREATE ROLE :"app" LOGIN PASSWORD :'app_password'
    NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT;
CREATE DATABASE :"dbname" OWNER :"owner";
REVOKE ALL ON DATABASE :"dbname" FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE :"dbname" TO :"app";

\connect :"dbname"
ALTER SCHEMA public OWNER TO :"owner";
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"app";
-- every table and sequence the owner's migrations create from now on
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
    GRANT USAGE, SELECT ON SEQUENCES TO :"app";
