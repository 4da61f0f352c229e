/**
 * Snapshots of the whole sandbox state (GET/PUT /__sandbox/state): every stored record plus the clock. A
 * snapshot put back is validated first, record by record and reference by reference, so a hand-edited or
 * truncated file is refused with the fields that are wrong instead of leaving a half-restored sandbox.
 */
import { z } from 'zod';
import { parseWith } from '../core/validation.js';
import type { FieldError } from '../core/errors.js';
import { ApiError } from '../core/errors.js';
import { COLLECTIONS, type StoreData, recordSchemas } from './records.js';
import { lazy } from '../core/lazy.js';

export const SNAPSHOT_FORMAT = 'esign-sandbox-state';

/** Unknown fields are kept (passthrough), so a snapshot written by a newer version still loads. */
const table = <S extends z.ZodObject>(record: S) => z.record(z.string(), record.loose());

/** The store's collections, each a table of its record's schema (records.ts). */
export const storeDataSchema = () => {
  const records = recordSchemas().collections;
  return z.object({
    version: z.literal(1),
    platforms: table(records.platforms),
    clients: table(records.clients),
    users: table(records.users),
    contracts: table(records.contracts),
    recipients: table(records.recipients),
    placeholders: table(records.placeholders),
    templates: table(records.templates),
    webhooks: table(records.webhooks),
    tokens: table(records.tokens),
    // Absent in snapshots written before share links existed.
    shareLinks: table(records.shareLinks).default({}),
  });
};

const clockSchema = () =>
  z.object({ now: z.iso.datetime({ offset: true }), mode: z.enum(['real', 'frozen']).optional() });

export const snapshotSchema = lazy(() =>
  z.object({
    format: z.literal(SNAPSHOT_FORMAT).optional(),
    version: z.literal(1),
    savedAt: z.string().optional(),
    clock: clockSchema().optional(),
    /** Tenants' own clocks, by platformId (docs/library.md, "Parallel tests"). */
    tenantClocks: z.record(z.string(), clockSchema()).optional(),
    store: storeDataSchema(),
    /**
     * What is in flight, as a data file keeps it (docs/persistence.md, "What is kept"): deliveries and their retries,
     * timers, scenarios, faults, outages, emails; by collection, then key. Absent in older snapshots.
     */
    kept: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  }),
);

/** A snapshot as the schema reads it, its store typed by the records (the schema keeps unknown fields). */
export type Snapshot = Omit<z.infer<ReturnType<typeof snapshotSchema>>, 'store'> & { store: StoreData };

const KEY_FIELD: Record<(typeof COLLECTIONS)[number], string> = {
  platforms: 'platformId',
  clients: 'clientKey',
  users: 'userKey',
  contracts: 'contractKey',
  recipients: 'recipientKey',
  placeholders: 'placeholderKey',
  templates: 'templateKey',
  webhooks: 'webhookKey',
  tokens: 'token',
  shareLinks: 'shareLink',
};

/**
 * What the schema cannot say: each record sits under its own key, and every reference points at a record
 * of the same platform that exists. Answers the broken references as field errors (empty when sound).
 */
export function referenceErrors(data: StoreData): FieldError[] {
  const errors: FieldError[] = [];
  // A token record's key is the token itself, a secret: its place in the file stands for it in messages.
  const tokenNumbers = new Map(Object.keys(data.tokens).map((k, i) => [k, `#${i + 1}`]));
  const at = (name: string, k: string, field: string) =>
    `store.${name}.${name === 'tokens' ? `[token ${tokenNumbers.get(k)}]` : k}.${field}`;
  for (const name of COLLECTIONS) {
    for (const [k, record] of Object.entries(data[name] as unknown as Record<string, Record<string, unknown>>)) {
      if (record[KEY_FIELD[name]] !== k)
        errors.push({
          path: at(name, k, KEY_FIELD[name]),
          message: name === 'tokens' ? "Must equal the record's key" : `Must equal the record's key "${k}"`,
        });
    }
  }
  const apiKeys = new Set<string>();
  for (const [k, p] of Object.entries(data.platforms)) {
    if (apiKeys.has(p.apiKey))
      errors.push({ path: at('platforms', k, 'apiKey'), message: 'Another platform already has this apiKey' });
    apiKeys.add(p.apiKey);
  }
  const refer = (
    name: (typeof COLLECTIONS)[number],
    field: string,
    target: (typeof COLLECTIONS)[number],
    optional = false,
  ) => {
    for (const [k, record] of Object.entries(data[name] as unknown as Record<string, Record<string, unknown>>)) {
      const value = record[field];
      if (value === undefined && optional) continue;
      const found = (data[target] as Record<string, { platformId?: string }>)[String(value)];
      if (!found) errors.push({ path: at(name, k, field), message: `No ${target} record "${String(value)}"` });
      else if (target !== 'platforms' && found.platformId !== record.platformId) {
        errors.push({
          path: at(name, k, field),
          message: `The ${target} record "${String(value)}" belongs to another platform`,
        });
      }
    }
  };
  for (const name of COLLECTIONS) if (name !== 'platforms') refer(name, 'platformId', 'platforms');
  for (const name of ['users', 'contracts', 'recipients', 'placeholders', 'templates', 'webhooks'] as const)
    refer(name, 'clientKey', 'clients');
  refer('tokens', 'clientKey', 'clients', true);
  refer('recipients', 'contractKey', 'contracts');
  refer('shareLinks', 'contractKey', 'contracts');
  refer('shareLinks', 'clientKey', 'clients');
  refer('placeholders', 'contractKey', 'contracts', true);
  refer('placeholders', 'templateKey', 'templates', true);
  for (const [k, p] of Object.entries(data.placeholders)) {
    if ((p.contractKey === undefined) === (p.templateKey === undefined)) {
      errors.push({
        path: at('placeholders', k, 'contractKey'),
        message: 'A placeholder belongs to exactly one contract or template',
      });
    }
  }
  return errors;
}

/**
 * A snapshot body, parsed and checked, or the 400 naming every wrong field. Paths that would hold a token (the key of
 * a token record) name its place instead: the answer and the request journal never repeat a secret.
 */
export function parseSnapshot(input: unknown): Snapshot {
  const tokenKeys = tokenKeysOf(input);
  let snapshot: Snapshot;
  try {
    snapshot = parseWith(snapshotSchema(), input) as unknown as Snapshot;
  } catch (error) {
    if (!(error instanceof ApiError) || tokenKeys.size === 0) throw error;
    const hide = (text: string) =>
      text.replace(/store\.tokens\.([^.;\s]+)/g, (whole, key: string) =>
        tokenKeys.has(key) ? `store.tokens.[token ${tokenKeys.get(key)}]` : whole,
      );
    throw new ApiError(
      error.status,
      hide(error.message),
      error.errors?.map((e) => ({ ...e, path: hide(e.path) })),
    );
  }
  checkSnapshot(snapshot);
  return snapshot;
}

function tokenKeysOf(input: unknown): Map<string, string> {
  const tokens = (input as { store?: { tokens?: unknown } } | null)?.store?.tokens;
  return tokens && typeof tokens === 'object'
    ? new Map(Object.keys(tokens).map((k, i) => [k, `#${i + 1}`]))
    : new Map();
}

/** Checks what the schema cannot say (references, keys), answering 400 with every wrong field. */
export function checkSnapshot(parsed: Snapshot): void {
  const errors = referenceErrors(parsed.store);
  if (errors.length === 0) return;
  const shown = errors
    .slice(0, 3)
    .map((e) => `${e.path}: ${e.message}`)
    .join('; ');
  throw ApiError.badRequest(
    `Invalid snapshot: ${shown}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ''}`,
    errors,
  );
}
