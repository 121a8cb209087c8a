// The whole schema, one module: drizzle-kit reads it (drizzle.config.ts) and the migration test
// checks the migrations against it. The server's drizzle() is built without it (db/client.ts).
export * from './accounts';
export * from './groups';
export * from './catalog';
export * from './boards';
export * from './tasks';
export * from './receiving';
export * from './money';
export * from './audit';
export * from './files';
