/** The clock's operations (docs/library.md, "The clock"): the sandbox's, or one tenant's own. */

import { advanceBody, setBody } from '../control/schemas.js';
import { clockState } from './examples.js';
import type { ControlTable } from './operation.js';

export const clockOps = {
  'clock.state': {
    tool: 'clock_state',
    route: 'GET /clock',
    summary: 'The clock: time, mode and pending timers (scoped: the tenant’s own clock, or the sandbox’s it follows)',
    answer: clockState,
    handle: (_r, { control, tenant }) => control.clock.state(tenant),
  },
  'clock.advance': {
    tool: 'advance_clock',
    route: 'POST /clock/advance',
    summary:
      'Move time forward, running every timer that falls due; answers once their work has settled (scoped: only the tenant’s timers)',
    body: advanceBody,
    example: { by: '30m' },
    answer: { ...clockState, now: '2026-03-01T09:30:00.000Z' },
    request: (by) => ({ body: { by } }),
    handle: (r, { control, tenant }) => control.clock.advance(r.body as { by: string }, tenant),
  },
  'clock.freeze': {
    tool: 'freeze_clock',
    route: 'POST /clock/freeze',
    summary: 'Stop the clock',
    answer: clockState,
    handle: (_r, { control, tenant }) => control.clock.freeze(tenant),
  },
  'clock.unfreeze': {
    tool: 'unfreeze_clock',
    route: 'POST /clock/unfreeze',
    summary: 'Let the clock follow wall time again',
    answer: { ...clockState, mode: 'real' },
    handle: (_r, { control, tenant }) => control.clock.unfreeze(tenant),
  },
  'clock.set': {
    tool: 'set_clock',
    route: 'POST /clock/set',
    summary: 'Jump to a time; forward jumps run the timers on the way',
    body: setBody,
    example: { to: '2026-03-02T09:00:00Z' },
    answer: { ...clockState, now: '2026-03-02T09:00:00.000Z' },
    request: (to) => ({ body: { to: to instanceof Date ? to.toISOString() : to } }),
    handle: (r, { control, tenant }) => control.clock.set(r.body as { to: string }, tenant),
  },
} satisfies Partial<ControlTable>;
