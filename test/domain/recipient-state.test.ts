import { describe, expect, it } from 'vitest';
import { RECIPIENT_RULES, advanceStatus } from '../../src/domain/lifecycle-rules.js';
import type { ContractStatus } from '../../src/core/vocabulary.js';
import { createAndSend } from '../support/contract-walk.js';
import { sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();

type Role = 'sign' | 'approve' | 'lock' | 'view';
type Expect =
  | 'seen'
  | 'signed'
  | 'approved'
  | 'locked'
  | 'viewed'
  | 'not-notified'
  | 'already-viewed'
  | 'already-acted'
  | 'wrong-role';

/**
 * The state table of docs/lifecycle.md, row by row: a recipient of this role, in this state, tries each verb.
 * A state name means the action succeeds and the recipient ends in that state; anything else is the 409 reason.
 */
const TABLE: [Role, string, Record<'view' | 'sign' | 'approve' | 'lock', Expect>][] = [
  ['sign', 'waiting', { view: 'not-notified', sign: 'not-notified', approve: 'wrong-role', lock: 'wrong-role' }],
  ['sign', 'notified', { view: 'seen', sign: 'signed', approve: 'wrong-role', lock: 'wrong-role' }],
  ['sign', 'seen', { view: 'already-viewed', sign: 'signed', approve: 'wrong-role', lock: 'wrong-role' }],
  ['sign', 'signed', { view: 'already-viewed', sign: 'already-acted', approve: 'wrong-role', lock: 'wrong-role' }],
  ['approve', 'waiting', { view: 'not-notified', sign: 'wrong-role', approve: 'not-notified', lock: 'wrong-role' }],
  ['approve', 'notified', { view: 'seen', sign: 'wrong-role', approve: 'approved', lock: 'wrong-role' }],
  ['approve', 'seen', { view: 'already-viewed', sign: 'wrong-role', approve: 'approved', lock: 'wrong-role' }],
  ['approve', 'approved', { view: 'already-viewed', sign: 'wrong-role', approve: 'already-acted', lock: 'wrong-role' }],
  ['lock', 'waiting', { view: 'not-notified', sign: 'wrong-role', approve: 'wrong-role', lock: 'not-notified' }],
  ['lock', 'notified', { view: 'seen', sign: 'wrong-role', approve: 'wrong-role', lock: 'locked' }],
  ['lock', 'seen', { view: 'already-viewed', sign: 'wrong-role', approve: 'wrong-role', lock: 'locked' }],
  ['lock', 'locked', { view: 'already-viewed', sign: 'wrong-role', approve: 'wrong-role', lock: 'already-acted' }],
  ['view', 'waiting', { view: 'not-notified', sign: 'wrong-role', approve: 'wrong-role', lock: 'wrong-role' }],
  ['view', 'notified', { view: 'viewed', sign: 'wrong-role', approve: 'wrong-role', lock: 'wrong-role' }],
  ['view', 'viewed', { view: 'already-acted', sign: 'wrong-role', approve: 'wrong-role', lock: 'wrong-role' }],
];

const CASES = TABLE.flatMap(([role, state, verbs]) =>
  Object.entries(verbs).map(([verb, expected]) => [role, state, verb, expected] as const),
);

const REASON: Record<string, (role: Role, verb: string, key: string) => string> = {
  // The target waits at position 2 behind a signer at position 1.
  'not-notified': (_role, verb) => `Recipient at position 2 cannot ${verb} before position 1 is done`,
  'already-viewed': (_role, _verb, key) =>
    `Recipient ${key} has already viewed the contract; each recipient views once`,
  'already-acted': (role, _verb, key) =>
    `Recipient ${key} has already ${{ sign: 'signed', approve: 'approved', lock: 'locked', view: 'viewed' }[role]} the contract`,
  'wrong-role': (role, verb, key) =>
    role === 'view'
      ? `Recipient ${key} has the role "view"; it can only view, not ${verb}`
      : `Recipient ${key} has the role "${role}"; it can ${role} or view, not ${verb}`,
};

/** Brings a recipient of `role` into `state` and returns the walk and its name. */
async function recipientIn(role: Role, state: string) {
  const target = { name: 'Target', action: role, position: 2 };
  const walk = await createAndSend(t, [{ name: 'First', action: 'sign', position: 1 }, target]);
  if (state === 'waiting') return walk;
  expect((await walk.act('First', 'sign')).status).toBe(200);
  if (state === 'seen') expect((await walk.act('Target', 'view')).status).toBe(200);
  if (['signed', 'approved', 'locked', 'viewed'].includes(state))
    expect((await walk.act('Target', role)).status).toBe(200);
  expect((await walk.states()).Target).toBe(state);
  return walk;
}

describe('the recipient state table', () => {
  it.each(CASES)('a recipient whose role is %s, %s, tries to %s: %s', async (role, state, verb, expected) => {
    const walk = await recipientIn(role, state);
    const res = await walk.act('Target', verb);
    if (expected in REASON) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: 409, message: REASON[expected]!(role, verb, walk.keys.Target!) });
      expect((await walk.states()).Target).toBe(state);
    } else {
      expect(res.status).toBe(200);
      expect(res.body.recipient.state).toBe(expected);
      expect((await walk.states()).Target).toBe(expected);
    }
  });

  it('covers every state and every kind of verb in the code table', () => {
    expect(Object.keys(RECIPIENT_RULES).sort()).toEqual([
      'approved',
      'locked',
      'notified',
      'seen',
      'signed',
      'viewed',
      'waiting',
    ]);
    for (const row of Object.values(RECIPIENT_RULES)) expect(Object.keys(row).sort()).toEqual(['other', 'own', 'view']);
  });

  it.each([
    ['Created', 'Sent', 'Sent'],
    ['Sent', 'Seen', 'Seen'],
    ['Seen', 'Sent', 'Seen'],
    ['Signed', 'Seen', 'Signed'],
    ['Signed', 'Approved', 'Approved'],
    ['Approved', 'Signed', 'Signed'],
    ['Fully signed', 'Approved', 'Fully signed'],
    ['Fully signed', 'Sent', 'Fully signed'],
  ] as [ContractStatus, ContractStatus, ContractStatus][])(
    'status %s after a %s step is %s',
    (current, stepStatus, expected) => {
      expect(advanceStatus(current, stepStatus)).toBe(expected);
    },
  );
});
