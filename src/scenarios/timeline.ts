/**
 * Timeline steps (docs/scenarios.md): one-shot actions at sandbox times. Each step kind maps to one control
 * service operation through the table below, so a step does exactly what the same control call would do, with the
 * scenario as its cause. Each returns what it did, for the scenario's log; a failure throws.
 */
import { ApiError } from '../core/errors.js';
import { durationMs } from '../core/clock.js';
import { isoTime } from '../core/time-format.js';
import type { ControlService } from '../control/service.js';
import type { Verb } from '../domain/lifecycle-rules.js';
import type { ClientRecord, ContractRecord } from '../store/records.js';
import type { ActiveScenario } from './active.js';
import { matches } from './rules.js';
import { STEP_KINDS, type TimelineStep } from './schema.js';

type StepKind = (typeof STEP_KINDS)[number];

interface StepContext {
  active: ActiveScenario;
  control: ControlService;
  cause: string;
  now: number;
  /** Fault ids are per sandbox: a scenario's own ids are prefixed with its name. */
  seed: number | undefined;
}

type StepRunner<K extends StepKind> = (value: NonNullable<TimelineStep[K]>, step: StepContext) => string;

const STEPS: { [K in StepKind]: StepRunner<K> } = {
  expireTokens: (which, { control, cause }) => `${control.expireTokensOf(which, cause)} token(s) expired`,
  revokeTokens: (which, { control, cause }) => `${control.revokeTokensOf(which, cause)} token(s) revoked`,
  webhookOutage(o, { active, control, cause, now }) {
    const client = o.client !== undefined ? clientOf(control, o.client) : undefined;
    const until = o.for !== undefined ? now + durationMs(o.for) : undefined;
    const id = control.startOutage({
      ...(o.webhook !== undefined ? { webhookKey: o.webhook } : {}),
      ...(o.url !== undefined ? { url: o.url } : {}),
      ...(client ? { clientKey: client.clientKey, platformId: client.platformId } : {}),
      mode: o.refuse
        ? { refuse: true }
        : { status: o.status ?? 503, ...(o.retryAfter !== undefined ? { retryAfter: o.retryAfter } : {}) },
      ...(until !== undefined ? { until } : {}),
      cause,
    });
    active.outages.set(o.id ?? `outage-${++active.outageCount}`, id);
    const target = o.webhook ?? o.url ?? (client ? `client ${client.clientKey}` : 'every webhook');
    return `${target} down (${o.refuse ? 'connection refused' : `status ${o.status ?? 503}`})${until !== undefined ? ` until ${isoTime(until)}` : ''}`;
  },
  endWebhookOutage(which, { active, control }) {
    const ids = which === true ? [...active.outages.keys()] : [which];
    for (const id of ids) {
      const dispatcherId = active.outages.get(id);
      if (dispatcherId === undefined) throw new Error(`no outage "${id}" started by this scenario`);
      control.endOutage(dispatcherId);
      active.outages.delete(id);
    }
    return `${ids.length} outage(s) ended`;
  },
  settings({ client: clientKey, notification }, { control, cause }) {
    const client = control.updateNotifications(clientOf(control, clientKey), notification, cause);
    return `email notifications of ${client.clientKey}: ${JSON.stringify(client.notification)}`;
  },
  act({ match, verb }, { control, cause }) {
    const done: string[] = [];
    const refused: string[] = [];
    for (const { recipient, contract } of control.notifiedRecipients()) {
      if (!matches(match, recipient, contract)) continue;
      const v: Verb = verb === 'act' ? recipient.action : verb;
      const who = recipient.email ?? recipient.recipientKey;
      try {
        control.act(recipient.recipientKey, v, {}, cause);
        done.push(`${who} ${v}`);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        refused.push(`${who} cannot ${v}: ${error.message}`);
      }
    }
    if (done.length === 0) throw new Error(refused.length ? refused.join('; ') : 'no notified recipient matched');
    return [...done, ...refused].join(', ');
  },
  createContract({ client: clientKey, ...spec }, { control, cause }) {
    const contract = control.createContract(clientOf(control, clientKey), spec, cause);
    return `contract "${spec.name}" ${contract.contractKey}${spec.send ? ' created and sent' : ' created'}`;
  },
  sendContract({ contract: keyOrName }, { control, cause }) {
    const contract = contractOf(control, keyOrName);
    control.sendContract(contract, cause);
    return `contract ${contract.contractKey} sent`;
  },
  addFaults(faults, { active, control, seed }) {
    const ids = faults.map(
      (f) =>
        control.addFaults(
          { ...f, ...(f.id !== undefined ? { id: `${active.name}:${f.id}` } : {}) },
          active.cause(),
          seed,
        )[0]!,
    );
    return `fault(s) ${ids.join(', ')} set`;
  },
  clearFaults: (_value, { active, control }) => `${control.clearFaults(active.cause())} fault(s) removed`,
  addReceiverFaults(faults, { active, control, seed }) {
    const ids = control.addReceiverFaults(
      faults.map((f) => ({ ...f, ...(f.id !== undefined ? { id: `${active.name}:${f.id}` } : {}) })),
      active.cause(),
      seed,
    );
    return `receiver fault(s) ${ids.join(', ')} set`;
  },
  clearReceiverFaults: (_value, { active, control }) =>
    `${control.clearReceiverFaults(active.cause())} receiver fault(s) removed`,
};

/** Runs one step now and records the outcome in the scenario's log. */
export function runStep(
  active: ActiveScenario,
  control: ControlService,
  step: TimelineStep,
  index: number,
  seed: number | undefined,
  now: number,
): void {
  const cause = active.cause(step.id ?? `step-${index + 1}`);
  const kind = STEP_KINDS.find((k) => step[k] !== undefined)!;
  try {
    const run = STEPS[kind] as StepRunner<StepKind>;
    const what = run(step[kind] as never, { active, control, cause, now, seed });
    active.record(cause, `${kind}: ${what}`, 'done');
  } catch (error) {
    active.record(cause, kind, 'failed', (error as Error).message);
  }
}

/** When a step is due: a duration after the scenario was loaded, or an absolute time. */
export function momentOf(at: string | number, loadedAt: number): number {
  if (typeof at === 'string' && /\d{4}-\d{2}-\d{2}T/.test(at)) return Date.parse(at);
  return loadedAt + durationMs(at);
}

function clientOf(control: ControlService, clientKey: string | undefined): ClientRecord {
  const client = clientKey !== undefined ? control.client(clientKey) : control.defaultClient();
  if (!client)
    throw new Error(
      clientKey !== undefined ? `no client "${clientKey}"` : 'the sandbox has no default client; name one with client:',
    );
  return client;
}

function contractOf(control: ControlService, keyOrName: string): ContractRecord {
  const contract = control.contractRecord(keyOrName);
  if (!contract) throw new Error(`no contract with key or name "${keyOrName}"`);
  return contract;
}
