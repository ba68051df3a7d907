import { sql } from 'drizzle-orm/sql/sql';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../lib/db/query-rows.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();

describe('a database that lags behind the migrations this build carries', () => {
  it('answers readiness 503 naming how many migrations are not applied and the command that applies them', async () => {
    const newest = await queryRows<{ id: number; hash: string; created_at: string }>(
      server.db,
      sql`delete from drizzle.__drizzle_migrations where id in (select id from drizzle.__drizzle_migrations order by created_at desc limit 2) returning id, hash, created_at`,
    );
    expect(newest).toHaveLength(2);
    try {
      const response = await server.api.get('/api/health/ready');
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.body).toEqual({
        success: false,
        code: 'DEPENDENCY_UNAVAILABLE',
        error: 'Service unavailable: the database is not migrated',
        details: [{ field: 'database', message: '2 migrations are not applied: run npm run db:migrate' }],
      });
    } finally {
      for (const row of newest) {
        await server.db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${row.id}, ${row.hash}, ${row.created_at})`);
      }
    }
    expect((await server.api.get('/api/health/ready')).status).toBe(200);
  });

  it('answers a route whose table does not exist yet with 503 naming the command, not a server error', async () => {
    await server.db.execute(sql`alter table settings rename to settings_not_yet_created`);
    try {
      const response = await server.api.get('/api/settings');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ success: false, code: 'DEPENDENCY_UNAVAILABLE', error: 'Service unavailable: the database is not migrated (run npm run db:migrate)' });
    } finally {
      await server.db.execute(sql`alter table settings_not_yet_created rename to settings`);
    }
    expect((await server.api.get('/api/settings')).status).toBe(200);
  });
});
