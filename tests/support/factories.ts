import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { signToken } from '../../lib/auth/tokens.js';
import { hashPassword } from '../../lib/auth/passwords.js';
import type { Database } from '../../lib/db/client.js';
import { users, type Role } from '../../lib/db/schema.js';
import { resetCodeDigest } from './server-keys.js';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  phone: string;
  role: Role;
  password: string;
  token: string;
}

export async function buildUser(db: Database, overrides: Partial<{ email: string; password: string; name: string; phone: string; role: Role }> = {}): Promise<TestUser> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const password = overrides.password ?? 'correct-horse-battery';
  const values = {
    email: overrides.email ?? `user-${suffix}@example.com`,
    name: overrides.name ?? `User ${suffix}`,
    phone: overrides.phone ?? '+15550100',
    role: overrides.role ?? ('AGENT' as Role),
  };
  const [row] = await db
    .insert(users)
    .values({ ...values, password: await hashPassword(password) })
    .returning({ id: users.id });
  const token = await signToken({ id: row!.id, email: values.email, role: values.role });
  return { id: row!.id, ...values, password, token };
}

export const buildAdmin = (db: Database, overrides: Parameters<typeof buildUser>[1] = {}) => buildUser(db, { ...overrides, role: 'SUPER_ADMIN' });
export const buildAgent = (db: Database, overrides: Parameters<typeof buildUser>[1] = {}) => buildUser(db, { ...overrides, role: 'AGENT' });

/** A token signed with the server's secret but already past its expiry. */
export function expiredToken(user: { id: string; email: string; role: Role }): Promise<string> {
  const secret = new TextEncoder().encode(process.env.JWT_SECRET);
  const past = Math.floor(Date.now() / 1000) - 3600;
  return new SignJWT({ email: user.email, role: user.role })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setIssuedAt(past - 60)
    .setExpirationTime(past)
    .sign(secret);
}

/** Gives the account a live reset code, as forgot-password stores it (a keyed digest, 15 minutes, no attempt spent). */
export async function plantResetCode(db: Database, userId: string, code: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordResetToken: resetCodeDigest(code), passwordResetExpires: sql`now() + interval '15 minutes'`, passwordResetAttempts: 0 })
    .where(eq(users.id, userId));
}
