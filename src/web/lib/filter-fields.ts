// Pieces shared by the filter forms of the admin lists (/admin/tasks, /admin/task-audit,
// /admin/tracking-list, /admin/tracking-audit): ids typed as text, and users in a select or a cell.
import * as v from 'valibot';
import type { components } from '../../api/schema';
import type { SelectOption } from '../components/ui/form';

type AppUser = components['schemas']['User'];

const ID = /^[1-9]\d{0,14}$/;

/** An optional id typed as text: blank, or a positive whole number. */
export const idText = (message: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.check((text) => text === '' || ID.test(text), message),
  );

export const toId = (text: string): number | undefined => (text === '' ? undefined : Number(text));

/** How a user reads in a filter: nickName and e-mail. */
export function userOptions(users: readonly AppUser[]): SelectOption<number>[] {
  return users.map((user) => ({ value: user.id, label: `${user.nickName}（${user.mailAddr}）` }));
}

/** A user by id: nickName when known, else '#id'. */
export function userLabel(users: readonly AppUser[], id: number | null | undefined): string {
  if (id === null || id === undefined) return '';
  return users.find((user) => user.id === id)?.nickName ?? `#${id}`;
}
