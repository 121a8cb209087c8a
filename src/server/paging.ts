// List paging (DECISIONS "Wire contract"): page is 0-based, size capped at 1000, newest first by
// default.
export const MAX_PAGE_SIZE = 1000;

export function pageOf(query: { page?: number; size?: number; isDesc?: boolean }, defaultSize = 20) {
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, query.size ?? defaultSize));
  const page = Math.max(0, query.page ?? 0);
  return { page, size, offset: page * size, isDesc: query.isDesc ?? true };
}

export const totalPagesOf = (total: number, size: number) => Math.ceil(total / size);
