/**
 * The rig of the receiver-fault tests (test/webhooks/webhook-faults.test.ts, receiver-fault-management.test.ts):
 * a sandbox started with startSandbox() on a real port, driven through its public API, faults added through the
 * control operations the library calls (`running.sandbox.control.webhooks`, synchronous), and a real receiver
 * verifying with `standardwebhooks` unmodified.
 */
import { afterEach } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { type ProductionReceiver, productionReceiver, publicApi } from './webhook-support.js';

export const START = '2026-03-01T09:00:00.000Z';

/** Registers the clean-up after each test; `rig.setUp()` starts a sandbox with a receiver's webhook. */
export function receiverFaultRig() {
  let current: RunningSandbox | undefined;
  const receivers: ProductionReceiver[] = [];
  afterEach(async () => {
    await current?.close();
    current = undefined;
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  return {
    /** The sandbox of the running test. */
    get running(): RunningSandbox {
      return current!;
    },
    /** Closes the sandbox now (a test that starts a second one). */
    async closeRunning(): Promise<void> {
      await current?.close();
      current = undefined;
    },
    async setUp(flags: Parameters<ReturnType<typeof publicApi>['addWebhook']>[1] = { created: true }) {
      const running = await startSandbox({ clock: 'frozen', start: START });
      current = running;
      const receiver = await productionReceiver();
      receivers.push(receiver);
      const api = publicApi(running);
      const { webhookKey } = await api.addWebhook(receiver, flags);
      const webhooks = running.sandbox.control.webhooks;
      /** Lets the attempts started by the last API call finish (the clock stands still). */
      const settle = () => running.clock.advance('0s');
      return { running, receiver, api, webhookKey, webhooks, settle };
    },
  };
}
