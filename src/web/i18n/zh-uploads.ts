// Chinese text of the uploads screens; part of the one catalog (zh.ts re-exports it as zh.uploads).
export const uploadsText = {} as const;
