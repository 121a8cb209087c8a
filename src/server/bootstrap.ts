// First start of an empty database creates one admin (DECISIONS "Accounts and sessions"), from
// ADMIN_EMAIL / ADMIN_PASSWORD or with a generated password printed once.
import { sql } from 'drizzle-orm';
import type { Db } from './db/client.ts';
import { users } from './db/schema/accounts.ts';
import { hashPassword, newPassword } from './auth/secrets.ts';

export interface BootstrapResult {
  created: boolean;
  mailAddr?: string;
  /** Only when generated here: the one time it is shown. */
  generatedPassword?: string;
}

export async function ensureBootstrapAdmin(db: Db, adminEmail: string, adminPassword: string | undefined): Promise<BootstrapResult> {
  const password = adminPassword ?? newPassword();
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    // Serialise concurrent first starts against the same database.
    await tx.execute(sql`select pg_advisory_xact_lock(7301)`);
    const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(users);
    if ((row?.n ?? 0) > 0) return { created: false };
    await tx.insert(users).values({ mailAddr: adminEmail, nickName: 'admin', roleType: 'admin', passwordHash: hash });
    return { created: true, mailAddr: adminEmail, generatedPassword: adminPassword ? undefined : password };
  });
}
