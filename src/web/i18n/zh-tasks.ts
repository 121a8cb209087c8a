// Chinese text of the tasks screens; part of the one catalog (zh.ts re-exports it as zh.tasks).
export const tasksText = {} as const;
