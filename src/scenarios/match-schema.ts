/**
 * Pieces of the scenario format used in several places (schema.ts, reaction-schema.ts): moments and recipient
 * matches.
 */
import { z } from 'zod';
import { RECIPIENT_ROLES } from '../core/vocabulary.js';
import { DURATION_PATTERN, glob, keyPattern } from '../core/schemas.js';

const ISO_HINT = 'expected an ISO 8601 time like 2026-03-02T09:00:00Z';
export const isoTime = () => z.iso.datetime({ offset: true, error: ISO_HINT });

/** A moment: a duration after the scenario was loaded, or an absolute ISO 8601 time. */
export const moment = () =>
  z
    .union([z.number().min(0), z.string().regex(DURATION_PATTERN), isoTime()], {
      error: 'expected a duration after load like "2h" or an ISO 8601 time like 2026-03-02T09:00:00Z',
    })
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
