/**
 * esign-sandbox as a library: start sandboxes from test code, each on its own port, with no shared state.
 *
 *   import { startSandbox } from 'esign-sandbox';
 *   const sandbox = await startSandbox({ clock: 'frozen' });
 *   // … point your client at sandbox.url …
 *   await sandbox.clock.advance('31m');
 *   await sandbox.close();
 */
import { type ClockState, parseDuration } from './clock.js';
import type { SandboxOptions } from './config.js';
import { type Sandbox, createSandbox } from './sandbox.js';

export type { SandboxOptions } from './config.js';
export type { ClockState } from './clock.js';
export type { Sandbox } from './sandbox.js';
export { createSandbox } from './sandbox.js';
export { ConfigError } from './config.js';
export { VERSION } from './version.js';
export { createWebhookReceiver } from './testing/webhook-receiver.js';
export type { FailureMode, ReceivedDelivery, WebhookReceiver, WebhookReceiverOptions } from './testing/webhook-receiver.js';
export type { DeliveryFilter, DeliveryView, OutageSpec } from './webhooks/dispatcher.js';

export interface RunningSandbox {
  /** Base URL, e.g. http://127.0.0.1:53211 (API under /api, control under /__sandbox). */
  url: string;
  port: number;
  /** The default platform's credentials (from the fixtures, or options.apiKey/secret). */
  apiKey: string | undefined;
  secret: string | undefined;
  /** The default client's key. */
  clientKey: string | undefined;
  clock: {
    now(): Date;
    state(): ClockState;
    advance(by: string | number): Promise<void>;
    freeze(): void;
    unfreeze(): void;
    set(to: string | number | Date): Promise<void>;
  };
  reset(): Promise<void>;
  close(): Promise<void>;
  /** The wired sandbox, for advanced use (its Hono app answers `app.request()` in-process). */
  sandbox: Sandbox;
}

/** Starts a sandbox listening on `options.port` (default 0: a free port). */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await createSandbox(options, { port: 0 });
  const url = await sandbox.listen();
  const { clock } = sandbox.services;
  return {
    url,
    port: Number(new URL(url).port),
    apiKey: sandbox.defaults.apiKey,
    secret: sandbox.defaults.secret,
    clientKey: sandbox.defaults.clientKey,
    clock: {
      now: () => new Date(clock.now()),
      state: () => clock.state(),
      advance: async (by) => {
        const ms = parseDuration(by);
        if (ms === undefined) throw new RangeError(`Cannot read duration "${by}"`);
        await clock.advance(ms);
      },
      freeze: () => clock.freeze(),
      unfreeze: () => clock.unfreeze(),
      set: async (to) => clock.set(to instanceof Date ? to.getTime() : typeof to === 'number' ? to : Date.parse(to)),
    },
    reset: () => sandbox.reset(),
    close: () => sandbox.close(),
    sandbox,
  };
}
