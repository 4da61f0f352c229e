/**
 * undici's global dispatcher, redirected for the intercepted hosts. undici keeps it on `globalThis` under a symbol
 * it names for this purpose (`Symbol.for('undici.globalDispatcher.1')`, what its `setGlobalDispatcher` writes), and
 * both Node's own fetch and the undici package send through it. The first call of Node's fetch creates it; a
 * `data:` URL does so without touching the network, before the call returns.
 */
import { type SandboxTarget, redirectedUrl } from './hosts.js';

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/** What undici hands its dispatcher: the parts read here, the rest passed along untouched. */
interface DispatchOptions {
  origin?: string | URL;
  path: string;
  headers?: unknown;
  [key: string]: unknown;
}

interface Dispatcher {
  dispatch(options: DispatchOptions, handler: unknown): boolean;
}

type Globals = Record<symbol, Dispatcher | undefined>;

export function redirectUndici(
  target: SandboxTarget,
  hosts: ReadonlySet<string>,
  realFetch: typeof fetch,
): { dispose(): void } {
  const globals = globalThis as unknown as Globals;
  // Node's fetch loads undici, which sets its dispatcher, within the call: no await needed.
  if (!globals[GLOBAL_DISPATCHER]) void realFetch('data:,').then((answer) => answer.arrayBuffer());
  const inner = globals[GLOBAL_DISPATCHER];
  if (!inner) return { dispose() {} }; // a runtime without undici's dispatcher: nothing to redirect
  const dispatch = (options: DispatchOptions, handler: unknown): boolean => {
    const origin = options.origin === undefined ? undefined : new URL(String(options.origin));
    if (!origin || !hosts.has(origin.hostname.toLowerCase())) return inner.dispatch(options, handler);
    const to = new URL(redirectedUrl(new URL(options.path, origin), target));
    return inner.dispatch(
      { ...options, origin: to.origin, path: `${to.pathname}${to.search}`, headers: withoutHost(options.headers) },
      handler,
    );
  };
  // Every other member (close, destroy, events) is the real dispatcher's.
  const redirecting = new Proxy(inner, {
    get: (object, key) => {
      if (key === 'dispatch') return dispatch;
      const value = Reflect.get(object, key, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
  globals[GLOBAL_DISPATCHER] = redirecting;
  return {
    dispose() {
      if (globals[GLOBAL_DISPATCHER] === redirecting) globals[GLOBAL_DISPATCHER] = inner;
    },
  };
}

/** undici's request headers (an object, a flat [name, value, …] list, or pairs) without a Host of the service's. */
function withoutHost(headers: unknown): unknown {
  if (headers == null || typeof headers !== 'object') return headers;
  const isHost = (name: unknown) => String(name).toLowerCase() === 'host';
  if (Array.isArray(headers)) {
    if (headers.every((item) => Array.isArray(item))) return headers.filter(([name]) => !isHost(name));
    const kept: unknown[] = [];
    for (let i = 0; i < headers.length; i += 2) if (!isHost(headers[i])) kept.push(headers[i], headers[i + 1]);
    return kept;
  }
  if (Symbol.iterator in headers) return [...(headers as Iterable<[string, string]>)].filter(([n]) => !isHost(n));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !isHost(name)));
}
