import { assertAnswerMatchesContract } from './answer-contract.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** A raw body sent as is (with `headers` naming its type). */
  raw?: string | Uint8Array;
}

/** Requests a client may send again when they fail before any answer: they change nothing. */
const IDEMPOTENT = new Set(['GET', 'HEAD']);

/**
 * A connection that failed under a request before any answer came: the server closed it, idle,
 * just as the request was written on it (a test that keeps the event loop busy for minutes, as a
 * bulk seed does, can let a kept-alive connection outlive the server's idle wait).
 */
function connectionReset(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET';
}

/**
 * A small HTTP client for the server under test; every response body is parsed when it is JSON,
 * and every answer is checked against the OpenAPI document the server serves (a mismatch throws).
 * The base URL may be given as a function, read at each request (for a server started later).
 * `onResponse` sees every response (e.g. to scan all bodies a file received for secrets).
 */
export function apiClient(baseUrl: string | (() => string), onResponse?: (response: ApiResponse) => void) {
  const base = typeof baseUrl === 'function' ? baseUrl : () => baseUrl;
  const send = async <T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: RequestInit['body'];
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form;
    } else if (options.raw !== undefined) {
      body = options.raw as RequestInit['body'];
    }
    const request = () => fetch(`${base()}${path}`, { method, headers, body });
    // As browsers do, an idempotent request whose connection was reset before any answer is sent once more, on another connection.
    const response = await request().catch((error: unknown) => {
      if (!IDEMPOTENT.has(method.toUpperCase()) || !connectionReset(error)) throw error;
      return request();
    });
    const text = await response.text();
    let parsed: unknown = text;
    if (response.headers.get('content-type')?.includes('application/json') && text) parsed = JSON.parse(text);
    const result: ApiResponse<T> = { status: response.status, headers: response.headers, body: parsed as T, text };
    await assertAnswerMatchesContract(base(), { method, path, status: response.status, contentType: response.headers.get('content-type'), body: parsed, text });
    onResponse?.(result);
    return result;
  };
  return {
    send,
    get: <T = any>(path: string, options?: RequestOptions) => send<T>('GET', path, options),
    post: <T = any>(path: string, options?: RequestOptions) => send<T>('POST', path, options),
    put: <T = any>(path: string, options?: RequestOptions) => send<T>('PUT', path, options),
    patch: <T = any>(path: string, options?: RequestOptions) => send<T>('PATCH', path, options),
    delete: <T = any>(path: string, options?: RequestOptions) => send<T>('DELETE', path, options),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
