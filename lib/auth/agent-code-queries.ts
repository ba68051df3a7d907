import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm/sql/expressions/conditions';
import { desc } from 'drizzle-orm/sql/expressions/select';
import { count } from 'drizzle-orm/sql/functions/aggregate';
import { sql } from 'drizzle-orm/sql/sql';
import type { Database, Executor } from '../db/client.js';
import { agentCodes } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import { offsetOf, type PageQuery } from '../http/common-schemas.js';

/** Usable: not revoked, not expired (by the database clock) and not used up. */
export const codeIsUsable = sql<boolean>`(${agentCodes.revokedAt} is null and ${agentCodes.expiresAt} > now() and ${agentCodes.useCount} < ${agentCodes.maxUses})`;

/** An agent code with its state computed by the database clock. */
const agentCodeColumns = {
  id: agentCodes.id,
  code: agentCodes.code,
  agentName: agentCodes.agentName,
  agentPhone: agentCodes.agentPhone,
  role: agentCodes.role,
  maxUses: agentCodes.maxUses,
  useCount: agentCodes.useCount,
  isUsed: agentCodes.isUsed,
  revoked: sql<boolean>`${agentCodes.revokedAt} is not null`,
  revokedAt: agentCodes.revokedAt,
  expired: sql<boolean>`${agentCodes.expiresAt} <= now()`,
  usable: codeIsUsable,
  expiresAt: agentCodes.expiresAt,
  createdById: agentCodes.createdById,
  usedById: agentCodes.usedById,
  createdAt: agentCodes.createdAt,
};

const CODE_ATTEMPTS = 10;

function randomCode(): string {
  return String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
}

export interface NewAgentCode {
  createdById: string;
  agentName: string;
  agentPhone: string;
  maxUses: number;
  expiresInHours: number;
}

/** Stores a new code under a fresh random 6-digit value, drawing again when the value is taken. */
export async function insertAgentCode(executor: Executor, values: NewAgentCode) {
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
    const [row] = await executor
      .insert(agentCodes)
      .values({
        code: randomCode(),
        createdById: values.createdById,
        agentName: values.agentName,
        agentPhone: values.agentPhone,
        role: 'AGENT',
        maxUses: values.maxUses,
        expiresAt: sql`now() + make_interval(hours => ${values.expiresInHours}::int)`,
      })
      .onConflictDoNothing({ target: agentCodes.code })
      .returning({
        id: agentCodes.id,
        code: agentCodes.code,
        agentName: agentCodes.agentName,
        agentPhone: agentCodes.agentPhone,
        maxUses: agentCodes.maxUses,
        expiresAt: agentCodes.expiresAt,
      });
    if (row) return row;
  }
  throw new ApiError(503, 'Could not allocate a unique agent code, try again');
}

/**
 * Takes one use of a usable code in a single conditional update: concurrent sign-ups queue on the
 * row and each re-checks the use count, so `maxUses` holds. Undefined when the code is unusable.
 */
export async function consumeAgentCode(tx: Executor, code: string): Promise<{ id: string } | undefined> {
  const [row] = await tx
    .update(agentCodes)
    .set({
      useCount: sql`${agentCodes.useCount} + 1`,
      isUsed: sql`${agentCodes.useCount} + 1 >= ${agentCodes.maxUses}`,
    })
    .where(and(eq(agentCodes.code, code), codeIsUsable))
    .returning({ id: agentCodes.id });
  return row;
}

export async function recordAgentCodeUser(tx: Executor, codeId: string, userId: string): Promise<void> {
  await tx.update(agentCodes).set({ usedById: userId }).where(eq(agentCodes.id, codeId));
}

/** The name and phone a usable code pre-fills the sign-up with. */
export async function findUsableAgentCode(db: Database, code: string) {
  const [row] = await db
    .select({ agentName: agentCodes.agentName, agentPhone: agentCodes.agentPhone })
    .from(agentCodes)
    .where(and(eq(agentCodes.code, code), codeIsUsable))
    .limit(1);
  return row;
}

/** Newest first, each with its state. */
export async function listAgentCodes(db: Database, page: PageQuery) {
  const [items, [totals]] = await Promise.all([
    db
      .select(agentCodeColumns)
      .from(agentCodes)
      .orderBy(desc(agentCodes.createdAt), desc(agentCodes.id))
      .limit(page.limit)
      .offset(offsetOf(page)),
    db.select({ total: count() }).from(agentCodes),
  ]);
  return { items, total: totals?.total ?? 0 };
}

/**
 * Revokes at once; an already revoked code keeps its first revocation time. Answers the revocation
 * time before and after, or undefined when the code is unknown.
 */
export async function revokeAgentCode(tx: Executor, id: string): Promise<{ before: { revokedAt: Date | null }; after: { id: string; revokedAt: Date | null } } | undefined> {
  const [before] = await tx.select({ revokedAt: agentCodes.revokedAt }).from(agentCodes).where(eq(agentCodes.id, id)).for('update');
  if (!before) return undefined;
  const [after] = await tx
    .update(agentCodes)
    .set({ revokedAt: sql`coalesce(${agentCodes.revokedAt}, now())` })
    .where(eq(agentCodes.id, id))
    .returning({ id: agentCodes.id, revokedAt: agentCodes.revokedAt });
  return { before, after: after! };
}
