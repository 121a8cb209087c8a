// A DataTable bound to a list's place in the URL (SPEC §9 lists are paged by the server): the page
// and size come from the search params, the rows and page count from the server's answer, and the
// pager asks for the next search. A page change keeps the filters; a size change keeps them and goes
// back to the first page. The page-size select shows when the list has `sizeOptions`.
import type { JSX } from 'react';
import type { RowData } from '@tanstack/react-table';
import { DataTable, type DataTableProps } from './data-table';

/** The paging part of a list's search params: page 0-based, size as sent to the server. */
export interface PageSearch {
  page: number;
  size: number;
}

/** One page as the server answers it. `content` is shown as is; keep it stable. */
export interface PageResult<T> {
  content: readonly T[];
  totalPages: number;
  totalElements?: number;
  /** The server counted only up to a bound: the totals are lower bounds. */
  totalCapped?: boolean;
}

export interface PagedTableProps<T extends RowData, S extends PageSearch> extends Omit<
  DataTableProps<T>,
  'data' | 'page' | 'size' | 'totalPages' | 'totalElements' | 'totalCapped' | 'onPageChange' | 'onSizeChange'
> {
  search: S;
  result: PageResult<T>;
  /** The search the pager or the size select asks for. */
  onSearch: (next: S) => void;
}

export function PagedTable<T extends RowData, S extends PageSearch>({ search, result, onSearch, ...table }: PagedTableProps<T, S>): JSX.Element {
  return (
    <DataTable
      {...table}
      data={result.content}
      page={search.page}
      size={search.size}
      totalPages={result.totalPages}
      totalElements={result.totalElements}
      totalCapped={result.totalCapped}
      onPageChange={(page) => onSearch({ ...search, page })}
      onSizeChange={(size) => onSearch({ ...search, page: 0, size })}
    />
  );
}
