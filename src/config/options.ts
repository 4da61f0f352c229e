/**
 * Sandbox options: one definition shared by the CLI (flags and ESIGN_SANDBOX_* variables) and the library.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inTimeRange } from '../core/time-range.js';
import { DEFAULT_API_KEY_HEADER, apiKeyProblem } from '../core/credentials.js';
import { RATE_LIMIT_HINT, type RateLimitSpec, parseRateLimit } from '../core/rate-limit.js';

export interface SandboxOptions {
  /** Port to listen on; 0 picks a free one. Default 4010 for the CLI, 0 for the library. */
  port?: number;
  /**
   * Export spans of /api requests and webhook delivery attempts over OTLP/HTTP to this endpoint (a base URL, as
   * OTEL_EXPORTER_OTLP_ENDPOINT: `/v1/traces` is appended); default: that variable, or
   * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT used as it is. Needs OpenTelemetry's packages (docs/webhooks.md, "Traces").
   */
  otlpEndpoint?: string;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Credentials of the default platform (overrides the first platform of the fixtures). */
  apiKey?: string;
  secret?: string;
  /** Persist to this JSON file; in memory when absent. */
  data?: string;
  /** Fixture file or folder; default: the bundled fixtures/. */
  fixtures?: string;
  /** Seed for generated keys, secrets and fixture data: the same seed gives the same sandbox. */
  seed?: number;
  /** `real` follows wall time (default); `frozen` stands still until moved through the control API. */
  clock?: 'real' | 'frozen';
  /** Sandbox time at start (ISO 8601 or epoch ms). */
  start?: string | number | Date;
  /** Largest accepted request body: bytes, or a size like "10mb". Default 10 MB. */
  maxBody?: number | string;
  /** Largest accepted PDF upload (POST /api/upload_pdf): bytes, or a size like "15mb". Default 15 MB. */
  maxUpload?: number | string;
  /** Header that carries the API key. Default X-Service-Key; the real service's X-Sendforsign-Key is always accepted too. */
  apiKeyHeader?: string;
  /** Longest time (ms) an acknowledged write waits before it reaches the data file. Default 50. */
  flushMs?: number;
  /** Request log on stdout: `pretty` lines, `json` lines, or `none`. Default `none` for the library, `pretty` for the CLI. */
  log?: LogFormat;
  /** How many requests the journal (GET /__sandbox/requests) keeps; the oldest go first. Default 1000. */
  journalLimit?: number;
  /**
   * A quota like a test mode for every API key: `10/min`, `2/s`, `500/h` (docs/readiness.md). Past it, 429 with
   * Retry-After; answers carry X-RateLimit-* headers. Default: no limit.
   */
  rateLimit?: string;
  /** Serve HTTPS: with a self-signed certificate generated at start, or with tlsCert/tlsKey. */
  tls?: boolean;
  /** Your own certificate and key: file paths or PEM text. Either one implies `tls`. */
  tlsCert?: string;
  tlsKey?: string;
  /** Scenarios to load at start: YAML file paths or bundled scenario names, in order. */
  scenarios?: string[];
  /** How long (ms) a webhook receiver has to answer before the attempt counts as a timeout. Default 10000. */
  webhookTimeoutMs?: number;
  /** How many deliveries the webhook delivery log keeps (oldest finished ones are dropped first). Default 10000. */
  webhookLogLimit?: number;
  /**
   * First attempts in flight at once to one webhook endpoint, each about a different contract (one contract's events
   * always go one at a time, in order). Default 8; 1 sends every event to an endpoint one at a time, in event order.
   */
  webhookConcurrency?: number;
  /**
   * The origin (optionally with a path prefix) of the absolute URLs the sandbox hands out: document URLs and the
   * links of request emails, e.g. `https://sandbox.example.test` behind a proxy. Default: the origin each request
   * came in on, and the listening address for links made outside a request.
   */
  publicUrl?: string;
  /**
   * Origins whose pages may call /api from a browser (CORS), e.g. `http://localhost:3000`. Default: every origin.
   * The control API, the dashboard and the docs are never open to other origins.
   */
  corsOrigins?: string[];
  /**
   * Host names the sandbox answers besides its own (localhost, loopback addresses, `host`): e.g. `esign` when it runs
   * as the `esign` service of a compose file. `*` answers any name. Other names get 421 (DNS rebinding defence).
   */
  allowedHosts?: string[];
}

export interface ResolvedConfig {
  port: number;
  host: string;
  apiKey?: string | undefined;
  secret?: string | undefined;
  data?: string | undefined;
  fixtures: string;
  seed?: number | undefined;
  clock: 'real' | 'frozen';
  start?: number | undefined;
  maxBodyBytes: number;
  maxUploadBytes: number;
  apiKeyHeader: string;
  flushMs: number;
  log: LogFormat;
  journalLimit: number;
  rateLimit?: RateLimitSpec | undefined;
  tls: boolean;
  tlsCert?: string | undefined;
  tlsKey?: string | undefined;
  scenarios: string[];
  webhookTimeoutMs: number;
  webhookLogLimit: number;
  webhookConcurrency: number;
  /** `--public-url` without a trailing slash, when given. */
  publicUrl?: string | undefined;
  /** Allowed CORS origins, each as `URL.origin`; empty: every origin. */
  corsOrigins: string[];
  /** Extra host names answered, lower case (`*`: any). */
  allowedHosts: string[];
}

export const DEFAULT_PORT = 4010;
/** How many requests the journal keeps by default (GET /__sandbox/requests). */
/**
 * First attempts in flight at once to one webhook endpoint, about different contracts (docs/webhooks.md, "Order"):
 * one at a time, the fan-out figure of docs/benchmarks.md waited on each answer in turn (0.58x a fetch() loop).
 */
export const DEFAULT_WEBHOOK_CONCURRENCY = 8;
export const DEFAULT_JOURNAL_LIMIT = 1000;

/** The request log's formats on stdout. */
export type LogFormat = 'pretty' | 'json' | 'none';
export const LOG_FORMATS: readonly LogFormat[] = ['pretty', 'json', 'none'];
export const DEFAULT_MAX_BODY = 10 * 1024 * 1024;
/** The real service's UI refuses PDFs over 15 MB [docs/compatibility.md]. */
export const DEFAULT_MAX_UPLOAD = 15 * 1024 * 1024;

/** The package's root (…/dist/config.js → …), where the bundled fixtures and scenarios live. */
export const PACKAGE_ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));
export const DEFAULT_FIXTURES = join(PACKAGE_ROOT, 'fixtures');
export const BUNDLED_SCENARIOS = join(PACKAGE_ROOT, 'scenarios');

export class ConfigError extends Error {}

/**
 * The folder holding our package.json, found upwards from this module: the CLI runs as one bundled file
 * (dist/cli.js), the library as tsc's tree (dist/config/options.js), and the tests from src/.
 */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`esign-sandbox: no package.json above ${from}`);
  }
}

export function resolveConfig(options: SandboxOptions, defaults: { port: number }): ResolvedConfig {
  const port = options.port ?? defaults.port;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`port must be a whole number from 0 to 65535 (got ${options.port})`);
  const clock = options.clock ?? 'real';
  if (clock !== 'real' && clock !== 'frozen')
    throw new ConfigError(`clock must be "real" or "frozen" (got "${String(clock)}")`);
  const seed = options.seed;
  if (seed !== undefined && !Number.isInteger(seed)) throw new ConfigError(`seed must be a whole number (got ${seed})`);
  const keyProblem = options.apiKey === undefined ? undefined : apiKeyProblem(options.apiKey);
  if (keyProblem) throw new ConfigError(`api-key ${keyProblem}`);
  const apiKeyHeader = options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER;
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(apiKeyHeader))
    throw new ConfigError(`api-key-header "${apiKeyHeader}" is not a valid header name`);
  return {
    port,
    host: options.host ?? '127.0.0.1',
    apiKey: options.apiKey,
    secret: options.secret,
    data: options.data,
    fixtures: options.fixtures ?? DEFAULT_FIXTURES,
    seed,
    clock,
    start: options.start === undefined ? undefined : parseStart(options.start),
    maxBodyBytes: options.maxBody === undefined ? DEFAULT_MAX_BODY : parseSize(options.maxBody),
    maxUploadBytes: options.maxUpload === undefined ? DEFAULT_MAX_UPLOAD : uploadSize(options.maxUpload),
    apiKeyHeader: apiKeyHeader.toLowerCase(),
    flushMs: options.flushMs ?? 50,
    log: checkLog(options.log),
    journalLimit: checkJournalLimit(options.journalLimit),
    rateLimit: options.rateLimit === undefined ? undefined : checkRateLimit(options.rateLimit),
    tls: options.tls === true || options.tlsCert !== undefined || options.tlsKey !== undefined,
    tlsCert: options.tlsCert,
    tlsKey: options.tlsKey,
    scenarios: options.scenarios ?? [],
    webhookTimeoutMs: positiveInteger('webhookTimeoutMs', options.webhookTimeoutMs, 10_000),
    webhookLogLimit: positiveInteger('webhookLogLimit', options.webhookLogLimit, 10_000),
    webhookConcurrency: positiveInteger('webhookConcurrency', options.webhookConcurrency, DEFAULT_WEBHOOK_CONCURRENCY),
    publicUrl: options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl),
    corsOrigins: (options.corsOrigins ?? []).map(checkOrigin),
    allowedHosts: (options.allowedHosts ?? []).map(checkHostName),
  };
}

function checkRateLimit(text: string): RateLimitSpec {
  const spec = parseRateLimit(String(text));
  if (!spec) throw new ConfigError(`rate-limit: ${RATE_LIMIT_HINT} (got "${text}")`);
  return spec;
}

/** `http://localhost:3000` as browsers send it in `Origin` (scheme, host, port; no path). */
function checkOrigin(origin: string): string {
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin.replace(/\/$/, ''))
    throw new ConfigError(`cors-origin takes an origin like http://localhost:3000, with no path (got "${origin}")`);
  return url.origin;
}

/** A host name (`esign`, `sandbox.example.test`), an IP address, or `*`; lower case, no port. */
function checkHostName(name: string): string {
  const host = name.trim().toLowerCase();
  if (
    host === '*' ||
    /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?|[0-9a-f:.]+)$/.test(host)
  )
    return host.replace(/\.$/, '');
  throw new ConfigError(
    `allowed-host takes a host name without port or scheme, like esign, or * for any (got "${name}")`,
  );
}

/** An http(s) URL with no query or fragment; answered without its trailing slash, so paths join with one `/`. */
function checkPublicUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`public-url must be an http(s) URL like https://sandbox.example.test (got "${url}")`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError(`public-url must start with http:// or https:// (got "${url}")`);
  if (parsed.search || parsed.hash || parsed.username || parsed.password)
    throw new ConfigError(`public-url takes an origin and an optional path, no query, fragment or user (got "${url}")`);
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new ConfigError(`${name} must be a positive whole number (got ${value})`);
  return value;
}

function parseStart(start: string | number | Date): number {
  const ms = start instanceof Date ? start.getTime() : typeof start === 'number' ? start : Date.parse(start);
  if (!Number.isFinite(ms))
    throw new ConfigError(`start must be an ISO 8601 time like 2026-01-01T09:00:00Z (got "${String(start)}")`);
  if (!inTimeRange(ms)) throw new ConfigError(`start must lie in the years 0000 to 9999 (got "${String(start)}")`);
  return ms;
}

/** "10mb", "512kb", "1048576" → bytes. */
export function parseSize(size: number | string): number {
  if (typeof size === 'number') {
    if (Number.isInteger(size) && size > 0) return size;
  } else {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|k|mb|m|gb|g)?\s*$/i.exec(size);
    if (m) {
      const unit = (m[2] ?? 'b').toLowerCase()[0]!;
      const factor = { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[unit]!;
      const bytes = Math.floor(Number(m[1]) * factor);
      if (bytes > 0) return bytes;
    }
  }
  throw new ConfigError(
    `max-body must be a positive size like 10mb, 512kb or a number of bytes (got "${String(size)}")`,
  );
}

function uploadSize(size: number | string): number {
  try {
    return parseSize(size);
  } catch {
    throw new ConfigError(
      `max-upload must be a positive size like 15mb, 512kb or a number of bytes (got "${String(size)}")`,
    );
  }
}

function checkLog(log: LogFormat | undefined): LogFormat {
  if (log === undefined) return 'none';
  if (!LOG_FORMATS.includes(log))
    throw new ConfigError(`log format must be one of ${LOG_FORMATS.join(', ')} (got "${String(log)}")`);
  return log;
}

function checkJournalLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_JOURNAL_LIMIT;
  if (!Number.isInteger(limit) || limit < 0 || limit > 1_000_000)
    throw new ConfigError(`journal limit must be a whole number from 0 to 1000000 (got ${limit})`);
  return limit;
}

/** A header name as people write it: `x-service-key` → `X-Service-Key` (the banner, the docs page, the dashboard). */
export function headerLabel(header: string): string {
  return header
    .split('-')
    .map((part) => (part ? part[0]!.toUpperCase() + part.slice(1) : part))
    .join('-');
}
