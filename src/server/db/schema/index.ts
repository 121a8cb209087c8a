// The whole schema, one module: drizzle-kit reads it (drizzle.config.ts) and the server passes it to
// drizzle() so db.query and the migration test see every table.
export * from './accounts';
export * from './groups';
export * from './catalog';
export * from './boards';
export * from './tasks';
export * from './receiving';
export * from './money';
export * from './audit';
export * from './files';
