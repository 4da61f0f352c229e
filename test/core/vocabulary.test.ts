import { describe, expect, it } from 'vitest';
import {
  CONTRACT_EVENT_TYPES,
  CONTRACT_STATUSES,
  HISTORY,
  RECIPIENT_ROLES,
  RECIPIENT_STATES,
  ROLE_OUTCOME,
  SPECIAL_TYPES,
  WEBHOOK_FLAGS,
  WEBHOOK_FLAG_FOR,
  isOutcomeState,
  pastTense,
  specialKey,
  specialTypeName,
  specialTypeOf,
  statusId,
} from '../../src/core/vocabulary.js';

describe('the vocabulary', () => {
  it('numbers the statuses 1 to 7 in dictionary order and knows no other name', () => {
    expect(CONTRACT_STATUSES.map(statusId)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(statusId('Fully signed')).toBe(6);
    expect(statusId('Lost')).toBeUndefined();
  });

  it.each([1, 2, 3, 4, 5] as const)(
    'reads special type %i from the field, and from the key when the field is absent',
    (code) => {
      const placeholderKey = specialKey('Rabc123', code);
      expect(placeholderKey).toBe(`Rabc123_${code}`);
      expect(specialTypeOf({ placeholderKey, specialType: code })).toBe(code);
      expect(specialTypeOf({ placeholderKey })).toBe(code);
      expect(specialTypeName({ placeholderKey })).toBe(SPECIAL_TYPES[code]);
    },
  );

  it('names a special placeholder whose code it cannot tell as such, not as a date or a signature', () => {
    expect(specialTypeOf({ placeholderKey: 'Pxyz' })).toBeUndefined();
    expect(specialTypeName({ placeholderKey: 'Pxyz' })).toBe('Special placeholder');
  });

  it('has one webhook flag per contract event', () => {
    expect(CONTRACT_EVENT_TYPES.map((t) => WEBHOOK_FLAG_FOR[t]).sort()).toEqual([...WEBHOOK_FLAGS].sort());
  });
});

describe('what a role does when it acts', () => {
  it('names each role once: its past tense is a recipient state and a history event, and ends the recipient part', () => {
    expect(Object.keys(ROLE_OUTCOME).sort()).toEqual([...RECIPIENT_ROLES].sort());
    for (const role of RECIPIENT_ROLES) {
      const done = pastTense(role);
      expect(RECIPIENT_STATES).toContain(done);
      expect(Object.values(HISTORY)).toContain(done);
      expect(isOutcomeState(done)).toBe(true);
      expect(CONTRACT_STATUSES).toContain(ROLE_OUTCOME[role].status);
    }
    expect(RECIPIENT_STATES.filter(isOutcomeState)).toEqual(['signed', 'approved', 'locked', 'viewed']);
  });
});
