// Chinese text of the boards screens; part of the one catalog (zh.ts re-exports it as zh.boards).
export const boardsText = {} as const;
