// Chinese text of the member-boards screens; part of the one catalog (zh.ts re-exports it as zh.memberBoards).
export const memberBoardsText = {} as const;
