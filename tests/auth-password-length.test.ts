import { describe, expect, it } from 'vitest';
import { buildAgent } from './support/factories.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;

describe('passwords over 72 bytes', () => {
  it('are refused at sign-in and as the current password, never silently cut', async () => {
    const agent = await buildAgent(server.db, { password: 'a'.repeat(72) });
    const login = await api.post('/api/auth/login', { json: { email: agent.email, password: `${'a'.repeat(72)}extra` } });
    expect(login.status).toBe(400);
    expect(login.body.details).toContainEqual(expect.objectContaining({ field: 'password', message: 'must be at most 72 bytes' }));
    const change = await api.put('/api/auth/me', { token: agent.token, json: { email: 'x@example.com', currentPassword: `${'a'.repeat(72)}extra` } });
    expect(change.status).toBe(400);
    expect(change.body.details).toContainEqual(expect.objectContaining({ field: 'currentPassword', message: 'must be at most 72 bytes' }));
    expect((await api.get('/api/auth/me', { token: agent.token })).body.data.email).toBe(agent.email);
  });
});
