// The PostgreSQL extensions the migrations create (CREATE EXTENSION), which PGlite must be given
// when it is built: every PGlite that runs the migrations or opens a folder they ran on takes these,
// else the first statement using one (an insert into audit_log updates its trigram index) fails to
// load the extension's library. pg_trgm: the "contains" filters' GIN indexes (migration 0016,
// decision 166). A PostgreSQL server ships them itself.
export async function pgliteExtensions() {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return { pg_trgm };
}
