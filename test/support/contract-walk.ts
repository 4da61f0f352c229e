/**
 * Helpers to walk a contract through its lifecycle in tests: create-and-send with named recipients, act as them by
 * name through the control API, and read back events, emails and the inspected record.
 */
import type { BusEvent, ContractEvent } from '../../src/core/events.js';
import { CONTRACT_EVENT_TYPES } from '../../src/core/vocabulary.js';
import type { Answer, Auth, TestSandbox } from './helpers.js';

export interface RecipientSpec {
  name: string;
  action?: 'sign' | 'approve' | 'view' | 'lock';
  position?: number;
  customMessage?: string;
}

export interface Walk {
  contractKey: string;
  /** recipientKey by recipient name */
  keys: Record<string, string>;
  /** name by recipientKey */
  names: Record<string, string>;
  act(name: string, verb: string, body?: unknown): Promise<Answer>;
  inspect(): Promise<any>;
  status(): Promise<string>;
  /** State of each recipient, by name. */
  states(): Promise<Record<string, string>>;
  /** Contract events since the walk began, as `type status [recipient]` lines. */
  events(): string[];
  /** Names of recipients notified (recipient.notified) since the walk began, in order. */
  notified(): string[];
  /** Forget events recorded so far. */
  clearEvents(): void;
  /** Raw bus events since the walk began. */
  raw: BusEvent[];
}

export function isContractEvent(e: BusEvent): e is ContractEvent {
  return (CONTRACT_EVENT_TYPES as readonly string[]).includes(e.type);
}

export function email(name: string): string {
  return `${name.toLowerCase().replace(/[^a-z0-9]/g, '') || 'someone'}@example.com`;
}

/**
 * Creates a contract as a client would (`POST /api/contract`, `{ data: { action: 'create', … } }`): a name (its value
 * is then a short paragraph) or the contract's own fields, its recipients (sent to them at once), and any other field
 * of the request (clientKey, userKey). Answers what the sandbox answered, for the test to check.
 */
export function createContract(
  t: Pick<TestSandbox, 'post'>,
  auth: Auth,
  contract: string | Record<string, unknown>,
  recipients?: Record<string, unknown>[],
  fields: Record<string, unknown> = {},
): Promise<Answer> {
  const shape = typeof contract === 'string' ? { name: contract, value: '<p>Terms</p>' } : contract;
  const data = { action: 'create', ...fields, contract: shape, ...(recipients ? { recipients } : {}) };
  return t.post('/api/contract', { data }, auth);
}

export async function createAndSend(
  t: TestSandbox,
  recipients: RecipientSpec[],
  auth?: Auth,
  name = 'Lease',
): Promise<Walk> {
  const raw: BusEvent[] = [];
  t.sandbox.services.bus.onAny((e) => raw.push(e));
  const a = auth ?? (await t.demoAuth());
  const res = await createContract(
    t,
    a,
    name,
    recipients.map((r) => ({
      fullname: r.name,
      email: email(r.name),
      ...(r.action ? { action: r.action } : {}),
      ...(r.position !== undefined ? { position: r.position } : {}),
      ...(r.customMessage !== undefined ? { customMessage: r.customMessage } : {}),
    })),
  );
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
  const contractKey = res.body.contract.contractKey as string;
  const inspect = async () => (await t.control(`/contracts/${contractKey}`)).body;
  const keys: Record<string, string> = {};
  const names: Record<string, string> = {};
  for (const r of (await inspect()).recipients) {
    keys[r.fullname] = r.recipientKey;
    names[r.recipientKey] = r.fullname;
  }
  const mine = () =>
    raw.filter((e) =>
      isContractEvent(e)
        ? e.data.contractKey === contractKey
        : e.type === 'recipient.notified' && e.contractKey === contractKey,
    );
  return {
    contractKey,
    keys,
    names,
    raw,
    act: (who, verb, body) => t.control(`/recipients/${keys[who] ?? who}/${verb}`, body ?? {}),
    inspect,
    status: async () => (await inspect()).status,
    states: async () => Object.fromEntries((await inspect()).recipients.map((r: any) => [r.fullname, r.state])),
    events: () =>
      mine().flatMap((e) =>
        isContractEvent(e)
          ? [
              `${e.type} ${e.data.status}${e.data.recipientKey ? ` ${names[e.data.recipientKey] ?? e.data.recipientKey}` : ''}`,
            ]
          : [],
      ),
    notified: () =>
      mine().flatMap((e) => (e.type === 'recipient.notified' ? [names[e.recipientKey] ?? e.recipientKey] : [])),
    clearEvents: () => void raw.splice(0),
  };
}
