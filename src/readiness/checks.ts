/** Every readiness check, in the order the report lists them (docs/readiness.md has one section each). */
import type { Check } from './check.js';
import { clientErrors } from './client-errors.js';
import { polling } from './polling.js';
import {
  acceptsForgedWebhook,
  acceptsStaleWebhook,
  rejectsDuplicate,
  slowWebhookReceiver,
  webhookReceiverFailing,
} from './receiver.js';
import { ignoresRetryAfter } from './retry-after.js';
import { expiredTokenReused, tokenPerRequest } from './tokens.js';
import { untestedChecks } from './untested.js';

export const CHECKS: readonly Check[] = [
  polling,
  ignoresRetryAfter,
  expiredTokenReused,
  acceptsForgedWebhook,
  acceptsStaleWebhook,
  webhookReceiverFailing,
  tokenPerRequest,
  slowWebhookReceiver,
  rejectsDuplicate,
  clientErrors,
  ...untestedChecks,
];

export const CHECK_IDS: readonly string[] = CHECKS.map((c) => c.id);
