/**
 * The sandbox's tracer (docs/webhooks.md, "Traces"): spans exported over OTLP/HTTP when an endpoint is set, else
 * the plain tracer (ids only). OpenTelemetry's packages are optional peer dependencies, loaded here and only
 * then: a sandbox without an endpoint never imports them. Missing, they leave the sandbox running without export,
 * with a warning that names them: an OTEL_ variable set for a team's own app must not stop its tests.
 */
import { type Tracer, plainTracer } from '../core/trace-context.js';

export const OTEL_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/resources',
  '@opentelemetry/exporter-trace-otlp-http',
];

/** The OTLP traces URL: the option or OTEL_EXPORTER_OTLP_ENDPOINT with `/v1/traces`, or the traces variable as is. */
export function tracesUrl(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const base = option ?? (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? undefined : env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (base) return `${base.replace(/\/+$/, '')}/v1/traces`;
  return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || undefined;
}

export async function openTracer(otlpEndpoint: string | undefined): Promise<Tracer> {
  const url = tracesUrl(otlpEndpoint);
  if (!url) return plainTracer;
  try {
    const { otlpTracer } = await import('../tracing/otlp.js');
    return await otlpTracer(url);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    process.emitWarning(
      `an OTLP endpoint is set (${url}) but OpenTelemetry's packages are not installed, so no span is exported: npm install ${OTEL_PACKAGES.join(' ')}`,
      { code: 'ESIGN_SANDBOX_TRACING' },
    );
    return plainTracer;
  }
}
