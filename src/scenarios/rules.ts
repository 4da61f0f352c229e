/**
 * Recipient rules (docs/scenarios.md): when a recipient is notified, the first matching rule of the active
 * scenarios (in load order) plans its views and actions on the sandbox clock. Acting goes through the control
 * operation `recipients.act`, which runs the same lifecycle operation (`actAsRecipient`) as every other way a
 * recipient acts (docs/architecture.md, "The path of one signing").
 */
import { ApiError } from '../core/errors.js';
import { isoTime } from '../core/time-format.js';
import type { Control } from '../control/control.js';
import type { Services } from '../store/services.js';
import type { ContractRecord, RecipientRecord } from '../store/records.js';
import { matches } from './matching.js';
import type { ActiveScenario } from './active.js';
import { durationMs } from '../core/duration.js';
import { later } from '../core/time-range.js';
import { TIMER_RANK } from '../core/timer-order.js';
import type { RecipientRule } from './schema.js';
import type { RecipientRole } from '../core/vocabulary.js';

/** Applies the first matching rule to a recipient just notified. Returns whether a rule took it. */
export function applyRules(
  active: ActiveScenario,
  recipient: RecipientRecord,
  contract: ContractRecord,
  now: number,
): boolean {
  const rules = active.scenario.recipients ?? [];
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (!matches(rule.match, recipient, contract)) continue;
    const plan = planFor(rule, recipient.action);
    if (!rule.never && plan.length === 0) continue;
    const { recipientKey } = recipient;
    if (active.handled.has(recipientKey)) return true;
    active.handled.add(recipientKey);
    active.changed();
    const cause = active.cause(rule.id ?? `rule-${i + 1}`);
    const who = `${recipient.email ?? recipientKey} (${recipient.action}) on "${contract.name}"`;
    if (rule.never) {
      active.record(cause, `${who}: never acts`, 'done', undefined, recipient.platformId);
      return true;
    }
    for (const { verb, ms } of plan) {
      const at = later(now, ms);
      active.schedule(at, { do: 'act', cause, recipientKey, verb }, TIMER_RANK.recipientAct, recipient.platformId);
      active.record(cause, `${who}: ${verb} at ${isoTime(at)}`, 'scheduled', undefined, recipient.platformId);
    }
    return true;
  }
  return false;
}

/** A rule's planned act, at its time: through the control operation, as every recipient action. */
export function act(
  active: ActiveScenario,
  { services, control }: { services: Services; control: Control },
  cause: string,
  recipientKey: string,
  verb: RecipientRole,
): void {
  const recipient = services.store.recipients.get(recipientKey);
  const who = recipient?.email ?? recipientKey;
  const on = recipient?.platformId;
  // Acting implies viewing, so a view planned after the signature has nothing left to do.
  if (verb === 'view' && recipient && recipient.seenAt !== undefined) {
    active.record(cause, `${who}: view`, 'skipped', 'already seen', on);
    return;
  }
  try {
    control.recipients.act(recipientKey, verb, {}, cause);
    active.record(cause, `${who}: ${verb}`, 'done', undefined, on);
  } catch (error) {
    const outcome = error instanceof ApiError ? 'skipped' : 'failed';
    active.record(cause, `${who}: ${verb}`, outcome, (error as Error).message, on);
  }
}

/** Verbs a rule makes a recipient of this role perform, with their delays, views first. */
function planFor(rule: RecipientRule, role: RecipientRole): { verb: RecipientRole; ms: number }[] {
  const plan: { verb: RecipientRole; ms: number }[] = [];
  if (rule.view !== undefined) plan.push({ verb: 'view', ms: durationMs(rule.view) });
  const own = rule.act ?? rule[role];
  if (own !== undefined && role !== 'view') plan.push({ verb: role, ms: durationMs(own) });
  if (role === 'view' && rule.view === undefined && rule.act !== undefined)
    plan.push({ verb: 'view', ms: durationMs(rule.act) });
  return plan;
}
