import { eq } from 'drizzle-orm';
import { getDb } from '../db/client.js';
import { users, type Role } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import { verifyToken } from './tokens.js';

/** The caller of an authenticated request (`req.user` in the spec). */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  phone: string;
  role: Role;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function bearerToken(header: string | undefined): string {
  const value = header?.trim() ?? '';
  if (/^Bearer$/i.test(value)) throw ApiError.unauthorized('Token is empty');
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  if (!match) throw ApiError.unauthorized('Missing or malformed Authorization header');
  return match[1]!;
}

/** The spec's order: header shape, signature and expiry, then the user by `sub`. */
export async function authenticate(authorization: string | undefined): Promise<AuthUser> {
  const claims = await verifyToken(bearerToken(authorization));
  if (!UUID.test(claims.sub)) throw ApiError.unauthorized('Invalid token');
  const db = await getDb();
  const [user] = await db
    .select({ id: users.id, email: users.email, name: users.name, phone: users.phone, role: users.role })
    .from(users)
    .where(eq(users.id, claims.sub))
    .limit(1);
  if (!user) throw ApiError.unauthorized('User no longer exists');
  return user;
}

export function assertRole(user: AuthUser, role: Role): void {
  if (user.role !== role) throw ApiError.forbidden(`Role "${user.role}" is not authorized for this resource`);
}
