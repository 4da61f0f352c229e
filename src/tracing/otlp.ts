/**
 * Spans exported over OTLP/HTTP with OpenTelemetry's own packages (docs/webhooks.md, "Traces"): one per /api request
 * (`server`) and one per webhook delivery attempt (`client`), batched, as service `esign-sandbox` (or
 * OTEL_SERVICE_NAME). The provider is the sandbox's own and never registered as the process's global one, so a
 * team's own OpenTelemetry set-up in the same process (the library in a test) is left as it was. Imported only
 * when an endpoint is set (wiring/tracing.ts): the packages are optional peer dependencies.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, createTraceState, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { VERSION } from '../config/version.js';
import type { SpanStart, Tracer } from '../core/trace-context.js';

export async function otlpTracer(url: string): Promise<Tracer> {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': process.env.OTEL_SERVICE_NAME || 'esign-sandbox',
      'service.version': VERSION,
    }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  const tracer = provider.getTracer('esign-sandbox', VERSION);
  return {
    exporting: true,
    startSpan({ name, kind, parent, attributes }: SpanStart) {
      const context = parent
        ? trace.setSpanContext(ROOT_CONTEXT, {
            traceId: parent.traceId,
            spanId: parent.spanId,
            traceFlags: Number.parseInt(parent.flags, 16),
            isRemote: true,
            ...(parent.tracestate ? { traceState: createTraceState(parent.tracestate) } : {}),
          })
        : ROOT_CONTEXT;
      const span = tracer.startSpan(
        name,
        { kind: kind === 'server' ? SpanKind.SERVER : SpanKind.CLIENT, attributes },
        context,
      );
      const { traceId, spanId } = span.spanContext();
      return {
        traceId,
        spanId,
        end({ status, error, attributes: more }) {
          if (status !== undefined) span.setAttribute('http.response.status_code', status);
          if (more) span.setAttributes(more);
          // OpenTelemetry's HTTP conventions: a 5xx is an error of a server span; any 4xx or 5xx, of a client span.
          if (error !== undefined || (status !== undefined && status >= (kind === 'server' ? 500 : 400)))
            span.setStatus({ code: SpanStatusCode.ERROR, ...(error !== undefined ? { message: error } : {}) });
          span.end();
        },
      };
    },
    close: () => provider.shutdown(),
  };
}
