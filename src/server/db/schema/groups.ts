// User groups are the unit of audience: a board is opened to the members of the groups bound to it,
// and a plain user who belongs to no group cannot log in at all (login answers no_group until an
// admin adds them; DECISIONS "Accounts and sessions"). Membership is a pure join table keyed by both
// ids, so adding the same user twice is a no-op (ON CONFLICT DO NOTHING) and deleting a group or a
// user takes its memberships with it. The userId index serves the two hot questions asked per
// request: "is this user in any group" (login) and "which groups is this user in" (board visibility).
import { index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const userGroups = pgTable(
  'user_groups',
  {
    id: serial('id').primaryKey(),
    groupName: text('group_name').notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [index('user_groups_created_at_idx').on(t.createdAt)],
);

export const userGroupMembers = pgTable(
  'user_group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => userGroups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'user_group_members_pk', columns: [t.groupId, t.userId] }), index('user_group_members_user_idx').on(t.userId)],
);
