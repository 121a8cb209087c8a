// Reading a rendered table the way a user does: its rows and each row's cells as text, and the list
// filters as they stand in the address bar. Shared by the page tests of every list.
import { within } from '@testing-library/react';
import type { renderApp } from '../app-harness';

/** The data rows of a table: the header row and a one-cell row (the empty state, a note) left out. */
export const dataRows = (table: HTMLElement) =>
  within(table)
    .queryAllByRole('row')
    .slice(1)
    .filter((row) => within(row).queryAllByRole('cell').length > 1);

/** The text of each cell of a row. */
export const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

/** The search parameters of the page's address (a list's filters, page and sort). */
export const urlParams = (router: ReturnType<typeof renderApp>['router']) => Object.fromEntries(new URLSearchParams(router.state.location.searchStr));
