import type { Attributes, Span, Tracer } from '@opentelemetry/api';

/**
 * OpenTelemetry, on only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: then `@vercel/otel` registers
 * the SDK once per instance (exporting to that endpoint, and on Vercel to its trace drains) and
 * requests, database statements and Bot API calls become spans. Unset, nothing of it is imported,
 * so cold starts and the hot path are as they were.
 */
export function telemetryEnabled(): boolean {
  return Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

const SERVICE_NAME = 'marketplace-listing-api';

let tracer: Promise<Tracer> | undefined;

function startTelemetry(): Promise<Tracer> {
  tracer ??= (async () => {
    const { registerOTel } = await import('@vercel/otel');
    // No automatic instrumentation: it would trace every outgoing HTTP request by its URL, and a
    // Bot API URL holds the bot token. Requests, statements and Bot API calls are traced by name.
    registerOTel({ serviceName: SERVICE_NAME, instrumentations: [] });
    const { trace } = await import('@opentelemetry/api');
    return trace.getTracer(SERVICE_NAME);
  })();
  return tracer;
}

/** What a span's work may add to it once it knows more (a request's status). */
export interface SpanNotes {
  set(attributes: Attributes): void;
}

const NO_NOTES: SpanNotes = { set: () => undefined };

/** `SpanStatusCode.ERROR`, named here so that the API is not imported where telemetry is off. */
const SPAN_STATUS_ERROR = 2;

/** The headers of an incoming request, which may carry its caller's trace (`traceparent`, W3C Trace Context). */
export type TraceCarrier = Record<string, string | string[] | undefined>;

/**
 * Runs `work` in a span named `name`: a child of the span it runs in, or, given the headers of an
 * incoming request that carry a `traceparent`, of the caller's span, so the request joins the
 * caller's trace. A failure marks the span as failed. With telemetry off, `work` runs as it is.
 */
export async function inSpan<T>(name: string, attributes: Attributes, work: (notes: SpanNotes) => Promise<T>, carrier?: TraceCarrier): Promise<T> {
  if (!telemetryEnabled()) return work(NO_NOTES);
  const active = await startTelemetry();
  const { context, propagation } = await import('@opentelemetry/api');
  const parent = carrier ? propagation.extract(context.active(), carrier) : context.active();
  return active.startActiveSpan(name, { attributes }, parent, async (span: Span) => {
    try {
      return await work({ set: (more) => span.setAttributes(more) });
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SPAN_STATUS_ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Sends the spans still buffered: a serverless instance may be frozen right after its answer. */
export async function flushTelemetry(): Promise<void> {
  if (!tracer) return;
  await tracer;
  const { trace } = await import('@opentelemetry/api');
  // The global provider is a proxy in front of the SDK's, which is the one that buffers.
  const provider = trace.getTracerProvider() as { getDelegate?: () => unknown };
  const sdk = (provider.getDelegate?.() ?? provider) as { forceFlush?: () => Promise<void> };
  await sdk.forceFlush?.();
}
