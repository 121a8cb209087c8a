// Chinese text of the catalog screens; part of the one catalog (zh.ts re-exports it as zh.catalog).
export const catalogText = {} as const;
