/** Shared set-up for the bundled-scenario tests: a frozen sandbox, the scenario loaded, clock and inspection shortcuts. */
import type { SandboxOptions } from '../../src/config/options.js';
import type { BusEvent } from '../../src/core/events.js';
import type { ScenarioSummary } from '../../src/control/sandbox-control.js';
import { FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';

export interface Play {
  t: TestSandbox;
  summary: ScenarioSummary;
  events: BusEvent[];
  advance(by: string): Promise<void>;
  /** The control API's view of a contract, found by its name. */
  contract(name: string): Promise<any>;
  emails(query?: string): Promise<any[]>;
  deliveries(): Promise<any[]>;
  now(): string;
  close(): Promise<void>;
}

export async function play(
  scenario: string,
  options: SandboxOptions = FROZEN,
  before?: (t: TestSandbox) => Promise<void>,
): Promise<Play> {
  const t = await testSandbox(options);
  const events: BusEvent[] = [];
  t.sandbox.services.bus.onAny((e) => events.push(e));
  await before?.(t);
  const summary = await t.sandbox.scenarios.load(scenario);
  return {
    t,
    summary,
    events,
    async advance(by) {
      const res = await t.control('/clock/advance', { by });
      if (res.status !== 200) throw new Error(`advance: ${res.status} ${JSON.stringify(res.body)}`);
    },
    async contract(name) {
      const record = t.sandbox.services.store.contracts.all().find((c) => c.name === name);
      if (!record) throw new Error(`no contract named ${name}`);
      return (await t.control(`/contracts/${record.contractKey}`)).body;
    },
    async emails(query = '') {
      return (await t.control(`/emails${query}`)).body.emails;
    },
    async deliveries() {
      return (await t.control('/webhook-deliveries')).body.deliveries;
    },
    now: () => new Date(t.sandbox.services.clocks.sandbox.now()).toISOString(),
    close: () => t.close(),
  };
}

/** The contract events of a run, as `type recipient-email` lines, for order assertions. */
export function contractEvents(p: Play, contractKey?: string): string[] {
  const { store } = p.t.sandbox.services;
  return p.events
    .filter(
      (e): e is Extract<BusEvent, { data: unknown }> =>
        e.type.startsWith('contract.') && (!contractKey || (e as any).data.contractKey === contractKey),
    )
    .map((e: any) => `${e.type}${e.data.recipientKey ? ` ${store.recipients.get(e.data.recipientKey)?.email}` : ''}`);
}
