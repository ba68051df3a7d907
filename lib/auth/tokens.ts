import { errors, jwtVerify, SignJWT } from 'jose';
import { config } from '../config.js';
import type { Role } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import { jwtSecret } from '../server-secret.js';

const ALGORITHM = 'HS256';

export interface TokenSubject {
  id: string;
  email: string;
  role: Role;
}

export interface TokenClaims {
  sub: string;
  email: string;
  role: Role;
  /** When it was issued, in seconds since the epoch. */
  iat: number;
}

export function signToken(user: TokenSubject): Promise<string> {
  return new SignJWT({ email: user.email, role: user.role })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime(config().jwtExpiresIn)
    .sign(jwtSecret());
}

/** Verifies signature (HS256 only) and expiry, with the spec's messages. A token must carry `exp` and `iat`: without `exp` it would never expire, without `iat` no password reset could end it. */
export async function verifyToken(token: string): Promise<TokenClaims> {
  // Outside the try: without a secret the service is unavailable, which is not the caller's bad token.
  const secret = jwtSecret();
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: [ALGORITHM], requiredClaims: ['exp', 'iat'] });
    if (typeof payload.sub !== 'string' || typeof payload.email !== 'string' || typeof payload.role !== 'string' || typeof payload.iat !== 'number') {
      throw ApiError.unauthorized('Invalid token');
    }
    return { sub: payload.sub, email: payload.email, role: payload.role as Role, iat: payload.iat };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof errors.JWTExpired) throw ApiError.unauthorized('Token has expired');
    throw ApiError.unauthorized('Invalid token');
  }
}
