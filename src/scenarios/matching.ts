/**
 * Moments and recipient matches, used in several places of the scenario format (schema.ts, reaction-schema.ts):
 * their schemas, and how they are read.
 */
import { z } from 'zod';
import { RECIPIENT_ROLES } from '../core/vocabulary.js';
import { DURATION_PATTERN, TOO_LONG, glob, keyPattern, spansClock } from '../core/schemas.js';
import { durationMs } from '../core/duration.js';
import { TIME_RANGE, later } from '../core/time-range.js';
import { globMatches } from '../core/glob.js';
import type { ContractRecord, RecipientRecord } from '../store/records.js';

const ISO_HINT = 'expected an ISO 8601 time like 2026-03-02T09:00:00Z';
export const isoTime = () => z.iso.datetime({ offset: true, error: ISO_HINT });

/** A moment: a duration after the scenario was loaded, or an absolute ISO 8601 time. */
export const moment = () =>
  z
    .union([z.number().min(0), z.string().regex(DURATION_PATTERN), isoTime()], {
      error: 'expected a duration after load like "2h" or an ISO 8601 time like 2026-03-02T09:00:00Z',
    })
    .refine((m) => isIso(m) || spansClock(m), TOO_LONG)
    .meta({ description: 'When: a duration after the scenario is loaded ("2h", "3d"), or an absolute ISO 8601 time.' });

const role = () => z.enum(RECIPIENT_ROLES);

/** Which recipients a rule or step is about. Every given field must match; an empty match matches everyone. */
export const recipientMatch = () =>
  z
    .strictObject({
      email: glob().optional().meta({ description: 'Recipient email glob, e.g. "*@acme.example".' }),
      name: glob().optional().meta({ description: 'Recipient full name glob.' }),
      role: z
        .union([role(), z.array(role()).min(1)], {
          error: 'expected one of "view", "sign", "approve", "lock", or a list of them',
        })
        .optional()
        .meta({ description: 'Recipient role(s): view, sign, approve, lock.' }),
      position: z
        .union([z.number().int().min(0), z.array(z.number().int().min(0)).min(1)], {
          error: 'expected a position (a whole number from 0), or a list of them',
        })
        .optional()
        .meta({ description: 'Signing position(s) of the recipient.' }),
      client: keyPattern().optional().meta({ description: 'clientKey of the contract’s client.' }),
      contract: glob().optional().meta({ description: 'Contract name glob (or its exact contractKey).' }),
      recipient: keyPattern().optional().meta({ description: 'One recipient, by recipientKey.' }),
    })
    .meta({ description: 'Which recipients this applies to. Every field given must match; {} matches everyone.' });

export type RecipientMatch = z.infer<ReturnType<typeof recipientMatch>>;

/** When a step is due: a duration after the scenario was loaded, or an absolute time. */
export function momentOf(at: string | number, loadedAt: number): number {
  return isIso(at) ? Date.parse(at) : later(loadedAt, durationMs(at));
}

/** Whether a moment counted from `loadAt` lies past the last time the clock can show (an ISO time never does). */
export function landsPastClock(at: string | number, loadAt: number): boolean {
  return !isIso(at) && loadAt + durationMs(at) > TIME_RANGE.max;
}

function isIso(at: string | number): at is string {
  return typeof at === 'string' && /\d{4}-\d{2}-\d{2}T/.test(at);
}

export function matches(match: RecipientMatch, recipient: RecipientRecord, contract: ContractRecord): boolean {
  if (match.recipient !== undefined && match.recipient !== recipient.recipientKey) return false;
  if (match.email !== undefined && !globMatches(match.email, recipient.email ?? '')) return false;
  if (match.name !== undefined && !globMatches(match.name, recipient.fullname ?? '')) return false;
  if (match.role !== undefined && !(Array.isArray(match.role) ? match.role : [match.role]).includes(recipient.action))
    return false;
  if (match.position !== undefined) {
    const positions = Array.isArray(match.position) ? match.position : [match.position];
    if (recipient.position === undefined || !positions.includes(recipient.position)) return false;
  }
  if (match.client !== undefined && match.client !== contract.clientKey) return false;
  if (
    match.contract !== undefined &&
    match.contract !== contract.contractKey &&
    !globMatches(match.contract, contract.name)
  )
    return false;
  return true;
}
