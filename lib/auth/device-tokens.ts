import crypto from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { jwtSecret } from './jwt-secret.js';

/**
 * Device tokens (the OWASP device-cookie scheme): a successful sign-in hands the client a signed
 * token naming the account and a fresh device id. A later sign-in to that account that carries it
 * is judged by that device's own failures only, so strangers' wrong guesses at the account cannot
 * lock its owner out.
 */
const ALGORITHM = 'HS256';
const LIFETIME = '180d';

/** The device that signed in, and the account it signed in to. */
export interface TrustedDevice {
  accountId: string;
  deviceId: string;
}

let deviceKey: Uint8Array | undefined;

/**
 * Derived from the token secret under its own label: a device token can never pass as a bearer
 * token, nor a bearer token as a device token.
 */
function key(): Uint8Array {
  deviceKey ??= crypto.createHmac('sha256', jwtSecret()).update('device tokens').digest();
  return deviceKey;
}

export function signDeviceToken(accountId: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(accountId)
    .setJti(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(LIFETIME)
    .sign(key());
}

/** The device a token names, or undefined for anything that is not a live device token of ours. */
export async function verifyDeviceToken(token: string): Promise<TrustedDevice | undefined> {
  try {
    const { payload } = await jwtVerify(token, key(), { algorithms: [ALGORITHM], requiredClaims: ['exp', 'jti', 'sub'] });
    return { accountId: payload.sub!, deviceId: payload.jti! };
  } catch {
    return undefined;
  }
}
