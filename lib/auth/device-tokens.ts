import crypto from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { and, eq } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { Database, Executor } from '../db/client.js';
import { deviceTokens, users } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import { serverKey } from '../server-secret.js';

/**
 * Device tokens (the OWASP device-cookie scheme): a successful sign-in hands the client a signed
 * token naming the account and a fresh device id, and records the id. A later sign-in to that
 * account that carries a token whose id is still recorded is judged by that device's own failures
 * only, so strangers' wrong guesses at the account cannot lock its owner out.
 */
const ALGORITHM = 'HS256';
const LIFETIME_DAYS = 180;
/** Live device tokens an account keeps: a new sign-in past it drops the oldest. */
export const DEVICE_TOKENS_PER_ACCOUNT = 10;

/** The device that signed in, and the account it signed in to. */
export interface TrustedDevice {
  accountId: string;
  deviceId: string;
}

/**
 * Derived from the token secret under its own label: a device token can never pass as a bearer
 * token, nor a bearer token as a device token.
 */
function key(): Uint8Array {
  return serverKey('device tokens');
}

/**
 * Records a new device for the account, dropping its oldest beyond the newest ten, and answers its
 * signed token. The account's row is locked meanwhile, so concurrent sign-ins cannot keep more.
 */
export async function issueDeviceToken(db: Database, accountId: string, network: string): Promise<string> {
  const deviceId = crypto.randomUUID();
  await inTransaction(db, async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, accountId)).for('update');
    await tx.execute(sql`
      delete from ${deviceTokens} where ${deviceTokens.id} in (
        select ${deviceTokens.id} from ${deviceTokens} where ${deviceTokens.userId} = ${accountId}
        order by ${deviceTokens.issuedAt} desc offset ${DEVICE_TOKENS_PER_ACCOUNT - 1}
      )`);
    await tx.insert(deviceTokens).values({ id: deviceId, userId: accountId, network });
  });
  return new SignJWT({})
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(accountId)
    .setJti(deviceId)
    .setIssuedAt()
    .setExpirationTime(`${LIFETIME_DAYS}d`)
    .sign(key());
}

/** The device a token names by its signature, or undefined for anything that is not a device token of ours. */
export async function readDeviceToken(token: string): Promise<TrustedDevice | undefined> {
  // Outside the try: without a server key the service is unavailable, which is not a bad token.
  const deviceKey = key();
  try {
    const { payload } = await jwtVerify(token, deviceKey, { algorithms: [ALGORITHM], requiredClaims: ['exp', 'jti', 'sub'] });
    return { accountId: payload.sub!, deviceId: payload.jti! };
  } catch {
    return undefined;
  }
}

/** Whether the account still has the device recorded (not dropped as its oldest, nor ended by a password change). */
export async function deviceIsLive(db: Database, device: TrustedDevice): Promise<boolean> {
  const [row] = await db
    .select({ id: deviceTokens.id })
    .from(deviceTokens)
    .where(and(eq(deviceTokens.id, device.deviceId), eq(deviceTokens.userId, device.accountId)))
    .limit(1);
  return row !== undefined;
}

/** Ends every device token of the account: a password reset or change, in the caller's transaction. */
export async function endDeviceTokens(executor: Executor, accountId: string): Promise<void> {
  await executor.delete(deviceTokens).where(eq(deviceTokens.userId, accountId));
}

/**
 * Whether the account with this e-mail has a live device token issued to a sign-in from this
 * network: a network its owner signed in from since the last password change.
 */
export function networkIsFamiliar(email: string, network: string): SQL {
  return sql`exists (
    select 1 from ${deviceTokens} join ${users} on ${users.id} = ${deviceTokens.userId}
    where ${users.email} = ${email} and ${deviceTokens.network} = ${network}
      and ${deviceTokens.issuedAt} > now() - make_interval(days => ${LIFETIME_DAYS})
  )`;
}
