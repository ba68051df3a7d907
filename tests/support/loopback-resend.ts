import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentEmail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text?: string;
  html?: string;
}

export interface LoopbackResend {
  /** For `RESEND_BASE_URL`. */
  baseUrl: string;
  /** The key requests must carry, for `RESEND_API_KEY`. */
  apiKey: string;
  /** E-mails accepted so far, oldest first. */
  sent: SentEmail[];
  /** Requests refused or failed so far (wrong key, invalid payload, forced failure). */
  refused: number;
  /** Answers the next sends with this status and an error body, as the provider does when it fails. */
  failWith: (status: number | undefined) => void;
  close: () => Promise<void>;
}

function reply(res: http.ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
}

function errorBody(statusCode: number, name: string, message: string) {
  return { statusCode, name, message };
}

/** A loopback server speaking resend's e-mail API: `POST /emails` with a Bearer key, answering `{ id }`. */
export async function startLoopbackResend(apiKey = `re_test_${crypto.randomBytes(6).toString('hex')}`): Promise<LoopbackResend> {
  const state = { sent: [] as SentEmail[], refused: 0, failure: undefined as number | undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/emails') {
        state.refused += 1;
        return reply(res, 404, errorBody(404, 'not_found', 'The requested endpoint does not exist.'));
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        state.refused += 1;
        return reply(res, 401, errorBody(401, 'invalid_api_key', 'API key is invalid'));
      }
      if (state.failure) {
        state.refused += 1;
        return reply(res, state.failure, errorBody(state.failure, 'application_error', 'Something went wrong'));
      }
      let payload: Record<string, unknown>;
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        state.refused += 1;
        return reply(res, 422, errorBody(422, 'validation_error', 'Invalid JSON'));
      }
      const to = typeof payload.to === 'string' ? [payload.to] : payload.to;
      const valid =
        typeof payload.from === 'string' &&
        typeof payload.subject === 'string' &&
        Array.isArray(to) &&
        to.length > 0 &&
        (typeof payload.text === 'string' || typeof payload.html === 'string');
      if (!valid) {
        state.refused += 1;
        return reply(res, 422, errorBody(422, 'validation_error', 'Missing `from`, `to`, `subject` or a body'));
      }
      const id = crypto.randomUUID();
      state.sent.push({
        id,
        from: payload.from as string,
        to: to as string[],
        subject: payload.subject as string,
        text: payload.text as string | undefined,
        html: payload.html as string | undefined,
      });
      reply(res, 200, { id });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    get sent() {
      return state.sent;
    },
    get refused() {
      return state.refused;
    },
    failWith: (status) => {
      state.failure = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
