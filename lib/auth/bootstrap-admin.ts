import { sql } from 'drizzle-orm/sql/sql';
import { config } from '../config.js';
import { getDb, type Executor } from '../db/client.js';
import { users } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import { log } from '../log.js';
import { endDeviceTokens } from './device-tokens.js';
import { hashPassword, passwordMatches } from './passwords.js';
import { endEarlierSessions } from './queries.js';

export interface AdminAccount {
  email: string;
  password: string;
  name: string;
  phone: string;
}

/** Creates the SUPER_ADMIN, or makes an existing account with that e-mail one with these details. */
export async function upsertAdmin(db: Executor, account: AdminAccount): Promise<{ id: string; created: boolean }> {
  const email = account.email.trim().toLowerCase();
  const [existing] = await db
    .select({ id: users.id, password: users.password, role: users.role })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  if (existing) {
    const samePassword = await passwordMatches(account.password, existing.password);
    const newPassword = samePassword ? undefined : await hashPassword(account.password);
    // A new password ends the sessions and device tokens issued before it.
    await inTransaction(db, async (tx) => {
      await tx
        .update(users)
        .set({
          role: 'SUPER_ADMIN',
          name: account.name,
          phone: account.phone,
          ...(newPassword === undefined ? {} : { password: newPassword, tokensValidAfter: endEarlierSessions }),
        })
        .where(sql`${users.id} = ${existing.id}`);
      if (newPassword !== undefined) await endDeviceTokens(tx, existing.id);
    });
    return { id: existing.id, created: false };
  }
  const [created] = await db
    .insert(users)
    .values({ email, password: await hashPassword(account.password), name: account.name, phone: account.phone, role: 'SUPER_ADMIN' })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!created) return upsertAdmin(db, account);
  return { id: created.id, created: true };
}

/**
 * Makes sure the administrator named by ADMIN_EMAIL/ADMIN_PASSWORD exists. It only ever creates
 * that account: an existing account with the address (whatever its role) is left exactly as it is,
 * so nobody can become an administrator by taking the configured address first.
 */
export async function ensureConfiguredAdmin(): Promise<void> {
  const admin = config().admin;
  if (!admin) return;
  const db = await getDb();
  const email = admin.email.toLowerCase();
  const roleOfAddress = async () => {
    const [existing] = await db.select({ role: users.role }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
    return existing?.role;
  };
  let role = await roleOfAddress();
  if (!role) {
    const [created] = await db
      .insert(users)
      .values({ email, password: await hashPassword(admin.password), name: admin.name, phone: admin.phone, role: 'SUPER_ADMIN' })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (created) {
      log.info('created the configured administrator', { email });
      return;
    }
    // Another instance, or a sign-up, took the address in the meantime.
    role = await roleOfAddress();
  }
  if (role !== 'SUPER_ADMIN') {
    log.warn('ADMIN_EMAIL names an existing account that is not an administrator; it was left unchanged (npm run create-admin promotes an account deliberately)', { email });
  }
}

/** Whether any SUPER_ADMIN exists, so that a fresh install can say how to make the first one. */
export async function administratorExists(db: Executor): Promise<boolean> {
  const [found] = await db.select({ id: users.id }).from(users).where(sql`${users.role} = 'SUPER_ADMIN'`).limit(1);
  return found !== undefined;
}
