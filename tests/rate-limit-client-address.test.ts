import { describe, expect, it } from 'vitest';
import { buildAgent } from './support/factories.js';
import { useTestServer } from './support/test-server.js';
import { expectTooMany } from './support/refusals.js';

/** One proxy in front of the service: it appends the address it received each request from. */
const server = useTestServer({ TRUST_PROXY: '1' });
const api = server.api;

describe('the client address behind a trusted proxy', () => {
  it('ignores what the client wrote into X-Forwarded-For: 30 wrong logins with varied first entries are limited after 10', async () => {
    const agent = await buildAgent(server.db);
    const answers = [];
    for (let index = 0; index < 30; index += 1) {
      const forwarded = `198.18.${index}.1, 203.0.113.50`;
      answers.push(await api.post('/api/auth/login', { json: { email: agent.email, password: 'wrong-password' }, headers: { 'x-forwarded-for': forwarded } }));
    }
    expect(answers.map((answer) => answer.status)).toEqual([...Array(10).fill(401), ...Array(20).fill(429)]);
    expectTooMany(answers.at(-1)!);
  });
});

describe('agent code checks', () => {
  it('allow 300 checks in 15 minutes across every address together', async () => {
    const answers = [];
    for (let index = 0; index < 301; index += 1) {
      const address = `198.19.${Math.floor(index / 250)}.${index % 250}`;
      answers.push(await api.post('/api/auth/verify-agent-code', { json: { code: '000000' }, headers: { 'x-forwarded-for': address } }));
    }
    expect(answers.slice(0, 300).every((answer) => answer.status === 200)).toBe(true);
    expect(answers[0]!.body).toEqual(answers[299]!.body);
    expectTooMany(answers[300]!);
  });
});

describe('password reset requests', () => {
  it('let strangers use up only their own allowance: the owner can still ask from their address', async () => {
    const agent = await buildAgent(server.db);
    for (let index = 0; index < 5; index += 1) {
      expect((await api.post('/api/auth/forgot-password', { json: { email: agent.email }, headers: { 'x-forwarded-for': '198.51.100.66' } })).status).toBe(200);
    }
    const held = await api.post('/api/auth/forgot-password', { json: { email: agent.email }, headers: { 'x-forwarded-for': '198.51.100.66' } });
    expect(held.status).toBe(429);
    expect(held.body).toEqual({ success: false, code: 'RATE_LIMITED', error: 'Too many requests, try again later' });
    expect((await api.post('/api/auth/forgot-password', { json: { email: agent.email }, headers: { 'x-forwarded-for': '192.0.2.44' } })).status).toBe(200);
  });

  it('stop at 20 an hour for one account, whatever the addresses', async () => {
    const agent = await buildAgent(server.db);
    const answers = [];
    for (let index = 0; index < 21; index += 1) {
      answers.push(await api.post('/api/auth/forgot-password', { json: { email: agent.email }, headers: { 'x-forwarded-for': `192.0.2.${100 + index}` } }));
    }
    expect(answers.map((answer) => answer.status)).toEqual([...Array(20).fill(200), 429]);
    expectTooMany(answers[20]!);
  });
});
