import { eq } from 'drizzle-orm/sql/expressions/conditions';
import { sql } from 'drizzle-orm/sql/sql';
import { getDb, type Database } from '../db/client.js';
import { users, type Role } from '../db/schema.js';
import type { AuthUser } from '../http/access.js';
import { ApiError } from '../http/api-error.js';
import { verifyToken } from './tokens.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function bearerToken(header: string | undefined): string {
  const value = header?.trim() ?? '';
  if (/^Bearer$/i.test(value)) throw ApiError.unauthorized('Token is empty');
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  if (!match) throw ApiError.unauthorized('Missing or malformed Authorization header');
  return match[1]!;
}

/**
 * The spec's order: header shape, signature and expiry, then the user by `sub`, whose password
 * reset or change ends every token issued before it.
 */
export async function authenticate(authorization: string | undefined): Promise<AuthUser> {
  const claims = await verifyToken(bearerToken(authorization));
  if (!UUID.test(claims.sub)) throw ApiError.unauthorized('Invalid token');
  const [row] = await callerQuery(await getDb()).execute({ id: claims.sub });
  if (!row) throw ApiError.unauthorized('User no longer exists');
  const { tokensValidAfter, ...user } = row;
  if (tokensValidAfter && claims.iat * 1000 < tokensValidAfter.getTime()) throw ApiError.unauthorized('Token has been revoked');
  return user;
}

function prepareCallerQuery(db: Database) {
  return db
    .select({ id: users.id, email: users.email, name: users.name, phone: users.phone, role: users.role, tokensValidAfter: users.tokensValidAfter })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('authenticated_user');
}

/** Every authenticated request runs this lookup: it is built once per database. */
const callerQueries = new WeakMap<Database, ReturnType<typeof prepareCallerQuery>>();

function callerQuery(db: Database) {
  let query = callerQueries.get(db);
  if (!query) {
    query = prepareCallerQuery(db);
    callerQueries.set(db, query);
  }
  return query;
}

export function assertRole(user: AuthUser, role: Role): void {
  if (user.role !== role) throw ApiError.forbidden(`Role "${user.role}" is not authorized for this resource`);
}
