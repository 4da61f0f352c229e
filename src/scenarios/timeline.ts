/**
 * Timeline steps (docs/scenarios.md): one-shot actions at sandbox times. Each step kind maps, through the table
 * below, to one control operation (acting, faults, outages) or one domain operation (tokens, settings, contracts),
 * so a step does exactly what the same call through the control API or /api would do, with the scenario as its
 * cause. Each returns what it did, for the scenario's log; a failure throws.
 */
import { ApiError, quote } from '../core/errors.js';
import { durationMs } from '../core/duration.js';
import { later } from '../core/time-range.js';
import { isoTime } from '../core/time-format.js';
import type { Control } from '../control/control.js';
import { updateNotifications } from '../domain/clients.js';
import { systemContext } from '../domain/context.js';
import type { Services } from '../store/services.js';
import { sendToRecipients } from '../domain/sending.js';
import { expireTokens, revokeTokens } from '../domain/tokens.js';
import { seedContract } from '../fixtures/seed.js';
import type { ClientRecord, ContractRecord, RecipientRecord } from '../store/records.js';
import type { ActiveScenario } from './active.js';
import { matches } from './matching.js';
import { STEP_KINDS, type TimelineStep } from './schema.js';
import type { RecipientRole } from '../core/vocabulary.js';

type StepKind = (typeof STEP_KINDS)[number];

interface StepContext {
  active: ActiveScenario;
  control: Control;
  services: Services;
  cause: string;
  now: number;
  /** Fault ids are per sandbox: a scenario's own ids are prefixed with its name. */
  seed: number | undefined;
}

type StepRunner<K extends StepKind> = (value: NonNullable<TimelineStep[K]>, step: StepContext) => string;

const STEPS: { [K in StepKind]: StepRunner<K> } = {
  expireTokens: (which, { services, cause, active }) =>
    `${expireTokens(systemContext(services, cause, active.tenant?.platformId), which, active.tenant?.platformId)} token(s) expired`,
  revokeTokens: (which, { services, cause, active }) =>
    `${revokeTokens(systemContext(services, cause, active.tenant?.platformId), which, active.tenant?.platformId)} token(s) revoked`,
  webhookOutage(o, step) {
    const { active, control, cause, now } = step;
    const client = o.client !== undefined ? clientOf(step, o.client) : undefined;
    const until = o.for !== undefined ? later(now, durationMs(o.for)) : undefined;
    const platformId = client?.platformId ?? active.tenant?.platformId;
    const id = control.webhooks.startOutage({
      ...(o.webhook !== undefined ? { webhookKey: o.webhook } : {}),
      ...(o.url !== undefined ? { url: o.url } : {}),
      ...(client ? { clientKey: client.clientKey } : {}),
      ...(platformId !== undefined ? { platformId } : {}),
      mode: o.refuse
        ? { refuse: true }
        : { status: o.status ?? 503, ...(o.retryAfter !== undefined ? { retryAfter: o.retryAfter } : {}) },
      ...(until !== undefined ? { until } : {}),
      cause,
    });
    active.outages.set(o.id ?? `outage-${++active.outageCount}`, id);
    active.changed();
    const target = o.webhook ?? o.url ?? (client ? `client ${client.clientKey}` : 'every webhook');
    return `${target} down (${o.refuse ? 'connection refused' : `status ${o.status ?? 503}`})${until !== undefined ? ` until ${isoTime(until)}` : ''}`;
  },
  endWebhookOutage(which, { active, control }) {
    const ids = which === true ? [...active.outages.keys()] : [which];
    for (const id of ids) {
      const dispatcherId = active.outages.get(id);
      if (dispatcherId === undefined) throw new Error(`no outage "${id}" started by this scenario`);
      control.webhooks.endOutage(dispatcherId);
      active.outages.delete(id);
    }
    active.changed();
    return `${ids.length} outage(s) ended`;
  },
  settings({ client: clientKey, notification }, step) {
    const target = clientOf(step, clientKey);
    const client = updateNotifications(
      systemContext(step.services, step.cause, target.platformId),
      target,
      notification,
    );
    return `email notifications of ${client.clientKey}: ${JSON.stringify(client.notification)}`;
  },
  act({ match, verb }, { services, control, cause, active }) {
    const done: string[] = [];
    const refused: string[] = [];
    for (const { recipient, contract } of notifiedRecipients(services)) {
      if (!active.covers(recipient.platformId) || !matches(match, recipient, contract)) continue;
      const v: RecipientRole = verb === 'act' ? recipient.action : verb;
      const who = recipient.email ?? recipient.recipientKey;
      try {
        control.recipients.act(recipient.recipientKey, v, {}, cause);
        done.push(`${who} ${v}`);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        refused.push(`${who} cannot ${v}: ${error.message}`);
      }
    }
    if (done.length === 0) throw new Error(refused.length ? refused.join('; ') : 'no notified recipient matched');
    return [...done, ...refused].join(', ');
  },
  createContract({ client: clientKey, ...spec }, step) {
    if (spec.contractKey !== undefined && step.services.store.contracts.has(spec.contractKey)) {
      throw ApiError.conflict(`contractKey ${quote(spec.contractKey)} already exists`);
    }
    const client = clientOf(step, clientKey);
    const contract = seedContract(systemContext(step.services, step.cause, client.platformId), client, spec);
    return `contract "${spec.name}" ${contract.contractKey}${spec.send ? ' created and sent' : ' created'}`;
  },
  sendContract({ contract: keyOrName }, { services, cause, active }) {
    const contract = contractOf(services, keyOrName, active);
    // As recipient `send` with no changes does: the contract goes to its recipients again.
    const client = services.store.clients.get(contract.clientKey)!;
    sendToRecipients({ ...systemContext(services, cause, contract.platformId), client }, contract, []);
    return `contract ${contract.contractKey} sent`;
  },
  addFaults(faults, { active, control, seed }) {
    const ids = faults.map(
      (f) => control.faults.add(active.ownFault(f), active.cause(), seed, active.tenant?.platformId)[0]!,
    );
    return `fault(s) ${ids.join(', ')} set`;
  },
  clearFaults: (_value, { active, control }) =>
    `${control.faults.clear(active.cause(), active.tenant?.platformId)} fault(s) removed`,
  addReceiverFaults(faults, { active, control, seed }) {
    const ids = control.webhooks.faults.add(
      faults.map((f) => active.ownFault(f)),
      active.cause(),
      seed,
      active.tenant?.platformId,
    );
    return `receiver fault(s) ${ids.join(', ')} set`;
  },
  clearReceiverFaults: (_value, { active, control }) =>
    `${control.webhooks.faults.clear(active.cause(), active.tenant?.platformId)} receiver fault(s) removed`,
};

/**
 * Runs one step now and records the outcome in the scenario's log; `reaction` names what a triggered step reacts
 * to. Returns whether it was done.
 */
export function runStep(
  active: ActiveScenario,
  { services, control }: { services: Services; control: Control },
  step: TimelineStep,
  index: number,
  seed: number | undefined,
  now: number,
  reaction?: string,
): boolean {
  const cause = active.cause(stepId(step, index));
  const kind = STEP_KINDS.find((k) => step[k] !== undefined)!;
  const on = reaction !== undefined ? ` (reacting to ${reaction})` : '';
  try {
    const run = STEPS[kind] as StepRunner<StepKind>;
    const what = run(step[kind] as never, { active, control, services, cause, now, seed });
    active.record(cause, `${kind}: ${what}${on}`, 'done');
    return true;
  } catch (error) {
    active.record(cause, `${kind}${on}`, 'failed', (error as Error).message);
    return false;
  }
}

/** A step's id: its own, or `step-<n>` by its place in the file. */
export function stepId(step: TimelineStep, index: number): string {
  return step.id ?? `step-${index + 1}`;
}

/**
 * The named client, or the default client: the sandbox's (the first of the fixtures), or for a tenant's scenario
 * the tenant's first. A tenant's scenario reaches only its tenant's clients.
 */
function clientOf({ services, control, active }: StepContext, clientKey: string | undefined): ClientRecord {
  const { tenant } = active;
  const found =
    clientKey !== undefined
      ? services.store.clients.get(clientKey)
      : tenant
        ? services.store.clients.where('platform', tenant.platformId)[0]
        : control.state.defaultClient();
  const client = found && active.covers(found.platformId) ? found : undefined;
  if (!client)
    throw new Error(
      clientKey !== undefined ? `no client "${clientKey}"` : 'the sandbox has no default client; name one with client:',
    );
  return client;
}

/** A contract by key, or else the first with exactly this name (of the scenario's tenant, for a tenant's). */
function contractOf({ store }: Services, keyOrName: string, active: ActiveScenario): ContractRecord {
  const byKey = store.contracts.get(keyOrName);
  const contract =
    (byKey && active.covers(byKey.platformId) ? byKey : undefined) ??
    store.contracts.all().find((c) => c.name === keyOrName && active.covers(c.platformId));
  if (!contract) throw new Error(`no contract with key or name "${keyOrName}"`);
  return contract;
}

/** Recipients that have been notified (or gone further), each with its contract: those an `act` step may move. */
function notifiedRecipients({ store }: Services): { recipient: RecipientRecord; contract: ContractRecord }[] {
  const out: { recipient: RecipientRecord; contract: ContractRecord }[] = [];
  for (const recipient of store.recipients.all()) {
    const contract = recipient.state === 'waiting' ? undefined : store.contracts.get(recipient.contractKey);
    if (contract) out.push({ recipient, contract });
  }
  return out;
}
