import { describe, expect, it } from 'vitest';
import { messageOf } from '../support/scenario-kit.js';

const CASES: [string, string, string][] = [
  [
    'at and when together',
    'name: x\ntimeline:\n  - { at: 1h, when: contract.sent, clearFaults: true }\n',
    'my.yaml:3:5: timeline[0]: "at" and "when" cannot be combined: a step runs at a time or in reaction',
  ],
  [
    'an unknown event',
    'name: x\ntimeline:\n  - when: contract.signd\n    clearFaults: true\n',
    'my.yaml:3:11: timeline[0].when: expected an event name (contract.created, contract.sent, contract.seen, contract.signed, contract.approved, contract.fully_signed, contract.archived, token.created, document.uploaded) or a mapping with event, request or step, got "contract.signd"',
  ],
  [
    'a recipient narrowing an event without one',
    'name: x\ntimeline:\n  - when: { event: contract.fully_signed, recipient: { position: 2 } }\n    clearFaults: true\n',
    'my.yaml:3:54: timeline[0].when.recipient: recipient narrows contract.seen, contract.signed, contract.approved only (the events with an acting recipient)',
  ],
  [
    'a delay without a trigger',
    'name: x\ntimeline:\n  - { at: 1h, after: 5m, clearFaults: true }\n',
    'my.yaml:3:22: timeline[0].after: after goes with "when" (a triggered step)',
  ],
  [
    'a count of zero',
    'name: x\ntimeline:\n  - { when: token.created, times: 0, clearFaults: true }\n',
    'my.yaml:3:35: timeline[0].times: expected number to be >=1, got 0',
  ],
  [
    'a step that does not exist',
    'name: x\ntimeline:\n  - { when: { step: nope }, clearFaults: true }\n',
    'my.yaml:3:21: timeline[0].when.step: no step "nope" in this scenario\'s timeline; its steps: step-1',
  ],
  [
    'two conditions in one expectation',
    'name: x\nexpect:\n  - { request: { path: /api/token }, noRequest: { status: 4xx } }\n',
    'my.yaml:3:5: expect[0]: expected one condition per entry, got request and noRequest; split them',
  ],
  [
    'within without after',
    'name: x\nexpect:\n  - { request: { path: /api/token }, within: 1h }\n',
    'my.yaml:3:46: expect[0].within: within counts from after: give after too',
  ],
  [
    'a status class that is not one',
    'name: x\nexpect:\n  - { delivery: { status: 2xy } }\n',
    'my.yaml:3:27: expect[0].delivery.status: expected a status like 404 or a class like "4xx", got "2xy"',
  ],
];

describe('invalid reactions and expectations', () => {
  it.each(CASES)(
    'report %s with the file, line:column, key path and what was expected',
    async (_what, text, expected) => {
      expect(await messageOf(text)).toBe(expected);
    },
  );
});
