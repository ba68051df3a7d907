import { describe, expect, it } from 'vitest';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;

describe('health', () => {
  it('answers liveness at /health and /api/health without touching the database', async () => {
    for (const path of ['/health', '/api/health']) {
      const response = await api.get(path);
      expect(response.status).toBe(200);
      expect(response.body.status).toBe('ok');
      expect(new Date(response.body.timestamp).toISOString()).toBe(response.body.timestamp);
      expect(response.body).not.toHaveProperty('success');
    }
  });

  it('reports readiness with a database check', async () => {
    const response = await api.get('/api/health/ready');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', checks: { database: 'ok' } });
  });
});

describe('routing and envelope', () => {
  it('answers an unknown route with a 404 envelope', async () => {
    const response = await api.get('/api/does-not-exist');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Route not found' });
  });

  it('answers a wrong method with 405 and the allowed methods', async () => {
    const response = await api.delete('/api/health');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, OPTIONS');
    expect(response.body).toEqual({ success: false, code: 'METHOD_NOT_ALLOWED', error: 'Method DELETE not allowed' });
  });

  it("tags every response with the service's own request id, whatever id the caller sent", async () => {
    const generated = await api.get('/health');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const sent = await api.get('/health', { headers: { 'x-request-id': 'trace-12345678' } });
    expect(sent.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.headers.get('x-request-id')).not.toBe(generated.headers.get('x-request-id'));
  });
});

describe('CORS', () => {
  it('answers a preflight from a local development origin with PUT among the methods', async () => {
    const response = await api.send('OPTIONS', '/api/health', {
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(response.headers.get('access-control-allow-headers')).toContain('Authorization');
  });

  it('gives no CORS grant to an origin that is not allowed', async () => {
    const response = await api.get('/health', { headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
