import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema and applied by drizzle-orm's migrator on both engines
// (PGlite for the embedded default and tests, PostgreSQL 15 in production): keep the SQL portable.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/index.ts',
  out: './src/server/db/migrations',
});
