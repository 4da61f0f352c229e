/**
 * A client for the control API of a sandbox started elsewhere (another process, a CI service container):
 * the same methods as `startSandbox()` returns, each one HTTP call to /__sandbox.
 *
 *   import { createControlClient } from 'esign-sandbox';
 *   const sandbox = createControlClient(process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010');
 *   await sandbox.clock.advance('31m');
 *   const failures = await sandbox.requests({ status: '4xx' });
 */
import type {
  BundledScenario,
  DeliveryQuery,
  Health,
  Platform,
  RecipientActResult,
  ResetResult,
  SandboxControl,
  ScenarioSummary,
} from '../control/sandbox-control.js';
import type { ReceiverFaultView } from '../webhooks/receiver-fault-spec.js';
import { isScenarioFile, readScenarioText } from './scenario-files.js';
import type { Email, EmailFilter } from '../outbox/outbox.js';
import type { FaultView } from '../api-faults/registry.js';
import type { DeliveryView } from '../webhooks/dispatcher.js';
import { SandboxControlError } from '../control/sandbox-control.js';
import { type ClockState, monotonicNow } from '../core/clock.js';
import type { JournalEntry, JournalFilter } from '../journal/journal.js';
import type { Snapshot } from '../store/snapshot.js';

export interface ControlClientOptions {
  /** A fetch implementation (default: the global one), e.g. one that trusts a TLS sandbox's certificate. */
  fetch?: typeof fetch;
  /** Extra headers on every call. */
  headers?: Record<string, string>;
}

export interface ControlClient extends SandboxControl {
  /** The sandbox's base URL. */
  readonly url: string;
  /** Resolves once GET /__sandbox/health answers 200, polling until `timeoutMs` (default 10 s) runs out. */
  waitUntilReady(options?: { timeoutMs?: number; intervalMs?: number }): Promise<Health>;
}

export function createControlClient(url: string, options: ControlClientOptions = {}): ControlClient {
  const base = url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  async function call<T>(method: string, path: string, body?: unknown, query?: Record<string, unknown>): Promise<T> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, String(value));
    const qs = search.size ? `?${search}` : '';
    let res: Response;
    let text: string;
    try {
      res = await doFetch(`${base}/__sandbox${path}${qs}`, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      text = await res.text();
    } catch (error) {
      // No answer at all (refused, reset, DNS): status 0, and a message that says what to check.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new SandboxControlError(
        0,
        `Cannot reach the sandbox at ${base} (${method} /__sandbox${path}: ${why}); is it running? Start one with npx esign-sandbox`,
      );
    }
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: reported below as it is */
    }
    if (!res.ok) {
      const error = parsed as { message?: string; errors?: { path: string; message: string }[] } | undefined;
      throw new SandboxControlError(
        res.status,
        error?.message ?? `${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`,
        error?.errors,
      );
    }
    return parsed as T;
  }

  const act = (recipientKey: string, verb: string, body: Record<string, unknown> = {}) =>
    call<RecipientActResult>('POST', `/recipients/${encodeURIComponent(recipientKey)}/${verb}`, body);
  // The same rule as the engine's: a bare lowercase name is a bundled scenario, anything else is YAML.
  const loadText = (nameOrYaml: string) =>
    call<ScenarioSummary>(
      'POST',
      '/scenarios',
      /^[a-z0-9][a-z0-9._-]*$/.test(nameOrYaml.trim()) ? { name: nameOrYaml.trim() } : { yaml: nameOrYaml },
    );
  // The file is read here, on the test's machine: the control API never reads paths on the sandbox's.
  const loadFile = async (path: string) => loadText(await readScenarioText(path));
  const clockState = (method: string, path: string, body?: unknown) => call<ClockState>(method, `/clock${path}`, body);

  return {
    url: base,
    clock: {
      now: async () => new Date((await clockState('GET', '')).now),
      state: () => clockState('GET', ''),
      advance: (by) => clockState('POST', '/advance', { by }),
      freeze: () => clockState('POST', '/freeze'),
      unfreeze: () => clockState('POST', '/unfreeze'),
      set: (to) => clockState('POST', '/set', { to: to instanceof Date ? to.toISOString() : to }),
    },
    health: () => call<Health>('GET', '/health'),
    async reset(opts = {}) {
      const {
        status: _s,
        now: _n,
        ...result
      } = await call<ResetResult & { status: string; now: string }>(
        'POST',
        '/reset',
        opts.apiKey !== undefined ? { apiKey: opts.apiKey } : {},
      );
      return result as ResetResult;
    },
    createPlatform: (input = {}) => call<Platform>('POST', '/platforms', input),
    requests: async (filter: JournalFilter = {}) =>
      (await call<{ requests: JournalEntry[] }>('GET', '/requests', undefined, { ...filter })).requests,
    async clearRequests(opts = {}) {
      await call('DELETE', '/requests', undefined, { apiKey: opts.apiKey });
    },
    snapshot: () => call<Snapshot>('GET', '/state'),
    async restore(snapshot) {
      await call('PUT', '/state', snapshot);
    },
    recipients: {
      view: (key) => act(key, 'view'),
      sign: (key, opts = {}) => act(key, 'sign', opts.signature !== undefined ? { signature: opts.signature } : {}),
      approve: (key) => act(key, 'approve'),
      lock: (key) => act(key, 'lock'),
    },
    scenarios: {
      load: (nameOrYaml) => (isScenarioFile(nameOrYaml) ? loadFile(nameOrYaml) : loadText(nameOrYaml)),
      loadFile: (path) => loadFile(path),
      unload: (name) => call<ScenarioSummary>('DELETE', `/scenarios/${encodeURIComponent(name)}`),
      list: () => call<{ bundled: BundledScenario[]; active: ScenarioSummary[] }>('GET', '/scenarios'),
    },
    faults: {
      set: async (spec) =>
        (await call<{ ids: string[] }>('POST', '/faults', Array.isArray(spec) ? { faults: spec } : spec)).ids,
      async remove(id) {
        await call('DELETE', `/faults/${encodeURIComponent(id)}`);
      },
      clear: async () => (await call<{ removed: number }>('DELETE', '/faults')).removed,
      list: async () => (await call<{ faults: FaultView[] }>('GET', '/faults')).faults,
    },
    outbox: {
      list: async (filter: EmailFilter = {}) =>
        (await call<{ emails: Email[] }>('GET', '/emails', undefined, { ...filter })).emails,
      clear: async () => (await call<{ cleared: number }>('DELETE', '/emails')).cleared,
    },
    webhooks: {
      deliveries: async (filter: DeliveryQuery = {}) =>
        (await call<{ deliveries: DeliveryView[] }>('GET', '/webhook-deliveries', undefined, { ...filter })).deliveries,
      delivery: (id) => call<DeliveryView>('GET', `/webhook-deliveries/${encodeURIComponent(id)}`),
      redeliver: (id) => call<DeliveryView>('POST', `/webhook-deliveries/${encodeURIComponent(id)}/redeliver`),
      faults: {
        set: async (spec) =>
          (await call<{ ids: string[] }>('POST', '/webhook-faults', Array.isArray(spec) ? { faults: spec } : spec)).ids,
        async remove(id) {
          await call('DELETE', `/webhook-faults/${encodeURIComponent(id)}`);
        },
        clear: async () => (await call<{ removed: number }>('DELETE', '/webhook-faults')).removed,
        list: async () => (await call<{ faults: ReceiverFaultView[] }>('GET', '/webhook-faults')).faults,
      },
    },
    expireTokens: (token) => call<{ expired: number }>('POST', '/tokens/expire', token !== undefined ? { token } : {}),
    async waitUntilReady({ timeoutMs = 10_000, intervalMs = 100 } = {}) {
      // Wall time on purpose: this waits for a process to come up, it is not sandbox time.
      const deadline = monotonicNow() + timeoutMs;
      let last: unknown;
      for (;;) {
        try {
          return await call<Health>('GET', '/health');
        } catch (error) {
          last = error;
        }
        if (monotonicNow() >= deadline)
          throw new SandboxControlError(
            0,
            `The sandbox at ${base} was not ready after ${timeoutMs} ms: ${(last as Error).message}`,
          );
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    },
  };
}
