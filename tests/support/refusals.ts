import { expect } from 'vitest';
import type { ApiClient, ApiResponse } from './http.js';

/** A GET of `path` is for administrators only: an agent's token gets 403, no token 401, each in the error envelope. */
export async function expectAdministratorsOnly(api: ApiClient, path: string, agentToken: string): Promise<void> {
  const asAgent = await api.get(path, { token: agentToken });
  expect(asAgent.status).toBe(403);
  expect(asAgent.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Role "AGENT" is not authorized for this resource' });
  const anonymous = await api.get(path);
  expect(anonymous.status).toBe(401);
  expect(anonymous.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Missing or malformed Authorization header' });
}

/** A limit's refusal: 429 in the RATE_LIMITED envelope, with a Retry-After of at least a second. */
export function expectTooMany(response: Pick<ApiResponse, 'status' | 'body' | 'headers'>): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ success: false, code: 'RATE_LIMITED', error: 'Too many requests, try again later' });
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
}
