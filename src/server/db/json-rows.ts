// Rows read as JSON (to_json of a table's row, as json_agg answers them): one statement can then
// answer rows of several tables at once (matching reads scan rows, records and locked tasks in one
// round trip: db/matching-store.ts readForMatching). The mapper turns such an object into the row
// drizzle's select would have answered: keys by the schema's column names, values through each
// column's own driver mapping (a timestamptz's text becomes a Date).
import { getTableColumns, type InferSelectModel, type Table } from 'drizzle-orm';

export function jsonRowMapper<T extends Table>(table: T): (json: Record<string, unknown>) => InferSelectModel<T> {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, name: column.name, column }));
  return (json) => {
    const row: Record<string, unknown> = {};
    for (const { key, name, column } of columns) {
      const value = json[name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as InferSelectModel<T>;
  };
}
