// Chinese text of the people screens; part of the one catalog (zh.ts re-exports it as zh.people).
export const peopleText = {} as const;
