import { afterAll, beforeAll } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, with its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
  serviceName: unknown;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: OtlpAttribute[] }> }>;
  }>;
}

function valueOf(value: OtlpValue): unknown {
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}

function attributesOf(list: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map((attribute) => [attribute.key, valueOf(attribute.value)]));
}

export interface LoopbackOtlp {
  /** The base URL to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Non-JSON exports received (a protobuf export when JSON was asked for). */
  refused: number;
  close(): Promise<void>;
}

/**
 * An OpenTelemetry collector on loopback: `POST /v1/traces` with an OTLP/HTTP JSON body (the
 * exporter's `http/json` protocol), answered `{}` as a collector does when it took every span.
 */
export async function startLoopbackOtlp(): Promise<LoopbackOtlp> {
  const spans: ReceivedSpan[] = [];
  const state = { refused: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.includes('application/json')) {
        state.refused += 1;
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const serviceName = attributesOf(resourceSpans.resource?.attributes)['service.name'];
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({ traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId ?? '', name: span.name, attributes: attributesOf(span.attributes), serviceName });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    get refused() {
      return state.refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The file's collector, started before its tests (and before a server that exports to it) and closed after them. */
export function useLoopbackOtlp(): LoopbackOtlp & { serverEnv: () => Record<string, string> } {
  let started: LoopbackOtlp | undefined;
  beforeAll(async () => {
    started = await startLoopbackOtlp();
  });
  afterAll(() => started?.close());
  const current = (): LoopbackOtlp => {
    if (!started) throw new Error('The loopback collector is started in beforeAll: use it from hooks and tests');
    return started;
  };
  return {
    get endpoint() {
      return current().endpoint;
    },
    get spans() {
      return current().spans;
    },
    get refused() {
      return current().refused;
    },
    close: () => current().close(),
    serverEnv: () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: current().endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50' }),
  };
}
